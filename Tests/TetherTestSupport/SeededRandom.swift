import Foundation

/// SplitMix64: a small generator whose whole sequence follows from its seed, so that a seeded test run (the outbox's
/// model-based test, the kill -9 scenarios) can be repeated exactly.
package struct SeededRandom: RandomNumberGenerator, Sendable {
    private var state: UInt64

    package init(seed: UInt64) { state = seed }

    package mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A number in `0..<bound` (`bound` > 0).
    package mutating func below(_ bound: Int) -> Int { Int(next() % UInt64(bound)) }
}

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
