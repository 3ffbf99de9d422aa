import Foundation

/// Locates the read-only fixtures in `../shared` beside the repository.
///
/// Tests that need them use `.enabled(if: SharedFixtures.isAvailable)`, so they report themselves skipped where
/// the folder is absent. `TETHER_SHARED` overrides the location.
enum SharedFixtures {
    static let directory: URL = {
        if let override = ProcessInfo.processInfo.environment["TETHER_SHARED"] {
            return URL(fileURLWithPath: override).appendingPathComponent("fixtures")
        }
        // Tests/TetherAPIsTests/Support/SharedFixtures.swift → repository root → ../shared/fixtures
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<5 { url.deleteLastPathComponent() }
        return url.appendingPathComponent("shared").appendingPathComponent("fixtures")
    }()

    static var isAvailable: Bool {
        FileManager.default.fileExists(atPath: directory.appendingPathComponent("rakuten").path)
    }

    /// The bytes of a fixture, by path below `shared/fixtures` (`rakuten/search-sample.json`).
    static func data(_ path: String) throws -> Data {
        try Data(contentsOf: directory.appendingPathComponent(path))
    }
}
