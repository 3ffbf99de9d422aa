/// SplitMix64: a small, fast pseudo-random generator whose whole sequence follows from its seed, so generated data
/// (the server's built-in data set, its fault scripts, the benchmarks' inputs, seeded tests) is the same on every
/// run and every machine. The one copy in the package; its sequence must never change, since that data depends on
/// it bit for bit.
///
/// The helpers use plain modulo reduction, not the standard library's `random(in:using:)`, whose algorithm is not
/// promised to stay the same across Swift versions. Never use it for anything secret. It is a value type: copy it
/// to fork a stream.
package struct SplitMix64: RandomNumberGenerator, Sendable {
    private var state: UInt64

    package init(seed: UInt64) { state = seed }

    /// The next 64 random bits.
    package mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// An integer in `range` (both ends included): `lowerBound + next() % width`.
    package mutating func int(in range: ClosedRange<Int>) -> Int {
        let span = UInt64(range.upperBound - range.lowerBound) &+ 1
        if span == 0 { return Int(truncatingIfNeeded: next()) }
        return range.lowerBound + Int(next() % span)
    }

    /// An integer in `0..<bound`: `next() % bound`.
    package mutating func below(_ bound: Int) -> Int { Int(next() % UInt64(bound)) }

    /// A double in `0..<1`, from the top 53 bits.
    package mutating func unit() -> Double { Double(next() >> 11) / Double(UInt64(1) << 53) }

    /// `true` with probability `p` (from ``unit()``).
    package mutating func chance(_ p: Double) -> Bool { unit() < p }

    /// `true` with the given probability in percent (from ``int(in:)`` over 0...99).
    package mutating func chance(percent: Int) -> Bool { int(in: 0...99) < percent }

    /// One element of a non-empty array.
    package mutating func pick<T>(_ values: [T]) -> T { values[int(in: 0...(values.count - 1))] }

    /// The elements in a random order (Fisher–Yates), the same for the same state.
    package mutating func shuffled<T>(_ values: [T]) -> [T] {
        var result = values
        for index in result.indices.dropLast().reversed() {
            result.swapAt(index, int(in: index...(result.count - 1)))
        }
        return result
    }
}

/// FNV-1a, 64 bits: a stable hash of bytes (Swift's `Hasher` is seeded per process), for file names, entity tags
/// and data derived from ids. The one copy in the package. Not for anything secret.
package enum FNV1a {
    /// The offset basis, the hash of no bytes.
    package static let offsetBasis: UInt64 = 0xCBF2_9CE4_8422_2325

    /// The hash of `bytes`, continuing from `seed` (another hash, to hash several parts as one).
    package static func hash(_ bytes: some Sequence<UInt8>, seed: UInt64 = offsetBasis) -> UInt64 {
        var hash = seed
        for byte in bytes {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01B3
        }
        return hash
    }
}
