import Testing

@testable import TetherHTTP1

@Suite struct HTTPResponseParserTests {
    @Test func contentLengthBodyAndKeepAlive() throws {
        let feeding = ResponseFeeding("HTTP/1.1 200 OK\r\nContent-Length: 5\r\nX-A: 1\r\n\r\nhello")
        #expect(feeding.error == nil)
        let response = try #require(feeding.responses.first)
        #expect(response.head.status == HTTPStatus(code: 200, reason: "OK"))
        #expect(response.head.version == .http11)
        #expect(response.body == Array("hello".utf8))
        #expect(response.complete)
        #expect(feeding.reusable == [true])
        #expect(feeding.parser.isIdle)
    }

    @Test(arguments: [1, 2, 3, 7, 64])
    func anySplitGivesTheSameResponses(pieceSize: Int) {
        let text =
            "HTTP/1.1 200 OK\r\nContent-Length: 3\r\n\r\nabc"
            + "HTTP/1.1 201 Created\r\nTransfer-Encoding: chunked\r\n\r\n2;x=y\r\nde\r\n1\r\nf\r\n0\r\nT: 1\r\n\r\n"
            + "HTTP/1.1 204 No Content\r\n\r\n"
        let whole = ResponseFeeding(text, methods: [.get, .post, .delete])
        let split = ResponseFeeding(text, methods: [.get, .post, .delete], pieceSize: pieceSize)
        #expect(whole.error == nil)
        #expect(whole.responses == split.responses)
        #expect(whole.bodies == ["abc", "def", ""])
        #expect(whole.responses[1].trailers == ["T": "1"])
        #expect(whole.reusable == [true, true, true])
    }

    @Test func repeatedHeaderLinesStaySeparate() throws {
        let feeding = ResponseFeeding(
            "HTTP/1.1 200 OK\r\nAge: 5\r\nSet-Cookie: a=1\r\nAge: 7\r\nset-cookie: b=2\r\nContent-Length: 0\r\n\r\n")
        let headers = try #require(feeding.responses.first).head.headers
        #expect(headers.values(for: "Age") == ["5", "7"])
        #expect(headers.values(for: "Set-Cookie") == ["a=1", "b=2"])
        #expect(headers.map(\.name) == ["Age", "Set-Cookie", "Age", "set-cookie", "Content-Length"])
    }

    @Test func chunkedWithTrailers() throws {
        let feeding = ResponseFeeding(
            "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n0\r\nX-Checksum: abc\r\nX-More: 2\r\n\r\n",
            pieceSize: 4)
        let response = try #require(feeding.responses.first)
        #expect(response.body == Array("hello".utf8))
        #expect(response.trailers == ["X-Checksum": "abc", "X-More": "2"])
        #expect(feeding.reusable == [true])
    }

    @Test func bodyUntilCloseEndsOnlyWithTheClose() throws {
        let text = "HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\n\r\nall of this"
        let open = ResponseFeeding(text)
        #expect(open.responses.first?.complete == false)
        let closed = ResponseFeeding(text, pieceSize: 3, close: true)
        let response = try #require(closed.responses.first)
        #expect(response.complete)
        #expect(response.body == Array("all of this".utf8))
        #expect(closed.reusable == [false])
    }

    @Test func unknownTransferCodingRunsUntilClose() throws {
        let feeding = ResponseFeeding("HTTP/1.1 200 OK\r\nTransfer-Encoding: gzip\r\n\r\nxyz", close: true)
        #expect(feeding.parser.currentFraming == .untilClose)
        #expect(feeding.bodies == ["xyz"])
    }

    @Test func interimResponsesAreSkipped() throws {
        let feeding = ResponseFeeding(
            "HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 103 Early Hints\r\nLink: </a.css>\r\n\r\n"
                + "HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok", methods: [.post], pieceSize: 5)
        let response = try #require(feeding.responses.first)
        #expect(feeding.responses.count == 1)
        #expect(response.informational == [100, 103])
        #expect(response.head.status.code == 200)
        #expect(response.body == Array("ok".utf8))
    }

    @Test func headAnd204And304HaveNoBody() {
        let feeding = ResponseFeeding(
            "HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\n" + "HTTP/1.1 204 No Content\r\nContent-Length: 0\r\n\r\n"
                + "HTTP/1.1 304 Not Modified\r\nContent-Length: 10\r\nETag: \"a\"\r\n\r\n"
                + "HTTP/1.1 200 OK\r\nContent-Length: 1\r\n\r\nz", methods: [.head, .get, .get, .get])
        #expect(feeding.error == nil)
        #expect(feeding.responses.map(\.head.status.code) == [200, 204, 304, 200])
        #expect(feeding.bodies == ["", "", "", "z"])
        #expect(feeding.responses.allSatisfy { $0.complete })
    }

    @Test func connectionCloseAndHTTP10AreNotReusable() {
        let feeding = ResponseFeeding(
            "HTTP/1.1 200 OK\r\nConnection: close\r\nContent-Length: 0\r\n\r\n"
                + "HTTP/1.0 200 OK\r\nContent-Length: 0\r\n\r\n"
                + "HTTP/1.0 200 OK\r\nConnection: keep-alive\r\nContent-Length: 0\r\n\r\n",
            methods: [.get, .get, .get])
        #expect(feeding.reusable == [false, false, true])
        #expect(feeding.responses[1].head.version == .http10)
    }

    @Test func emptyOrMissingReasonPhrase() {
        let feeding = ResponseFeeding(
            "HTTP/1.1 200 \r\nContent-Length: 0\r\n\r\nHTTP/1.1 404\r\nContent-Length: 0\r\n\r\n",
            methods: [.get, .get])
        #expect(feeding.error == nil)
        #expect(feeding.responses.map(\.head.status.reason) == ["", ""])
        #expect(feeding.responses.map(\.head.status.code) == [200, 404])
    }

    @Test(arguments: [
        "HTTP/2 200 OK\r\n\r\n", "HTTP/1.1 20 OK\r\n\r\n", "HTTP/1.1 2000 OK\r\n\r\n", "HTTP/1.1 099 Low\r\n\r\n",
        "HTTP/1.1 200 OK\r\nBad Name: x\r\n\r\n", "HTTP/1.1 200 OK\r\n folded\r\n\r\n",
        "HTTP/1.1 200 OK\r\nContent-Length: 1, 2\r\n\r\n", "HTTP/1.1 200 OK\r\nContent-Length: x\r\n\r\n",
        "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n",
        "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n1\r\nab\r\n", "junk\r\n\r\n",
    ])
    func malformedResponsesAre502(text: String) {
        let feeding = ResponseFeeding(text)
        #expect(feeding.status == 502)
        #expect(feeding.parser.failure == feeding.error)
    }

    @Test func aFailedParserKeepsFailing() {
        var parser = HTTPResponseParser()
        parser.append(Array("nonsense\r\n".utf8))
        #expect(throws: HTTP1Error.self) { try parser.next() }
        parser.append(Array("HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n".utf8))
        #expect(throws: HTTP1Error.self) { try parser.next() }
        #expect(throws: HTTP1Error.self) { try parser.finish() }
        #expect(!parser.isIdle)
    }

    @Test func closeInTheMiddleIsAnError() {
        for text in [
            "HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\nabc", "HTTP/1.1 200 OK\r\nContent-",
            "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nab",
        ] {
            let feeding = ResponseFeeding(text, close: true)
            #expect(feeding.status == 502, "\(text)")
        }
        #expect(ResponseFeeding("", close: true).error == nil)
    }

    @Test func limits() {
        let small = HTTPResponseParser.Limits(
            maximumStatusLineLength: 20, maximumHeaderBytes: 40, maximumBodyBytes: 8)
        #expect(ResponseFeeding("HTTP/1.1 200 " + String(repeating: "a", count: 30), limits: small).status == 502)
        #expect(
            ResponseFeeding("HTTP/1.1 200 OK\r\nX: " + String(repeating: "a", count: 50) + "\r\n\r\n", limits: small)
                .status == 502)
        #expect(ResponseFeeding("HTTP/1.1 200 OK\r\nContent-Length: 9\r\n\r\n", limits: small).status == 413)
        #expect(
            ResponseFeeding(
                "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nabcde\r\n5\r\n", limits: small
            ).status == 413)
        #expect(ResponseFeeding("HTTP/1.1 200 OK\r\n\r\n123456789", limits: small).status == 413)
        let trailers =
            "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n0\r\nT: " + String(repeating: "b", count: 50)
        #expect(ResponseFeeding(trailers + "\r\n\r\n", limits: small).status == 502)
    }

    @Test func transferEncodingWithContentLengthIsChunkedButNotReused() {
        let feeding = ResponseFeeding(
            "HTTP/1.1 200 OK\r\nContent-Length: 100\r\nTransfer-Encoding: chunked\r\n\r\n1\r\na\r\n0\r\n\r\n")
        #expect(feeding.bodies == ["a"])
        #expect(feeding.reusable == [false])
    }

    @Test func switchingProtocolsEndsTheExchange() throws {
        var parser = HTTPResponseParser()
        parser.append(Array("HTTP/1.1 101 Switching Protocols\r\nUpgrade: x\r\n\r\nraw bytes".utf8))
        guard case .head(let head) = try parser.next() else {
            Issue.record("no head")
            return
        }
        #expect(head.status.code == 101)
        #expect(try parser.next() == nil)
        #expect(!parser.isReusable)
    }
}
