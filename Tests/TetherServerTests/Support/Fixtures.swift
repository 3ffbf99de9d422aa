import Foundation

/// Locates the read-only data in `../shared` beside the repository (fixtures and references).
///
/// Tests that need it use `.enabled(if: Fixtures.isAvailable)`, so they report themselves skipped where it is
/// absent. `TETHER_SHARED` overrides the location.
enum Fixtures {
    static let sharedDirectory: URL = {
        if let override = ProcessInfo.processInfo.environment["TETHER_SHARED"] {
            return URL(fileURLWithPath: override)
        }
        // Tests/TetherServerTests/Support/Fixtures.swift → repository root → ../shared
        return URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("shared")
    }()

    static var isAvailable: Bool {
        FileManager.default.fileExists(atPath: sharedDirectory.appendingPathComponent("fixtures").path)
    }

    /// The bytes of a fixture, by path below `shared/fixtures`, e.g. `jsonplaceholder/db.json`.
    static func data(_ path: String) throws -> Data {
        try Data(contentsOf: sharedDirectory.appendingPathComponent("fixtures").appendingPathComponent(path))
    }
}
