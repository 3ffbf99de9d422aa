import Testing

@testable import TetherHTTP1

/// The chunked framing both parsers share: the same bodies and trailers in, the same bytes out, and only the
/// errors' statuses differ (a request's 400/413/431, a response's 502/413), byte by byte or all at once.
@Suite("HTTP/1.1 framing shared by the request and response parsers")
struct SharedChunkedFramingTests {
    static let requestHead = "POST /e HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n"
    static let responseHead = "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n"

    @Test(arguments: [nil, 1, 3])
    func bothDirectionsReadTheSameChunkedBody(pieceSize: Int?) throws {
        let body = "5;ext=1\r\nhello\r\n1\r\n \r\n5\r\nworld\r\n0\r\nX-Sum: 1\r\n\r\n"
        let request = Feeding(Array((Self.requestHead + body).utf8), pieceSize: pieceSize)
        let response = ResponseFeeding(Array((Self.responseHead + body).utf8), pieceSize: pieceSize)
        #expect(request.error == nil && response.error == nil)
        #expect(request.requests.first?.body == Array("hello world".utf8))
        #expect(response.responses.first?.body == Array("hello world".utf8))
        #expect(response.responses.first?.trailers == ["X-Sum": "1"])
    }

    @Test(arguments: [
        ("5\r\nhelloX", 400, 502),  // chunk data without its line end
        (String(repeating: "0", count: 5000) + "1\r\n", 400, 502),  // a chunk-size line over 4096 bytes
        ("zz\r\n", 400, 502),  // not a hex size
        ("0\r\nBad Trailer: x\r\n\r\n", 400, 502),  // a malformed trailer field
    ])
    func malformedFramingFailsBothWaysWithEachDirectionsStatus(body: String, requestStatus: Int, responseStatus: Int) {
        let request = Feeding(Array((Self.requestHead + body).utf8))
        let response = ResponseFeeding(Array((Self.responseHead + body).utf8))
        #expect(request.error?.status.code == requestStatus)
        #expect(response.error?.status.code == responseStatus)
        #expect(request.error?.message == response.error?.message)
    }

    @Test func limitsAreEachDirectionsOwn() {
        let bigTrailer = "0\r\nX-Big: " + String(repeating: "a", count: 300) + "\r\n\r\n"
        let request = Feeding(
            Array((Self.requestHead + bigTrailer).utf8),
            limits: .init(maximumHeaderBytes: 200))
        #expect(request.error?.status.code == 431)
        let response = ResponseFeeding(
            Array((Self.responseHead + bigTrailer).utf8), limits: .init(maximumHeaderBytes: 200))
        #expect(response.error?.status.code == 502)

        let tooMuch = "10\r\n" + String(repeating: "b", count: 16) + "\r\n0\r\n\r\n"
        #expect(
            Feeding(Array((Self.requestHead + tooMuch).utf8), limits: .init(maximumBodyBytes: 8)).error?.status.code
                == 413)
        #expect(
            ResponseFeeding(Array((Self.responseHead + tooMuch).utf8), limits: .init(maximumBodyBytes: 8)).error?
                .status.code == 413)
    }
}
