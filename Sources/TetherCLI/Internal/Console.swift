/// The standard streams a command talks to: injected so tests can run commands in-process.
///
/// Built for the length of one ``TetherCLI/run(arguments:stdin:stdout:stderr:)`` call; the closures must not be
/// kept beyond it.
struct Console {
    /// Reads all of standard input.
    let readInput: () throws -> [UInt8]
    /// Writes bytes to standard output.
    let writeOutput: ([UInt8]) -> Void
    /// Writes bytes to standard error.
    let writeError: ([UInt8]) -> Void

    /// Writes text to standard output.
    func print(_ text: String) {
        writeOutput(Array(text.utf8))
    }

    /// Writes text to standard error.
    func printError(_ text: String) {
        writeError(Array(text.utf8))
    }
}
