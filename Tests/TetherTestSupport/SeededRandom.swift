import Foundation
package import TetherSync

/// The package's one SplitMix64 (TetherSync): a seeded test run (the outbox's model-based test, the kill -9
/// scenarios) can be repeated exactly.
package typealias SeededRandom = SplitMix64

/// The seeds a seeded test runs: the one named by the environment variable `one` (to repeat a failure), else
/// `count`'s number of seeds (the variable `count`, else `defaultCount`), each made from its index by `seed`.
package func seedsFromEnvironment(
    one: String, count: String, defaultCount: Int, seed: (UInt64) -> UInt64
) -> [UInt64] {
    let environment = ProcessInfo.processInfo.environment
    if let single = environment[one].flatMap({ UInt64($0) }) { return [single] }
    let number = environment[count].flatMap { Int($0) } ?? defaultCount
    return (0..<UInt64(max(1, number))).map(seed)
}
