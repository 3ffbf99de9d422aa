package import Foundation

/// The read-only data in `../shared` beside the repository: `fixtures/` (the Rakuten and jsonplaceholder
/// samples), `JSONTestSuite/` and `benchmarks/`.
///
/// The one loader of that folder for every test target. Tests that need a file use
/// `.enabled(if: SharedFixtures.contains("rakuten"))` (or ``isAvailable`` for the whole `fixtures/`), so they
/// report themselves skipped where it is absent instead of failing. The environment variable `TETHER_SHARED`
/// names another `shared` folder.
package enum SharedFixtures {
    /// `../shared` beside the repository, or `TETHER_SHARED`.
    package static let sharedDirectory: URL = {
        if let override = ProcessInfo.processInfo.environment["TETHER_SHARED"] {
            return URL(fileURLWithPath: override)
        }
        // Tests/TetherTestSupport/SharedFixtures.swift → repository root → ../shared
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<4 { url.deleteLastPathComponent() }
        return url.appendingPathComponent("shared")
    }()

    /// `shared/fixtures`.
    package static var directory: URL { sharedDirectory.appendingPathComponent("fixtures") }

    /// Whether `shared/fixtures` is there.
    package static var isAvailable: Bool { contains("") }

    /// The URL of a file or folder below `shared/fixtures` (`rakuten/search-sample.json`), whether or not it exists.
    package static func url(_ path: String) -> URL {
        path.isEmpty ? directory : directory.appendingPathComponent(path)
    }

    /// Whether a file or folder below `shared/fixtures` (`rakuten`, `jsonplaceholder/db.json`) exists.
    package static func contains(_ path: String) -> Bool {
        FileManager.default.fileExists(atPath: url(path).path)
    }

    /// The bytes of a fixture, by path below `shared/fixtures` (`rakuten/search-sample.json`).
    ///
    /// - Throws: the file system's error when the file cannot be read.
    package static func data(_ path: String) throws -> Data {
        try Data(contentsOf: url(path))
    }

    /// The text of a fixture with each edit made, in order: every `target` must occur exactly once, so a test
    /// that corrupts a sample cannot pass on a sample that no longer holds what it corrupts.
    ///
    /// ```swift
    /// let text = try SharedFixtures.text(
    ///     "rakuten/search-sample.json", replacingOnce: [(#""itemPrice": 4980,"#, #""itemPrice": "abc","#)])
    /// ```
    ///
    /// - Throws: the file system's error, or ``EditFailed`` when a target occurs other than once.
    package static func text(_ path: String, replacingOnce edits: [(target: String, replacement: String)] = [])
        throws -> String
    {
        var text = String(decoding: try data(path), as: UTF8.self)
        for (target, replacement) in edits {
            let parts = text.components(separatedBy: target)
            guard parts.count == 2 else {
                throw EditFailed(path: path, target: target, occurrences: parts.count - 1)
            }
            text = parts.joined(separator: replacement)
        }
        return text
    }

    /// An edit of ``text(_:replacingOnce:)`` whose target is not in the fixture exactly once.
    package struct EditFailed: Error, CustomStringConvertible {
        package let path: String
        package let target: String
        package let occurrences: Int

        package var description: String {
            "\(path): expected one \(target.debugDescription), found \(occurrences)"
        }
    }
}
