/// The one error of TetherIO: what failed (``Code``), the system's `errno` when there is one, and a sentence for
/// logs and users.
public struct IOError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What went wrong; an open set, so new codes do not break exhaustive code.
    public struct Code: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
        public let rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }

        /// The host name did not resolve (`getaddrinfo` failed or found no address).
        public static let unknownHost = Code(rawValue: "unknownHost")
        /// Every address refused or failed the connection.
        public static let connectionFailed = Code(rawValue: "connectionFailed")
        /// The connection was not made within the connect timeout.
        public static let connectTimeout = Code(rawValue: "connectTimeout")
        /// The peer reset the connection.
        public static let connectionReset = Code(rawValue: "connectionReset")
        /// The peer closed the connection before the exchange was complete.
        public static let connectionClosed = Code(rawValue: "connectionClosed")
        /// The connection was closed on purpose (cancellation, a deadline, shutdown).
        public static let closedLocally = Code(rawValue: "closedLocally")
        /// A listening socket's address is taken by another socket (`EADDRINUSE`).
        public static let addressInUse = Code(rawValue: "addressInUse")
        /// A listening socket could not be bound to its address for another reason (permissions, no such address).
        public static let bindFailed = Code(rawValue: "bindFailed")
        /// Another system call failed.
        public static let systemCall = Code(rawValue: "systemCall")

        public var description: String { rawValue }
    }

    public var code: Code
    /// `errno` of the failed call, or 0.
    public var errno: Int32
    public var message: String

    public init(_ code: Code, errno: Int32 = 0, _ message: String) {
        self.code = code
        self.errno = errno
        self.message = message
    }

    public var description: String { message }
}
