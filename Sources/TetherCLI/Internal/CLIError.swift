/// Why a command stopped early; ``TetherCLI/run(arguments:stdin:stdout:stderr:)`` turns it into a message on
/// standard error and an exit code.
enum CLIError: Error, Equatable {
    /// The command line is wrong: an unknown command or option, or a missing or extra argument. Exit code 2.
    ///
    /// `hint` is the command whose help would explain, such as `"tether json --help"`.
    case usage(String, hint: String)
    /// The command could not do its work, such as a file that cannot be read. Exit code 1.
    ///
    /// The message is printed as is after `tether: `; it may span several lines.
    case failure(String)
    /// A write whose outcome is not known yet (the server could not be reached, or did not answer): it is kept in
    /// the outbox, and `tether sync` or the app sends it. Exit code 3.
    case pending(String)

    /// The process exit code for this error.
    var exitCode: Int32 {
        switch self {
        case .usage: ExitCode.usage
        case .failure: ExitCode.failure
        case .pending: ExitCode.pending
        }
    }

    /// The text for standard error, ending with a newline.
    var message: String {
        switch self {
        case .usage(let message, let hint): "tether: \(message); see '\(hint)'\n"
        case .failure(let message), .pending(let message): "tether: \(message)\n"
        }
    }
}

/// The exit codes of `tether`.
enum ExitCode {
    /// Success.
    static let success: Int32 = 0
    /// The command failed: invalid input, an unreadable file.
    static let failure: Int32 = 1
    /// The command line was wrong.
    static let usage: Int32 = 2
    /// A write was kept for later: its outcome is unknown, or the server could not be reached.
    static let pending: Int32 = 3
}
