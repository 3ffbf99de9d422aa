/// A small, fast, seedable pseudo-random generator (SplitMix64), so generated data is the same on every run.
///
/// Never use it for anything secret. It is a value type: copy it to fork a stream.
struct SplitMix64: RandomNumberGenerator, Sendable {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A uniformly distributed integer in `range`.
    mutating func int(in range: ClosedRange<Int>) -> Int {
        let span = UInt64(range.upperBound - range.lowerBound) &+ 1
        if span == 0 { return Int(truncatingIfNeeded: next()) }
        return range.lowerBound + Int(next() % span)
    }

    /// A uniformly distributed double in `0..<1`.
    mutating func unit() -> Double { Double(next() >> 11) / Double(UInt64(1) << 53) }

    /// `true` with probability `p`.
    mutating func chance(_ p: Double) -> Bool { unit() < p }

    /// One element of a non-empty array.
    mutating func pick<T>(_ values: [T]) -> T { values[int(in: 0...(values.count - 1))] }

    /// The elements in a random order (Fisher–Yates), the same for the same state.
    mutating func shuffled<T>(_ values: [T]) -> [T] {
        var result = values
        for index in result.indices.dropLast().reversed() {
            result.swapAt(index, int(in: index...(result.count - 1)))
        }
        return result
    }
}

/// FNV-1a over bytes: a stable 64-bit hash (Swift's `Hasher` is seeded per process).
func stableHash(_ bytes: some Sequence<UInt8>) -> UInt64 {
    var hash: UInt64 = 0xCBF2_9CE4_8422_2325
    for byte in bytes {
        hash ^= UInt64(byte)
        hash = hash &* 0x0000_0100_0000_01B3
    }
    return hash
}
