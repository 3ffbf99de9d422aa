/// How far a transfer has come.
public struct TransferProgress: Sendable, Hashable {
    /// Body bytes sent so far.
    public var bytesSent: Int
    /// The request body's size, when there is one.
    public var totalBytesToSend: Int?
    /// Body bytes received so far.
    public var bytesReceived: Int
    /// The response's `Content-Length`, when the server sent one.
    public var totalBytesExpected: Int?

    public init(
        bytesSent: Int = 0, totalBytesToSend: Int? = nil, bytesReceived: Int = 0, totalBytesExpected: Int? = nil
    ) {
        self.bytesSent = bytesSent
        self.totalBytesToSend = totalBytesToSend
        self.bytesReceived = bytesReceived
        self.totalBytesExpected = totalBytesExpected
    }

    /// Received bytes over the expected total, from 0 to 1, or `nil` when the total is unknown.
    public var fractionReceived: Double? {
        guard let total = totalBytesExpected, total > 0 else { return nil }
        return min(1, Double(bytesReceived) / Double(total))
    }
}
