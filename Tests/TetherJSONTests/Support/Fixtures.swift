import Foundation

/// Locates the read-only data in `../shared` beside the repository (fixtures and JSONTestSuite).
///
/// Tests that need it use `.enabled(if: Fixtures.isAvailable)`, so they report themselves skipped where it is
/// absent. `TETHER_SHARED` overrides the location.
enum Fixtures {
    static let sharedDirectory: URL = {
        if let override = ProcessInfo.processInfo.environment["TETHER_SHARED"] {
            return URL(fileURLWithPath: override)
        }
        // Tests/TetherJSONTests/Support/Fixtures.swift → repository root → ../shared
        return URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("shared")
    }()

    static var isAvailable: Bool {
        FileManager.default.fileExists(atPath: sharedDirectory.appendingPathComponent("fixtures").path)
    }

    static var hasJSONTestSuite: Bool {
        FileManager.default.fileExists(atPath: testSuiteDirectory.path)
    }

    static var testSuiteDirectory: URL {
        sharedDirectory.appendingPathComponent("JSONTestSuite/test_parsing")
    }

    /// Whether `shared/benchmarks/json` holds the real-world benchmark files (twitter, citm_catalog, canada).
    static var hasBenchmarkFiles: Bool {
        FileManager.default.fileExists(
            atPath: sharedDirectory.appendingPathComponent("benchmarks/json/canada.json").path)
    }

    /// The bytes of a file in `shared/benchmarks/json`, e.g. `canada.json`.
    static func benchmarkFile(_ name: String) throws -> Data {
        try Data(contentsOf: sharedDirectory.appendingPathComponent("benchmarks/json").appendingPathComponent(name))
    }

    /// The bytes of a fixture, by path below `shared/fixtures`, e.g. `rakuten/search-sample.json`.
    static func data(_ path: String) throws -> Data {
        try Data(contentsOf: sharedDirectory.appendingPathComponent("fixtures").appendingPathComponent(path))
    }
}
