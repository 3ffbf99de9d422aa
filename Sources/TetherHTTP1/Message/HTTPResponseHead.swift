/// The head of a response as a client receives it: the status line and the header fields, kept as received.
public struct HTTPResponseHead: Sendable, Hashable {
    /// The version the server answered with.
    public var version: HTTPVersion
    /// The status code and the reason phrase as sent (which may be empty).
    public var status: HTTPStatus
    /// The header fields in the order received; repeated fields stay separate lines.
    public var headers: HTTPHeaders

    public init(version: HTTPVersion = .http11, status: HTTPStatus, headers: HTTPHeaders = [:]) {
        self.version = version
        self.status = status
        self.headers = headers
    }

    /// Whether the connection may carry another request after this response (RFC 9112 §9.3): HTTP/1.1 unless a
    /// `Connection` field lists `close`, HTTP/1.0 only when one lists `keep-alive`.
    ///
    /// The framing can still end the connection: a body delimited by the close never leaves it reusable (see
    /// ``HTTPResponseParser``).
    public var keepAlive: Bool {
        HTTPRequest(method: .get, target: "/", version: version, headers: headers).keepAlive
    }
}
