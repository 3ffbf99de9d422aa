import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The commands of the `tether` executable, as a library so tests can run them in-process.
///
/// ```swift
/// import TetherCLI
///
/// var output: [UInt8] = []
/// var errors: [UInt8] = []
/// let status = TetherCLI.run(
///     arguments: ["json", "-"], stdin: { Array(#"{"a": 1}"#.utf8) },
///     stdout: { output += $0 }, stderr: { errors += $0 })
/// // status == 0, output holds the pretty-printed JSON
/// ```
///
/// Exit codes: 0 on success, 1 when a command fails (invalid JSON, an unreadable file), 2 for a wrong command
/// line (an unknown command or option, a missing argument), with a one-line message and a hint on standard error.
public enum TetherCLI {
    /// The version of `tether`.
    public static let version = "0.1.0"

    /// Runs `tether` with `arguments` (without the program name) and returns the exit code.
    ///
    /// - Parameters:
    ///   - arguments: the command line after the program name, such as `["json", "--compact", "data.json"]`.
    ///   - stdin: reads all of standard input; called only by commands that read it, at most once.
    ///   - stdout: receives standard output, in order.
    ///   - stderr: receives standard error, in order.
    /// - Returns: the process exit code.
    ///   - opensTerminalApp: whether `tether` without a command may open the full-screen app (only the process's
    ///     own ``main()`` does: the app takes over the terminal and the main thread); otherwise it prints the
    ///     overview of the commands.
    public static func run(
        arguments: [String],
        stdin: () throws -> [UInt8],
        stdout: ([UInt8]) -> Void,
        stderr: ([UInt8]) -> Void,
        opensTerminalApp: Bool = false
    ) -> Int32 {
        withoutActuallyEscaping(stdin) { stdin in
            withoutActuallyEscaping(stdout) { stdout in
                withoutActuallyEscaping(stderr) { stderr in
                    let console = Console(readInput: stdin, writeOutput: stdout, writeError: stderr)
                    do throws(CLIError) {
                        return try dispatch(arguments[...], console: console, opensTerminalApp: opensTerminalApp)
                    } catch {
                        console.printError(error.message)
                        return error.exitCode
                    }
                }
            }
        }
    }

    /// Runs `tether` with the process's arguments and standard streams, then exits with its exit code.
    public static func main() -> Never {
        let status = run(
            arguments: Array(CommandLine.arguments.dropFirst()),
            stdin: { () throws(SystemIO.Failure) in try SystemIO.read(descriptor: STDIN_FILENO) },
            stdout: { SystemIO.write($0, to: STDOUT_FILENO) },
            stderr: { SystemIO.write($0, to: STDERR_FILENO) },
            opensTerminalApp: true)
        exit(status)
    }

    /// Picks the command named by the first argument and runs it with the rest.
    static func dispatch(
        _ arguments: ArraySlice<String>, console: Console, opensTerminalApp: Bool = false
    ) throws(CLIError) -> Int32 {
        guard let first = arguments.first else {
            if opensTerminalApp && AppCommand.hasTerminal { AppCommand.runInTerminal(AppCommand.Options()) }
            return WelcomeCommand.run(console: console)
        }
        let rest = arguments.dropFirst()
        switch first {
        case "-h", "--help":
            return try HelpCommand.run(rest, console: console)
        case "--version":
            return try VersionCommand.run(rest, console: console)
        default:
            if first.hasPrefix("-") {
                // Options of the full-screen app: `tether --screen notes`, `tether --api URL`.
                guard let options = try AppCommand.parse(arguments, environment: ProcessInfo.processInfo.environment)
                else {
                    console.print(AppCommand.help)
                    return ExitCode.success
                }
                guard opensTerminalApp && AppCommand.hasTerminal else {
                    throw .failure(
                        "the full-screen app needs a terminal on standard input and output; see 'tether --help' for the commands"
                    )
                }
                AppCommand.runInTerminal(options)
            }
            guard let command = command(named: first) else {
                throw .usage("unknown command '\(first)'", hint: "tether --help")
            }
            return try command.run(rest, console: console)
        }
    }
}
