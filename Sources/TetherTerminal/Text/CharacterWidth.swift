/// How many terminal columns text takes: 0, 1 or 2 per character, as terminals draw it.
///
/// East Asian wide and fullwidth characters (CJK ideographs, kana, Hangul, fullwidth forms) and emoji shown as
/// pictures take two columns, so `"名前".terminalColumns == 4`; combining marks, zero-width joiners, variation
/// selectors and control characters take none; everything else takes one. A `Character` is a grapheme cluster, so
/// `"e\u{301}"` (e with a combining acute) is one character of one column.
///
/// The tables follow Unicode's East Asian Width property (W and F) for the blocks apps meet; ambiguous-width
/// characters (Greek, Cyrillic, box drawing) count as one column, as most terminals draw them outside CJK locales.
///
/// Complexity: O(1) per character; ASCII takes a fast path.
extension Character {
    /// The columns this character takes on a terminal: 0, 1 or 2.
    public var terminalColumns: Int {
        if let ascii = asciiValue {
            return ascii >= 0x20 && ascii < 0x7F ? 1 : 0
        }
        let scalars = unicodeScalars
        guard let first = scalars.first else { return 0 }
        // An emoji presentation selector turns a text-style symbol (☺) into a two-column picture.
        if scalars.count > 1, scalars.contains(where: { $0.value == 0xFE0F }) {
            return 2
        }
        return TerminalWidth.columns(of: first)
    }
}

extension StringProtocol {
    /// The columns this text takes on one terminal line: the sum of its characters' ``Swift/Character/terminalColumns``.
    ///
    /// Complexity: O(n) in the length of the text.
    public var terminalColumns: Int {
        if !utf8.contains(where: { $0 < 0x20 || $0 >= 0x7F }) { return utf8.count }
        return reduce(0) { $0 + $1.terminalColumns }
    }
}

/// The width tables behind ``Swift/Character/terminalColumns``.
enum TerminalWidth {
    /// The columns of one scalar drawn on its own.
    static func columns(of scalar: Unicode.Scalar) -> Int {
        let value = scalar.value
        if value < 0x20 || (value >= 0x7F && value < 0xA0) { return 0 }
        if value < 0x300 { return 1 }
        switch scalar.properties.generalCategory {
        case .nonspacingMark, .enclosingMark, .format, .control:
            return 0
        default:
            break
        }
        if value == 0x200B || (0xFE00...0xFE0F).contains(value) { return 0 }
        if isWide(value) { return 2 }
        if scalar.properties.isEmojiPresentation { return 2 }
        return 1
    }

    /// Ranges of East Asian Wide (W) and Fullwidth (F) scalars, sorted, for a binary search.
    private static let wideRanges: [ClosedRange<UInt32>] = [
        0x1100...0x115F,  // Hangul Jamo initial consonants
        0x231A...0x231B, 0x2329...0x232A,
        0x2E80...0x303E,  // CJK radicals, Kangxi, ideographic description, CJK symbols and punctuation
        0x3041...0x33FF,  // Hiragana, Katakana, Bopomofo, Hangul compatibility Jamo, Kanbun, CJK compatibility
        0x3400...0x4DBF,  // CJK Extension A
        0x4E00...0x9FFF,  // CJK Unified Ideographs
        0xA000...0xA4CF,  // Yi
        0xA960...0xA97F,  // Hangul Jamo Extended-A
        0xAC00...0xD7A3,  // Hangul syllables
        0xF900...0xFAFF,  // CJK compatibility ideographs
        0xFE10...0xFE19,  // vertical forms
        0xFE30...0xFE6F,  // CJK compatibility forms, small form variants
        0xFF00...0xFF60,  // fullwidth forms
        0xFFE0...0xFFE6,  // fullwidth signs
        0x16FE0...0x16FE4, 0x17000...0x18CFF,  // Tangut
        0x1B000...0x1B2FF,  // Kana supplement and extensions, Nushu
        0x1F200...0x1F2FF,  // enclosed ideographic supplement
        0x20000...0x2FFFD,  // CJK Extensions B-F, compatibility supplement
        0x30000...0x3FFFD,  // CJK Extensions G-H
    ]

    private static func isWide(_ value: UInt32) -> Bool {
        var low = 0
        var high = wideRanges.count - 1
        while low <= high {
            let middle = (low + high) / 2
            let range = wideRanges[middle]
            if value < range.lowerBound {
                high = middle - 1
            } else if value > range.upperBound {
                low = middle + 1
            } else {
                return true
            }
        }
        return false
    }
}
