@testable import TetherHTTP1

/// What a parser made of some bytes: the requests in order, then the error it stopped with.
struct Feeding {
    var requests: [HTTPRequest] = []
    var error: HTTP1Error?
    var parser: HTTPRequestParser

    /// Feeds `bytes` in pieces of `pieceSize` (all at once when `nil`), taking requests out after each piece.
    init(_ bytes: [UInt8], pieceSize: Int? = nil, limits: HTTPRequestParser.Limits = .init()) {
        parser = HTTPRequestParser(limits: limits)
        let size = max(1, pieceSize ?? bytes.count)
        var start = 0
        repeat {
            let end = min(start + size, bytes.count)
            parser.append(bytes[start..<end])
            do {
                while let request = try parser.nextRequest() { requests.append(request) }
            } catch {
                self.error = error
                return
            }
            start = end
        } while start < bytes.count
    }

    init(_ text: String, pieceSize: Int? = nil, limits: HTTPRequestParser.Limits = .init()) {
        self.init(Array(text.utf8), pieceSize: pieceSize, limits: limits)
    }

    /// The status of the error, or `nil`.
    var status: Int? { error?.status.code }
}

extension HTTPRequest {
    /// The comparable parts of a request.
    var summary: String {
        let fields = headers.map { "\($0.name)=\($0.value)" }.joined(separator: "|")
        return "\(method) \(target) \(version) [\(fields)] \(body)"
    }
}
