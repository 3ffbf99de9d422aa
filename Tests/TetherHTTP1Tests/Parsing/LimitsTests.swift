import Testing

@testable import TetherHTTP1

@Suite struct LimitsTests {
    static let small = HTTPRequestParser.Limits(
        maximumRequestLineLength: 32, maximumHeaderBytes: 64, maximumBodyBytes: 10)

    @Test func requestLineAtTheLimitIsAccepted() {
        let line = "GET /" + String(repeating: "a", count: 18) + " HTTP/1.1"
        #expect(line.utf8.count == 32)
        let feeding = Feeding(line + "\r\nHost: a\r\n\r\n", limits: Self.small)
        #expect(feeding.error == nil)
        #expect(feeding.requests.count == 1)
    }

    @Test(arguments: [nil, 1])
    func longTargetIs414(pieceSize: Int?) {
        let line = "GET /" + String(repeating: "a", count: 19) + " HTTP/1.1"
        #expect(Feeding(line + "\r\nHost: a\r\n\r\n", pieceSize: pieceSize, limits: Self.small).status == 414)
    }

    @Test func longTargetIs414BeforeTheLineEnds() {
        let feeding = Feeding("GET /" + String(repeating: "a", count: 100), limits: Self.small)
        #expect(feeding.status == 414)
    }

    @Test func longLineWithoutAMethodIs400() {
        #expect(Feeding(String(repeating: "A", count: 100), limits: Self.small).status == 400)
    }

    @Test(arguments: [nil, 1])
    func headersOverTheLimitAre431(pieceSize: Int?) {
        // 40 + 2 bytes and 20 + 2 bytes: 64 fits, one byte more does not.
        let fits = "X-A: " + String(repeating: "a", count: 35) + "\r\n" + "Host: " + String(repeating: "h", count: 14)
        let head = "GET / HTTP/1.1\r\n" + fits
        #expect(Feeding(head + "\r\n\r\n", pieceSize: pieceSize, limits: Self.small).error == nil)
        #expect(Feeding(head + "h\r\n\r\n", pieceSize: pieceSize, limits: Self.small).status == 431)
    }

    @Test func endlessHeaderLineIs431BeforeItEnds() {
        let feeding = Feeding("GET / HTTP/1.1\r\nX: " + String(repeating: "a", count: 100), limits: Self.small)
        #expect(feeding.status == 431)
    }

    @Test func contentLengthOverTheLimitIs413BeforeTheBody() {
        var parser = HTTPRequestParser(limits: Self.small)
        parser.append(Array("POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 11\r\n\r\n".utf8))
        #expect(throws: HTTP1Error.self) { try parser.nextRequest() }
        #expect(parser.failure?.status == .payloadTooLarge)
    }

    @Test func bodyAtTheLimitIsAccepted() {
        let feeding = Feeding("POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 10\r\n\r\n0123456789", limits: Self.small)
        #expect(feeding.requests.first?.body.count == 10)
    }

    @Test(arguments: [nil, 1])
    func chunkedTotalOverTheLimitIs413(pieceSize: Int?) {
        let head = "POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n"
        let fits = Feeding(head + "5\r\n01234\r\n5\r\n56789\r\n0\r\n\r\n", pieceSize: pieceSize, limits: Self.small)
        #expect(fits.requests.first?.body.count == 10)
        let over = Feeding(head + "5\r\n01234\r\n6\r\n", pieceSize: pieceSize, limits: Self.small)
        #expect(over.status == 413)
    }

    @Test func longChunkExtensionIs400() {
        let head = "POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n"
        let ext = String(repeating: "e", count: HTTPRequestParser.maximumChunkLineLength + 10)
        #expect(Feeding(head + "1;" + ext).status == 400)
        #expect(Feeding(head + "1;" + ext + "\r\n").status == 400)
    }

    @Test func largeTrailersAre431() {
        let head = "POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n"
        #expect(
            Feeding(head + "T: " + String(repeating: "t", count: 100) + "\r\n\r\n", limits: Self.small).status == 431)
    }
}
