/// An incremental HTTP/1.1 request parser: feed it bytes as they arrive, take complete requests out in order.
///
/// STUB: the API is fixed; the implementation is being written. Do not rely on its behaviour yet.
public struct HTTPRequestParser: Sendable {
    /// Limits; a request over one is an ``HTTP1Error`` with the status to answer.
    public struct Limits: Sendable, Hashable {
        /// The longest request line (method, target, version), else 414 (target) or 400.
        public var maximumRequestLineLength: Int
        /// The most bytes of header fields, else 431.
        public var maximumHeaderBytes: Int
        /// The largest body (Content-Length or chunked total), else 413.
        public var maximumBodyBytes: Int

        public init(
            maximumRequestLineLength: Int = 8 * 1024, maximumHeaderBytes: Int = 16 * 1024,
            maximumBodyBytes: Int = 10 * 1024 * 1024
        ) {
            self.maximumRequestLineLength = maximumRequestLineLength
            self.maximumHeaderBytes = maximumHeaderBytes
            self.maximumBodyBytes = maximumBodyBytes
        }
    }

    public let limits: Limits

    public init(limits: Limits = Limits()) {
        self.limits = limits
    }

    /// Adds bytes received from the connection.
    public mutating func append(_ bytes: some Sequence<UInt8>) {}

    /// The next complete request, or `nil` when more bytes are needed.
    ///
    /// - Throws: ``HTTP1Error``; the connection should answer with its status and close.
    public mutating func nextRequest() throws(HTTP1Error) -> HTTPRequest? { nil }

    /// Whether a request head with `Expect: 100-continue` has been read and its body has not: the server should
    /// send `100 Continue` (once) before the client sends the body.
    public var isAwaitingContinue: Bool { false }

    /// Marks the pending `100 Continue` as sent.
    public mutating func continueSent() {}

    /// Whether no partial request is buffered (so a quiet connection is idle, not a slow client).
    public var isIdle: Bool { true }
}
