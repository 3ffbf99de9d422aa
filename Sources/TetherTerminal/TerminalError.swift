/// The one error type of TetherTerminal: a terminal that cannot be opened, configured or written to.
///
/// A struct with an open set of codes, so new failures can be added without breaking a `switch`.
///
/// ```swift
/// import TetherTerminal
///
/// do {
///     let session = try TerminalSession()
///     try session.enterRawMode()
///     session.close()
/// } catch where error.code == .notATerminal {
///     print("not a terminal: plain output instead")
/// }
/// ```
public struct TerminalError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What kind of failure this is.
    public struct Code: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
        public let rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }

        /// The file descriptor is not a terminal (a pipe, a file, `/dev/null`): there is no raw mode to enter.
        public static let notATerminal = Code(rawValue: "notATerminal")
        /// A terminal call failed: `tcgetattr`, `tcsetattr`, `pipe`, `sigaction`.
        public static let systemCallFailed = Code(rawValue: "systemCallFailed")
        /// Writing to the terminal failed (it was closed, or the other end hung up).
        public static let writeFailed = Code(rawValue: "writeFailed")
        /// The session was closed.
        public static let closed = Code(rawValue: "closed")

        public var description: String { rawValue }
    }

    /// The kind of failure.
    public var code: Code
    /// A message for people: what failed and on which descriptor.
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
