import Foundation
import Testing
import TetherServer
import TetherTestSupport

@testable import TetherCLI

/// A place for the API commands to run in: its own data folder (`XDG_DATA_HOME`, so the embedded server's file
/// is private to the test) and a terminal width, given as environment variables bound for each run.
final class APISandbox: Sendable {
    private let folder: URL
    /// The variables each run sees.
    let variables: [String: String]

    /// A sandbox whose output is fitted to `columns`.
    init(columns: Int = 100, extra: [String: String] = [:]) throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("tether-api-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        variables = ["XDG_DATA_HOME": folder.path, "HOME": folder.path, "COLUMNS": String(columns)].merging(
            extra, uniquingKeysWith: { _, new in new })
    }

    deinit {
        try? FileManager.default.removeItem(at: folder)
    }

    /// The embedded server's database file in this sandbox.
    var databaseFile: URL {
        folder.appendingPathComponent("tether/embedded-db.json")
    }

    /// Runs `tether` in-process on a thread of its own with this sandbox's variables (and `columns`, when given).
    ///
    /// The commands block their thread until their requests are done; that thread must not be one of the
    /// concurrency pool's, which the client and the server need.
    func run(_ arguments: String..., columns: Int? = nil) async -> CLIResult {
        await run(arguments: arguments, columns: columns)
    }

    /// Runs `tether` with an array of arguments; see ``run(_:columns:)``.
    func run(arguments: [String], columns: Int? = nil) async -> CLIResult {
        var variables = variables
        if let columns { variables["COLUMNS"] = String(columns) }
        let bound = variables
        return await withCheckedContinuation { continuation in
            Thread {
                let result = APIEnvironment.$boundVariables.withValue(bound) { tether(arguments: arguments) }
                continuation.resume(returning: result)
            }.start()
        }
    }
}

/// Runs `body` with the base URL of a fresh server (built-in data, writes in memory, no Rakuten rate limit).
func withAPIServer(_ body: (String) async throws -> Void) async throws {
    let app = try await TetherServerApp.start(.init(writes: .inMemory, rakutenRateLimit: false))
    do {
        try await body(app.baseURL.absoluteString)
    } catch {
        await app.stop()
        throw error
    }
    await app.stop()
}

/// A loopback URL that refuses connections (see ``closedLoopbackPort()``).
func closedServerURL() async throws -> String {
    "http://127.0.0.1:\(try closedLoopbackPort())"
}

/// The lines of `text`, without the final newline's empty line.
func lines(_ text: String) -> [String] {
    var lines = text.components(separatedBy: "\n")
    if lines.last == "" { lines.removeLast() }
    return lines
}
