import Testing

@testable import TetherHTTP1

@Suite struct HTTPRequestParserTests {
    @Test func parsesASimpleRequest() throws {
        let feeding = Feeding("GET /posts?userId=1 HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept:  */*  \r\n\r\n")
        #expect(feeding.error == nil)
        let request = try #require(feeding.requests.first)
        #expect(feeding.requests.count == 1)
        #expect(request.method == .get)
        #expect(request.target == "/posts?userId=1")
        #expect(request.version == .http11)
        #expect(request.headers["host"] == "127.0.0.1")
        #expect(request.headers["Accept"] == "*/*")
        #expect(request.headers.map(\.name) == ["Host", "Accept"])
        #expect(request.body.isEmpty)
        #expect(feeding.parser.isIdle)
    }

    @Test func returnsNilUntilTheHeadIsComplete() throws {
        var parser = HTTPRequestParser()
        parser.append(Array("GET / HTTP/1.1\r\nHost: a\r\n".utf8))
        #expect(try parser.nextRequest() == nil)
        #expect(!parser.isIdle)
        parser.append(Array("\r".utf8))
        #expect(try parser.nextRequest() == nil)
        parser.append(Array("\n".utf8))
        let request = try #require(try parser.nextRequest())
        #expect(request.target == "/")
        #expect(parser.isIdle)
        #expect(try parser.nextRequest() == nil)
    }

    @Test func contentLengthBody() throws {
        let feeding = Feeding("POST /posts HTTP/1.1\r\nHost: a\r\nContent-Length: 5\r\n\r\nhello")
        let request = try #require(feeding.requests.first)
        #expect(request.body == Array("hello".utf8))
        #expect(feeding.parser.isIdle)
    }

    @Test func waitsForTheWholeBody() throws {
        var parser = HTTPRequestParser()
        parser.append(Array("PUT /x HTTP/1.1\r\nHost: a\r\nContent-Length: 4\r\n\r\nab".utf8))
        #expect(try parser.nextRequest() == nil)
        #expect(!parser.isIdle)
        parser.append(Array("cdGET".utf8))
        #expect(try parser.nextRequest()?.body == Array("abcd".utf8))
        #expect(try parser.nextRequest() == nil)
        #expect(!parser.isIdle)
    }

    @Test func equalDuplicateContentLengthsAreOneLength() throws {
        let feeding = Feeding(
            "POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 3\r\nContent-Length: 3, 3\r\n\r\nabc")
        #expect(feeding.requests.first?.body == Array("abc".utf8))
    }

    @Test func pipelinedRequestsComeOutInOrder() {
        let text =
            "GET /a HTTP/1.1\r\nHost: a\r\n\r\n"
            + "POST /b HTTP/1.1\r\nHost: a\r\nContent-Length: 3\r\n\r\nxyz"
            + "POST /c HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n2;x=y\r\nhi\r\n0\r\nT: 1\r\n\r\n"
            + "\r\nDELETE /d HTTP/1.0\r\n\r\n"
        let whole = Feeding(text)
        #expect(whole.error == nil)
        #expect(whole.requests.map(\.target) == ["/a", "/b", "/c", "/d"])
        #expect(whole.requests.map(\.body) == [[], Array("xyz".utf8), Array("hi".utf8), []])
        for size in [1, 2, 3, 7, 64] {
            let pieces = Feeding(text, pieceSize: size)
            #expect(pieces.error == nil)
            #expect(pieces.requests.map(\.summary) == whole.requests.map(\.summary), "pieces of \(size)")
            #expect(pieces.parser.isIdle)
        }
    }

    @Test func manyPipelinedRequestsInOneAppend() {
        let one = "GET /item HTTP/1.1\r\nHost: a\r\nContent-Length: 2\r\n\r\nok"
        let feeding = Feeding(String(repeating: one, count: 2000))
        #expect(feeding.error == nil)
        #expect(feeding.requests.count == 2000)
        #expect(feeding.requests.allSatisfy { $0.body == Array("ok".utf8) })
    }

    @Test func streamOfRequestsCompactsTheBuffer() throws {
        var parser = HTTPRequestParser()
        let one = Array("GET /item HTTP/1.1\r\nHost: a\r\n\r\n".utf8)
        var count = 0
        for _ in 0..<5000 {
            parser.append(one.prefix(10))
            parser.append(one.dropFirst(10))
            while try parser.nextRequest() != nil { count += 1 }
        }
        #expect(count == 5000)
        #expect(parser.isIdle)
    }

    @Test func acceptsBareLineFeeds() throws {
        let feeding = Feeding("GET / HTTP/1.1\nHost: a\nX: 1\r\n\nGET /2 HTTP/1.1\nHost: a\n\n")
        #expect(feeding.error == nil)
        #expect(feeding.requests.map(\.target) == ["/", "/2"])
        #expect(feeding.requests.first?.headers["X"] == "1")
    }

    @Test func skipsEmptyLinesBeforeARequest() {
        let feeding = Feeding("\r\n\n\r\nGET / HTTP/1.1\r\nHost: a\r\n\r\n\r\n")
        #expect(feeding.requests.count == 1)
        #expect(feeding.parser.isIdle)
    }

    @Test func http10NeedsNoHost() throws {
        let feeding = Feeding("GET / HTTP/1.0\r\n\r\n")
        #expect(try #require(feeding.requests.first).version == .http10)
    }

    @Test func keepsObsTextAndEmptyValues() throws {
        let feeding = Feeding(Array("GET / HTTP/1.1\r\nHost: a\r\nX-Empty:\r\nX-Name: caf\u{E9} \t\r\n\r\n".utf8))
        let request = try #require(feeding.requests.first)
        #expect(request.headers["X-Empty"] == "")
        #expect(request.headers["X-Name"] == "caf\u{E9}")
    }

    @Test func methodsAreOpen() throws {
        let feeding = Feeding("PROPFIND /dav HTTP/1.1\r\nHost: a\r\n\r\n")
        #expect(try #require(feeding.requests.first).method == HTTPMethod("PROPFIND"))
    }

    @Test func afterAnErrorEveryCallThrowsTheSameError() {
        var parser = HTTPRequestParser()
        parser.append(Array("GET / HTTP/3.0\r\n\r\n".utf8))
        var first: HTTP1Error?
        do {
            _ = try parser.nextRequest()
        } catch {
            first = error
        }
        #expect(first?.status == .httpVersionNotSupported)
        #expect(parser.failure == first)
        parser.append(Array("GET / HTTP/1.1\r\nHost: a\r\n\r\n".utf8))
        #expect(throws: first!) { try parser.nextRequest() }
        #expect(throws: first!) { try parser.nextRequest() }
        #expect(!parser.isIdle)
    }
}

@Suite("HTTP/1.1 request parser: releasing the buffer between requests")
struct HTTPRequestParserReleaseTests {
    @Test func releasingBetweenRequestsKeepsWhatIsBufferedAndTheNextRequestParses() throws {
        var parser = HTTPRequestParser()
        parser.append(Array("GET /a HTTP/1.1\r\nHost: x\r\n\r\nGET /b HT".utf8))
        #expect(try parser.nextRequest()?.target == "/a")
        // Part of /b is buffered: nothing is released.
        parser.releaseBuffer()
        parser.append(Array("TP/1.1\r\nHost: x\r\n\r\n".utf8))
        #expect(try parser.nextRequest()?.target == "/b")
        #expect(try parser.nextRequest() == nil)
        parser.releaseBuffer()
        #expect(parser.isIdle)
        parser.append(Array("GET /c HTTP/1.1\r\nHost: x\r\n\r\n".utf8))
        #expect(try parser.nextRequest()?.target == "/c")
    }
}
