import Foundation
import Testing

@testable import TetherCLI

/// What one in-process run of `tether` produced.
struct CLIResult {
    var status: Int32
    var stdout: String
    var stderr: String
    /// How many times the command read standard input.
    var stdinReads: Int
}

/// Runs `tether` in-process with `arguments`.
///
/// - Parameter stdin: the standard input; `nil` means the command must not read it (reading records an issue).
func tether(
    _ arguments: String..., stdin: [UInt8]? = nil, sourceLocation: SourceLocation = #_sourceLocation
) -> CLIResult {
    tether(arguments: arguments, stdin: stdin, sourceLocation: sourceLocation)
}

/// Runs `tether` in-process with `arguments` and `text` as UTF-8 on standard input.
func tether(_ arguments: String..., stdinText text: String) -> CLIResult {
    tether(arguments: arguments, stdin: Array(text.utf8))
}

/// Runs `tether` in-process with an array of arguments; see ``tether(_:stdin:sourceLocation:)``.
func tether(
    arguments: [String], stdin: [UInt8]? = nil, sourceLocation: SourceLocation = #_sourceLocation
) -> CLIResult {
    var output: [UInt8] = []
    var errors: [UInt8] = []
    var reads = 0
    let status = TetherCLI.run(
        arguments: arguments,
        stdin: {
            reads += 1
            guard let stdin else {
                Issue.record("the command read standard input", sourceLocation: sourceLocation)
                return []
            }
            return stdin
        },
        stdout: { output += $0 },
        stderr: { errors += $0 })
    return CLIResult(
        status: status, stdout: String(decoding: output, as: UTF8.self),
        stderr: String(decoding: errors, as: UTF8.self),
        stdinReads: reads)
}

/// A fresh temporary folder, removed when the value is deinitialized.
final class TemporaryDirectory {
    let url: URL

    init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("tether-cli-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit {
        try? FileManager.default.removeItem(at: url)
    }

    /// Writes `bytes` to a file called `name` and returns its path.
    func file(_ name: String, bytes: [UInt8]) throws -> String {
        let fileURL = url.appendingPathComponent(name)
        try Data(bytes).write(to: fileURL)
        return fileURL.path
    }

    /// Writes `text` as UTF-8 to a file called `name` and returns its path.
    func file(_ name: String, _ text: String) throws -> String {
        try file(name, bytes: Array(text.utf8))
    }
}
