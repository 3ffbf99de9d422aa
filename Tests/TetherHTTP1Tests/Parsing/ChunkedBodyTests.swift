import Testing

@testable import TetherHTTP1

@Suite struct ChunkedBodyTests {
    static let head = "POST /upload HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n"

    @Test func joinsChunks() throws {
        let feeding = Feeding(Self.head + "5\r\nhello\r\n1\r\n \r\nA\r\n0123456789\r\n0\r\n\r\n")
        #expect(feeding.error == nil)
        #expect(try #require(feeding.requests.first).body == Array("hello 0123456789".utf8))
        #expect(feeding.parser.isIdle)
    }

    @Test func ignoresExtensionsAndDropsTrailers() throws {
        let body =
            "5;name=value;flag\r\nhello\r\n6 ; q=\"a b\"\r\n world\r\n0;last\r\nX-Checksum: 1\r\nX-More: 2\r\n\r\n"
        let feeding = Feeding(Self.head + body + "GET /next HTTP/1.1\r\nHost: a\r\n\r\n")
        #expect(feeding.error == nil)
        let request = try #require(feeding.requests.first)
        #expect(request.body == Array("hello world".utf8))
        #expect(!request.headers.contains("X-Checksum"))
        #expect(request.headers["Transfer-Encoding"] == "chunked")
        #expect(feeding.requests.map(\.target) == ["/upload", "/next"])
    }

    @Test func hexSizesInEitherCase() throws {
        let payload = String(repeating: "z", count: 26)
        let feeding = Feeding(Self.head + "1a\r\n\(payload)\r\n0\r\n\r\n" + Self.head + "1A\r\n\(payload)\r\n0\r\n\r\n")
        #expect(feeding.requests.map(\.body.count) == [26, 26])
    }

    @Test func byteAtATimeEqualsWhole() {
        let text = Self.head + "3;e=1\r\nabc\r\n2\r\nde\r\n0\r\nT: x\r\n\r\n"
        let whole = Feeding(text)
        let single = Feeding(text, pieceSize: 1)
        #expect(whole.requests.map(\.summary) == single.requests.map(\.summary))
        #expect(single.requests.first?.body == Array("abcde".utf8))
    }

    @Test func transferEncodingIsCaseInsensitive() throws {
        let feeding = Feeding("POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: Chunked\r\n\r\n0\r\n\r\n")
        #expect(try #require(feeding.requests.first).body.isEmpty)
    }

    @Test(arguments: [
        ("zz\r\n", 400),  // not hex
        ("\r\n", 400),  // no size
        ("5\r\nhelloXX", 400),  // data not followed by CRLF
        ("5\r\nhello\rX", 400),  // CR not followed by LF
        ("5 x\r\nhello\r\n0\r\n\r\n", 400),  // junk after the size
        ("5;\u{1}\r\nhello\r\n0\r\n\r\n", 400),  // control in an extension
        ("0\r\nBad Trailer: x\r\n\r\n", 400),  // invalid trailer field
        ("FFFFFFFFFFFFFFFFFFFF\r\n", 413),  // overflow
    ])
    func malformedChunks(body: String, status: Int) {
        #expect(Feeding(Self.head + body).status == status)
        #expect(Feeding(Self.head + body, pieceSize: 1).status == status)
    }
}
