/// The one error type of TetherHTTP1: a request that cannot be parsed or exceeds a limit, with the status a
/// server should answer it with.
public struct HTTP1Error: Error, Sendable, Hashable, CustomStringConvertible {
    /// The response status for this error: 400 malformed, 408 timeout, 413 body too large, 414/431 too long,
    /// 501 unsupported transfer coding, 505 unsupported version.
    public var status: HTTPStatus
    /// What was wrong, for the error body and logs.
    public var message: String

    public init(_ status: HTTPStatus, _ message: String) {
        self.status = status
        self.message = message
    }

    public var description: String { "\(status): \(message)" }
}
