/// The one error type of TetherServer: a server that cannot start, or a database or option it cannot use.
///
/// A struct with an open set of codes, so new failures can be added without breaking a `switch`. Other parts of
/// the module add their codes in an extension of ``Code``.
///
/// ```swift
/// import TetherServer
///
/// let server = HTTPServer(responders: [JSONServerResponder(database: try JSONDatabase(BuiltInDataSet.make()))])
/// do {
///     _ = try await server.start()
/// } catch where error.code == .addressInUse {
///     print("the port is taken")
/// }
/// ```
public struct ServerError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What kind of failure this is.
    public struct Code: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
        public let rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }

        /// The port is taken by another socket (`EADDRINUSE`).
        public static let addressInUse = Code(rawValue: "addressInUse")
        /// The host is not a numeric address or a name that resolves to one here.
        public static let invalidHost = Code(rawValue: "invalidHost")
        /// The port is outside 0...65535.
        public static let invalidPort = Code(rawValue: "invalidPort")
        /// Binding is not allowed (`EACCES`, `EADDRNOTAVAIL`, for example IPv6 on a host without it).
        public static let bindFailed = Code(rawValue: "bindFailed")
        /// A socket call failed (`socket`, `listen`, threads).
        public static let socketFailed = Code(rawValue: "socketFailed")
        /// `start()` was called on a server that is running or was stopped.
        public static let invalidState = Code(rawValue: "invalidState")
        /// The HTTPS certificate or private key cannot be used: a file that cannot be read, holds no PEM
        /// certificate or key, or a key that does not match the certificate (or HTTPS off Linux).
        public static let invalidTLSIdentity = Code(rawValue: "invalidTLSIdentity")
        /// An option's text (a duration, a rate, a fault script) cannot be read.
        public static let invalidOption = Code(rawValue: "invalidOption")

        public var description: String { rawValue }
    }

    /// The kind of failure.
    public var code: Code
    /// A message for people: what failed and with which input.
    public var message: String
    /// The `errno` of the failing system call, when there was one.
    public var systemError: Int32?

    public init(_ code: Code, _ message: String, systemError: Int32? = nil) {
        self.code = code
        self.message = message
        self.systemError = systemError
    }

    public var description: String { message }
}
