@testable import TetherHTTP1

/// One response as a ``ResponseFeeding`` collected it.
struct CollectedResponse: Equatable {
    var head: HTTPResponseHead
    var informational: [Int] = []
    var body: [UInt8] = []
    var trailers: HTTPHeaders = [:]
    var complete = false
}

/// What a response parser made of some bytes: the responses in order, then the error it stopped with.
struct ResponseFeeding {
    var responses: [CollectedResponse] = []
    var error: HTTP1Error?
    var parser: HTTPResponseParser
    /// Whether the connection could be reused after each complete response, in order.
    var reusable: [Bool] = []

    /// Feeds `bytes` in pieces of `pieceSize` (all at once when `nil`) for requests with `methods`, then reports
    /// the close when `close` is true.
    init(
        _ bytes: [UInt8], methods: [HTTPMethod] = [.get], pieceSize: Int? = nil, close: Bool = false,
        limits: HTTPResponseParser.Limits = .init()
    ) {
        parser = HTTPResponseParser(limits: limits)
        for method in methods { parser.expectResponse(to: method) }
        let size = max(1, pieceSize ?? bytes.count)
        var start = 0
        var informational: [Int] = []
        do {
            repeat {
                let end = min(start + size, bytes.count)
                parser.append(bytes[start..<end])
                while let event = try parser.next() { take(event, &informational) }
                start = end
            } while start < bytes.count
            if close, let event = try parser.finish() { take(event, &informational) }
        } catch {
            self.error = error
        }
    }

    init(
        _ text: String, methods: [HTTPMethod] = [.get], pieceSize: Int? = nil, close: Bool = false,
        limits: HTTPResponseParser.Limits = .init()
    ) {
        self.init(Array(text.utf8), methods: methods, pieceSize: pieceSize, close: close, limits: limits)
    }

    private mutating func take(_ event: HTTPResponseParser.Event, _ informational: inout [Int]) {
        switch event {
        case .informational(let head):
            informational.append(head.status.code)
        case .head(let head):
            responses.append(CollectedResponse(head: head, informational: informational))
            informational = []
        case .body(let bytes):
            precondition(!bytes.isEmpty)
            responses[responses.count - 1].body += bytes
        case .end(let trailers):
            responses[responses.count - 1].trailers = trailers
            responses[responses.count - 1].complete = true
            reusable.append(parser.isReusable)
        }
    }

    var status: Int? { error?.status.code }
    var bodies: [String] { responses.map { String(decoding: $0.body, as: UTF8.self) } }
}
