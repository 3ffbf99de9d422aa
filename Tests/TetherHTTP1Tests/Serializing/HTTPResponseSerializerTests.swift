import Testing

@testable import TetherHTTP1

@Suite struct HTTPResponseSerializerTests {
    static let date = "Sun, 06 Nov 1994 08:49:37 GMT"

    func text(_ bytes: [UInt8]) -> String { String(decoding: bytes, as: UTF8.self) }

    @Test func headWithContentLength() {
        let response = HTTPResponse(
            status: .ok, headers: ["Content-Type": "application/json", "Date": Self.date], body: Array("{}".utf8))
        let head = HTTPResponseSerializer.head(of: response, bodyLength: 2, version: .http11, keepAlive: true)
        #expect(
            text(head)
                == "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nDate: \(Self.date)\r\nContent-Length: 2\r\n\r\n"
        )
    }

    @Test func headWithChunkedAndClose() {
        let response = HTTPResponse(status: .created, headers: ["Date": Self.date, "X-A": "1", "x-b": "2"])
        let head = HTTPResponseSerializer.head(of: response, bodyLength: nil, version: .http11, keepAlive: false)
        #expect(
            text(head)
                == "HTTP/1.1 201 Created\r\nDate: \(Self.date)\r\nX-A: 1\r\nx-b: 2\r\n"
                + "Transfer-Encoding: chunked\r\nConnection: close\r\n\r\n")
        #expect(HTTPResponseSerializer.framing(of: response, bodyLength: nil, version: .http11) == .chunked)
    }

    @Test func http10KeepAliveAndUntilClose() {
        let response = HTTPResponse(headers: ["Date": Self.date])
        let kept = HTTPResponseSerializer.head(of: response, bodyLength: 0, version: .http10, keepAlive: true)
        #expect(
            text(kept) == "HTTP/1.1 200 OK\r\nDate: \(Self.date)\r\nContent-Length: 0\r\nConnection: keep-alive\r\n\r\n"
        )
        let streamed = HTTPResponseSerializer.head(of: response, bodyLength: nil, version: .http10, keepAlive: true)
        #expect(text(streamed) == "HTTP/1.1 200 OK\r\nDate: \(Self.date)\r\nConnection: close\r\n\r\n")
        #expect(HTTPResponseSerializer.framing(of: response, bodyLength: nil, version: .http10) == .untilClose)
    }

    @Test(arguments: [100, 101, 204, 304])
    func bodilessStatusesGetNoFraming(code: Int) {
        let response = HTTPResponse(status: HTTPStatus(code: code), headers: ["Date": Self.date])
        for length in [nil, 0, 5] {
            let head = text(
                HTTPResponseSerializer.head(of: response, bodyLength: length, version: .http11, keepAlive: true))
            #expect(head == "HTTP/1.1 \(code) \(HTTPStatus.standardReason(for: code))\r\nDate: \(Self.date)\r\n\r\n")
            #expect(HTTPResponseSerializer.framing(of: response, bodyLength: length, version: .http11) == .none)
        }
    }

    @Test func noContentDropsItsOwnLengthButNotModifiedKeepsIt() {
        let headers: HTTPHeaders = ["Date": Self.date, "Content-Length": "7"]
        let noContent = HTTPResponseSerializer.head(
            of: HTTPResponse(status: .noContent, headers: headers), bodyLength: nil, version: .http11, keepAlive: true)
        #expect(text(noContent) == "HTTP/1.1 204 No Content\r\nDate: \(Self.date)\r\n\r\n")
        let notModified = HTTPResponseSerializer.head(
            of: HTTPResponse(status: .notModified, headers: headers), bodyLength: nil, version: .http11, keepAlive: true
        )
        #expect(text(notModified) == "HTTP/1.1 304 Not Modified\r\nDate: \(Self.date)\r\nContent-Length: 7\r\n\r\n")
    }

    @Test func ownContentLengthIsKeptAndOwnFramingFieldsAreDropped() {
        let response = HTTPResponse(headers: [
            "Date": Self.date, "Content-Length": "42", "Transfer-Encoding": "gzip", "Connection": "upgrade",
        ])
        let head = HTTPResponseSerializer.head(of: response, bodyLength: 0, version: .http11, keepAlive: true)
        #expect(text(head) == "HTTP/1.1 200 OK\r\nDate: \(Self.date)\r\nContent-Length: 42\r\n\r\n")
        #expect(HTTPResponseSerializer.framing(of: response, bodyLength: nil, version: .http11) == .contentLength(42))
        let invalid = HTTPResponse(headers: ["Date": Self.date, "Content-Length": "4x"])
        #expect(
            text(HTTPResponseSerializer.head(of: invalid, bodyLength: 3, version: .http11, keepAlive: true))
                == "HTTP/1.1 200 OK\r\nDate: \(Self.date)\r\nContent-Length: 3\r\n\r\n")
    }

    @Test func dropsFieldsThatWouldSplitTheResponse() {
        let response = HTTPResponse(
            status: HTTPStatus(code: 200, reason: "OK\r\nX-Evil: 1"),
            headers: [
                "Date": Self.date, "X-Split": "a\r\nSet-Cookie: evil", "X-LF": "a\nb", "Bad Name": "x",
                "X-Nul": "\u{0}",
                "X-Tab": "a\tb", "X-Ok": "caf\u{E9}",
            ])
        let head = HTTPResponseSerializer.head(of: response, bodyLength: 0, version: .http11, keepAlive: true)
        #expect(
            text(head)
                == "HTTP/1.1 200 OK\r\nDate: \(Self.date)\r\nX-Tab: a\tb\r\nX-Ok: caf\u{E9}\r\nContent-Length: 0\r\n\r\n"
        )
    }

    @Test(arguments: [0, 42, 1000, -1])
    func statusCodesOutOfRangeAre500(code: Int) {
        let response = HTTPResponse(status: HTTPStatus(code: code, reason: "Odd"), headers: ["Date": Self.date])
        let head = text(HTTPResponseSerializer.head(of: response, bodyLength: 0, version: .http11, keepAlive: true))
        #expect(head == "HTTP/1.1 500 Internal Server Error\r\nDate: \(Self.date)\r\nContent-Length: 0\r\n\r\n")
    }

    @Test func addsADateFromTheClock() throws {
        let head = text(
            HTTPResponseSerializer.head(of: HTTPResponse(), bodyLength: 0, version: .http11, keepAlive: true))
        let line = try #require(head.split(separator: "\r\n").first { $0.hasPrefix("Date: ") })
        let value = line.dropFirst(6)
        #expect(value.utf8.count == 29)
        #expect(value.hasSuffix(" GMT"))
        let now = HTTPResponseSerializer.currentTime()
        #expect(now > 1_600_000_000)
        let expected = [
            HTTPResponseSerializer.imfFixdate(secondsSince1970: now - 1),
            HTTPResponseSerializer.imfFixdate(secondsSince1970: now),
        ]
        #expect(expected.contains(String(value)))
    }

    @Test(arguments: [
        (0, "Thu, 01 Jan 1970 00:00:00 GMT"),
        (784_111_777, "Sun, 06 Nov 1994 08:49:37 GMT"),
        (951_782_400, "Tue, 29 Feb 2000 00:00:00 GMT"),
        (1_709_251_199, "Thu, 29 Feb 2024 23:59:59 GMT"),
        (4_102_444_800, "Fri, 01 Jan 2100 00:00:00 GMT"),
        (-1, "Wed, 31 Dec 1969 23:59:59 GMT"),
    ])
    func imfFixdate(seconds: Int, expected: String) {
        #expect(HTTPResponseSerializer.imfFixdate(secondsSince1970: seconds) == expected)
    }

    @Test func chunks() {
        #expect(HTTPResponseSerializer.chunk([]) == [])
        #expect(text(HTTPResponseSerializer.chunk(Array("hello".utf8))) == "5\r\nhello\r\n")
        #expect(text(HTTPResponseSerializer.chunk([UInt8](repeating: 0x61, count: 26))).hasPrefix("1a\r\n"))
        #expect(text(HTTPResponseSerializer.lastChunk) == "0\r\n\r\n")
        #expect(text(HTTPResponseSerializer.continueResponse) == "HTTP/1.1 100 Continue\r\n\r\n")
    }

    @Test func chunkedOutputParsesBack() throws {
        let body =
            HTTPResponseSerializer.chunk(Array("hello ".utf8)) + HTTPResponseSerializer.chunk(Array("world".utf8))
            + HTTPResponseSerializer.lastChunk
        let feeding = Feeding(Array("POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n".utf8) + body)
        #expect(try #require(feeding.requests.first).body == Array("hello world".utf8))
    }
}
