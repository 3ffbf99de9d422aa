import Foundation
import TetherTestSupport

/// The folders of `../shared` that only TetherJSON's tests read, found through the one loader.
extension SharedFixtures {
    /// Whether `shared/JSONTestSuite/test_parsing` is there.
    static var hasJSONTestSuite: Bool {
        FileManager.default.fileExists(atPath: testSuiteDirectory.path)
    }

    /// `shared/JSONTestSuite/test_parsing`: its `y_`, `n_` and `i_` files.
    static var testSuiteDirectory: URL {
        sharedDirectory.appendingPathComponent("JSONTestSuite/test_parsing")
    }

    /// Whether `shared/benchmarks/json` holds the real-world benchmark files (twitter, citm_catalog, canada).
    static var hasBenchmarkFiles: Bool {
        FileManager.default.fileExists(atPath: benchmarkDirectory.appendingPathComponent("canada.json").path)
    }

    /// The bytes of a file in `shared/benchmarks/json`, e.g. `canada.json`.
    static func benchmarkFile(_ name: String) throws -> Data {
        try Data(contentsOf: benchmarkDirectory.appendingPathComponent(name))
    }

    private static var benchmarkDirectory: URL { sharedDirectory.appendingPathComponent("benchmarks/json") }
}
