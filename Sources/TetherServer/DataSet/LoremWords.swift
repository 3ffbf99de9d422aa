import TetherSync

/// Lorem-like filler text made from invented syllables (not any real text), seeded.
struct LoremWords {
    private static let syllables = [
        "ta", "lo", "mi", "ren", "vas", "qui", "do", "ne", "sel", "ur", "pa", "cor", "ti", "am", "ve", "lis", "nu",
        "bor", "e", "sa", "mol", "in", "dra", "fe", "gu", "os", "ri", "tem", "ca", "xi", "pel", "un",
    ]

    var random: SplitMix64

    /// One word of one to three syllables.
    mutating func word() -> String {
        (0..<random.int(in: 1...3)).map { _ in random.pick(Self.syllables) }.joined()
    }

    /// `count` words separated by spaces.
    mutating func words(_ count: Int) -> String {
        (0..<count).map { _ in word() }.joined(separator: " ")
    }

    /// `lines` lines of 4 to 9 words, joined with `\n`.
    mutating func paragraph(lines: Int) -> String {
        (0..<lines).map { _ in words(random.int(in: 4...9)) }.joined(separator: "\n")
    }

    /// A capitalised word.
    mutating func name() -> String {
        let text = word() + (random.chance(0.5) ? random.pick(Self.syllables) : "")
        return text.prefix(1).uppercased() + text.dropFirst()
    }
}
