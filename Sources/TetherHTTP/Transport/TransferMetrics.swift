/// Timings and sizes of one transfer as the transport measured them, on the monotonic clock from the moment the
/// transport was handed the request (``NativeTransport`` fills them in; URLSession on Linux delivers none).
public struct TransferMetrics: Sendable, Hashable {
    /// The host name look-up; `nil` on a reused connection.
    public var lookup: Duration?
    /// Making the TCP connection, after the look-up; `nil` on a reused connection.
    public var connect: Duration?
    /// The TLS handshake; `nil` without TLS or on a reused connection.
    public var tls: Duration?
    /// Until the whole request had gone to the socket.
    public var requestSent: Duration?
    /// Until the first byte of the response arrived.
    public var firstByte: Duration?
    /// Until the whole response had arrived (and was decoded).
    public var complete: Duration?
    /// Bytes written to the connection (head and body).
    public var bytesSent: Int
    /// Bytes read from the connection (head and body, before content decoding).
    public var bytesReceived: Int
    /// Whether the request went over a connection that had carried an earlier one.
    public var reusedConnection: Bool
    /// The address connected to, such as `127.0.0.1:8080`.
    public var remoteAddress: String?

    public init(
        lookup: Duration? = nil, connect: Duration? = nil, tls: Duration? = nil, requestSent: Duration? = nil,
        firstByte: Duration? = nil, complete: Duration? = nil, bytesSent: Int = 0, bytesReceived: Int = 0,
        reusedConnection: Bool = false, remoteAddress: String? = nil
    ) {
        self.lookup = lookup
        self.connect = connect
        self.tls = tls
        self.requestSent = requestSent
        self.firstByte = firstByte
        self.complete = complete
        self.bytesSent = bytesSent
        self.bytesReceived = bytesReceived
        self.reusedConnection = reusedConnection
        self.remoteAddress = remoteAddress
    }
}
