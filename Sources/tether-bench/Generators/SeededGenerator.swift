/// A small deterministic pseudo-random generator (SplitMix64).
///
/// The bench never asks the system for randomness: every input is a pure function of its seed, so two runs (and
/// two machines) measure the same bytes. The helpers below use plain modulo reduction instead of the standard
/// library's `random(in:using:)`, whose algorithm is not promised to stay the same across Swift versions.
struct SeededGenerator {
    private var state: UInt64

    init(seed: UInt64) {
        state = seed
    }

    /// The next 64 random bits.
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A number in `range` (both ends included).
    mutating func int(_ range: ClosedRange<Int>) -> Int {
        let width = UInt64(range.upperBound - range.lowerBound) + 1
        return range.lowerBound + Int(next() % width)
    }

    /// `true` with the given probability in percent.
    mutating func chance(_ percent: Int) -> Bool {
        int(0...99) < percent
    }

    /// One element of a non-empty array.
    mutating func pick<T>(_ elements: [T]) -> T {
        elements[int(0...(elements.count - 1))]
    }
}
