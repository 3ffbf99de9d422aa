/// An HTTP response: status, header fields and a body.
///
/// The serializer adds `Content-Length` (or chunked framing for streamed bodies), `Date` and `Connection` when
/// they are missing.
public struct HTTPResponse: Sendable {
    /// How the body is produced.
    public enum Body: Sendable {
        /// All of it, now.
        case bytes([UInt8])
        /// Chunks produced over time, sent with chunked transfer encoding (or until close for HTTP/1.0).
        case stream(AsyncStream<[UInt8]>)
    }

    public var status: HTTPStatus
    public var headers: HTTPHeaders
    public var body: Body

    public init(status: HTTPStatus = .ok, headers: HTTPHeaders = [:], body: [UInt8] = []) {
        self.status = status
        self.headers = headers
        self.body = .bytes(body)
    }

    public init(status: HTTPStatus = .ok, headers: HTTPHeaders = [:], stream: AsyncStream<[UInt8]>) {
        self.status = status
        self.headers = headers
        self.body = .stream(stream)
    }

    /// The body's bytes, or `nil` when it is a stream.
    public var bodyBytes: [UInt8]? {
        if case .bytes(let bytes) = body { return bytes }
        return nil
    }
}
