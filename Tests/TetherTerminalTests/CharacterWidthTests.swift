import Testing
import TetherSync
import TetherTerminal

@Suite struct CharacterWidthTests {
    @Test(arguments: [
        ("abc", 3), ("名前", 4), ("ノートパソコン", 14), ("ｱｲｳ", 3), ("Ｔｅｔｈｅｒ", 12), ("한국어", 6),
        ("e\u{301}", 1), ("👍", 2), ("☺\u{FE0F}", 2), ("a\u{200B}b", 2), ("", 0), ("1,234円", 7), ("\t", 0),
        ("Ελλάδα", 6), ("𠮷野家", 6),
    ])
    func columns(text: String, expected: Int) {
        #expect(text.terminalColumns == expected)
    }

    @Test func controlCharactersTakeNoColumns() {
        #expect(Character("\u{1B}").terminalColumns == 0)
        #expect(Character("\u{7F}").terminalColumns == 0)
        #expect(Character("\u{85}").terminalColumns == 0)
        #expect(Character("\r\n").terminalColumns == 0)
        #expect("a\r\nb\u{1B}c\u{7F}".terminalColumns == 3)
    }

    @Test(arguments: [
        // Combining kana voiced marks (U+3099-309A) sit inside the wide kana block but take no column.
        ("か\u{3099}", 2), ("\u{3099}", 0), ("ハ\u{309A}ン", 4), ("a\u{3099}", 1),
        // Ideographic tone marks: U+302A-302D take no column, the spacing U+302E-302F two.
        ("\u{302A}", 0), ("\u{302E}", 2), ("漢\u{302A}字", 4),
        // Emoji presentation selector: a text-style symbol becomes a two-column picture.
        ("☺", 1), ("❤\u{FE0F}", 2), ("a❤\u{FE0F}b", 4), ("\u{FE0F}", 0), ("1\u{FE0F}\u{20E3}", 2),
        // ZWJ sequences, skin tones and flags are one character of two columns.
        ("👨\u{200D}👩\u{200D}👧", 2), ("👍🏽", 2), ("🇯🇵", 2), ("a👨\u{200D}💻b", 4),
        // Fullwidth forms and signs, halfwidth katakana with its voiced mark.
        ("ＡＢＣ", 6), ("￥１００", 8), ("ｶﾞ", 1), ("。、", 4),
        // CJK Extensions B and G (four-byte UTF-8).
        ("𠀀", 2), ("𪜀𫝀", 4), ("\u{30000}", 2),
        // Hangul: syllables, and leading plus vowel jamo joined into one two-column character.
        ("가나", 4), ("\u{1100}\u{1161}", 2), ("\u{1100}\u{1161}\u{11A8}", 2), ("가\u{11A8}", 2),
        // Narrow blocks next to combining marks and to wide text.
        ("Привет", 6), ("\u{0418}\u{0306}", 1), ("─┼━", 3), ("→…", 2), ("é名", 3), ("e\u{301}名", 3),
        ("\u{25FD}", 2), ("\u{25FC}", 1),
    ])
    func edgeCases(text: String, expected: Int) {
        #expect(text.terminalColumns == expected)
        #expect(text.reduce(0) { $0 + $1.terminalColumns } == expected)
        #expect(text[...].terminalColumns == expected)
    }

    /// Every scalar on its own measures as the Unicode properties say (the reference below): the fast tables
    /// agree with the property lookups they stand in for.
    @Test func everyScalarMatchesTheReference() {
        var mismatches: [String] = []
        for value in UInt32(0)...0x3FFFF {
            guard let scalar = Unicode.Scalar(value) else { continue }
            let expected = Self.referenceColumns(scalar)
            if Character(scalar).terminalColumns != expected || String(scalar).terminalColumns != expected {
                mismatches.append("U+\(String(value, radix: 16, uppercase: true))")
            }
        }
        #expect(mismatches.isEmpty, "\(mismatches.prefix(20))")
    }

    /// Strings mixing the fast blocks with clusters that need the full grapheme rules measure as the sum of their
    /// characters.
    @Test func stringsMatchTheirCharacters() {
        let pieces = [
            "a", "名", "\u{3099}", "\u{301}", "\u{FE0F}", "\u{200D}", "👍", "🏽", "\u{1100}", "\u{1161}", "가", "é",
            "\r", "\n", "\t", "─", "ｶ", "ﾞ", "🇯", "🇵", "\u{0600}", "1", "\u{25FD}", "𠮷",
        ]
        var generator = SplitMix64(seed: 6)
        for _ in 0..<2_000 {
            var text = ""
            for _ in 0..<Int(generator.next() % 8) { text += pieces[Int(generator.next() % UInt64(pieces.count))] }
            let expected = text.reduce(0) { $0 + Self.referenceColumns($1) }
            #expect(text.terminalColumns == expected, "\(text.unicodeScalars.map { String($0.value, radix: 16) })")
        }
    }

    /// The width rules as written from the Unicode properties alone, without fast paths.
    static func referenceColumns(_ character: Character) -> Int {
        let scalars = character.unicodeScalars
        guard let first = scalars.first else { return 0 }
        if scalars.count > 1, scalars.contains(where: { $0.value == 0xFE0F }) { return 2 }
        return referenceColumns(first)
    }

    static func referenceColumns(_ scalar: Unicode.Scalar) -> Int {
        let value = scalar.value
        if value < 0x20 || (value >= 0x7F && value < 0xA0) { return 0 }
        if value < 0x300 { return 1 }
        switch scalar.properties.generalCategory {
        case .nonspacingMark, .enclosingMark, .format, .control: return 0
        default: break
        }
        if value == 0x200B || (0xFE00...0xFE0F).contains(value) { return 0 }
        let wide: [ClosedRange<UInt32>] = [
            0x1100...0x115F, 0x231A...0x231B, 0x2329...0x232A, 0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x4DBF,
            0x4E00...0x9FFF, 0xA000...0xA4CF, 0xA960...0xA97F, 0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE10...0xFE19,
            0xFE30...0xFE6F, 0xFF00...0xFF60, 0xFFE0...0xFFE6, 0x16FE0...0x16FE4, 0x17000...0x18CFF,
            0x1B000...0x1B2FF, 0x1F200...0x1F2FF, 0x20000...0x2FFFD, 0x30000...0x3FFFD,
        ]
        if wide.contains(where: { $0.contains(value) }) { return 2 }
        return scalar.properties.isEmojiPresentation ? 2 : 1
    }
}
