/// How many terminal columns text takes: 0, 1 or 2 per character, as terminals draw it.
///
/// East Asian wide and fullwidth characters (CJK ideographs, kana, Hangul, fullwidth forms) and emoji shown as
/// pictures take two columns, so `"名前".terminalColumns == 4`; combining marks, zero-width joiners, variation
/// selectors and control characters take none; everything else takes one. A `Character` is a grapheme cluster, so
/// `"e\u{301}"` (e with a combining acute) is one character of one column, and a cluster takes the columns of its
/// first scalar, or two when it holds an emoji presentation selector (U+FE0F).
///
/// The tables follow Unicode's East Asian Width property (W and F) for the blocks apps meet; ambiguous-width
/// characters (Greek, Cyrillic, box drawing) count as one column, as most terminals draw them outside CJK locales.
///
/// Complexity: O(1) per character. ASCII and the common CJK, Latin, Greek, Cyrillic, punctuation and box drawing
/// blocks are settled by range checks on the UTF-8 bytes; only other scalars consult the Unicode properties.
extension Character {
    /// The columns this character takes on a terminal: 0, 1 or 2.
    public var terminalColumns: Int {
        let utf8 = self.utf8
        if utf8.count == 1 {
            let byte = utf8.first!
            return byte >= 0x20 && byte < 0x7F ? 1 : 0
        }
        return TerminalWidth.columns(ofCluster: utf8)
    }
}

extension StringProtocol {
    /// The columns this text takes on one terminal line: the sum of its characters' ``Swift/Character/terminalColumns``.
    ///
    /// Complexity: O(n) in the length of the text.
    public var terminalColumns: Int { TerminalWidth.columns(of: self) }
}

extension String {
    /// The columns this text takes on one terminal line: the sum of its characters' ``Swift/Character/terminalColumns``.
    ///
    /// Complexity: O(n) in the length of the text; ASCII and common CJK text are measured from their UTF-8 bytes
    /// without splitting the text into characters.
    public var terminalColumns: Int { TerminalWidth.columns(of: self) }
}

extension Substring {
    /// The columns this text takes on one terminal line: the sum of its characters' ``Swift/Character/terminalColumns``.
    ///
    /// Complexity: O(n) in the length of the text, as for `String`.
    public var terminalColumns: Int { TerminalWidth.columns(of: self) }
}

/// The width tables behind ``Swift/Character/terminalColumns``.
///
/// Everything here is a pure function of its arguments and constant tables: safe from any thread.
enum TerminalWidth {
    /// One grapheme cluster settled from the UTF-8 bytes alone: its byte count, its columns, and its scalar (each
    /// such cluster is one scalar).
    struct QuickCluster {
        var length: Int
        var columns: Int
        var scalar: UInt32
    }

    /// The columns of `text`, walking its UTF-8 bytes and splitting characters only where a cluster needs the
    /// full grapheme rules.
    static func columns<Text: StringProtocol>(of text: Text) -> Int {
        let measured = text.utf8.withContiguousStorageIfAvailable { bytes -> Int in
            var total = 0
            var offset = 0
            while offset < bytes.count {
                if let cluster = quickCluster(bytes, at: offset) {
                    total += cluster.columns
                    offset += cluster.length
                } else {
                    let character = text[text.utf8.index(text.utf8.startIndex, offsetBy: offset)]
                    total += character.terminalColumns
                    offset += character.utf8.count
                }
            }
            return total
        }
        return measured ?? text.reduce(0) { $0 + $1.terminalColumns }
    }

    /// The grapheme cluster that starts at `offset` of valid UTF-8 `bytes`, when it is one scalar that range checks
    /// can settle, or `nil` when the cluster needs the full grapheme rules (a combining mark, joiner, selector or
    /// Hangul jamo may follow, or the scalar is in no fast table).
    ///
    /// A control character is always a cluster of its own (CR LF together), of zero columns.
    @inline(__always)
    static func quickCluster(_ bytes: UnsafeBufferPointer<UInt8>, at offset: Int) -> QuickCluster? {
        let lead = bytes[offset]
        let next: Int
        let cluster: QuickCluster
        if lead < 0x80 {
            guard lead >= 0x20, lead != 0x7F else {
                // CR LF is one character.
                let length = lead == 0x0D && offset + 1 < bytes.count && bytes[offset + 1] == 0x0A ? 2 : 1
                return QuickCluster(length: length, columns: 0, scalar: UInt32(lead))
            }
            next = offset + 1
            cluster = QuickCluster(length: 1, columns: 1, scalar: UInt32(lead))
        } else {
            let (scalar, length) = decode(bytes, at: offset)
            guard let columns = simpleColumns(scalar) else { return nil }
            next = offset + length
            cluster = QuickCluster(length: length, columns: columns, scalar: scalar)
        }
        // The cluster ends here if what follows starts a cluster of its own whatever precedes it.
        if next == bytes.count || bytes[next] < 0x80 || simpleColumns(decode(bytes, at: next).scalar) != nil {
            return cluster
        }
        return nil
    }

    /// The scalar whose UTF-8 encoding starts at `offset` of valid UTF-8 `bytes`, and its length in bytes.
    @inline(__always)
    static func decode(_ bytes: UnsafeBufferPointer<UInt8>, at offset: Int) -> (scalar: UInt32, length: Int) {
        let lead = UInt32(bytes[offset])
        if lead < 0x80 { return (lead, 1) }
        if lead < 0xE0 { return ((lead & 0x1F) << 6 | UInt32(bytes[offset + 1] & 0x3F), 2) }
        if lead < 0xF0 {
            return ((lead & 0x0F) << 12 | UInt32(bytes[offset + 1] & 0x3F) << 6 | UInt32(bytes[offset + 2] & 0x3F), 3)
        }
        let high = (lead & 0x07) << 18 | UInt32(bytes[offset + 1] & 0x3F) << 12
        return (high | UInt32(bytes[offset + 2] & 0x3F) << 6 | UInt32(bytes[offset + 3] & 0x3F), 4)
    }

    /// The columns of a scalar in the fast tables: scalars that are always a grapheme cluster boundary on both
    /// sides when their neighbours are ASCII or in these tables too (grapheme break property Other, or Control),
    /// with a width that needs no property lookup. `nil` for every other scalar.
    ///
    /// Left out on purpose: combining marks inside wide blocks (U+302A-302F, U+3099-309A), Hangul leading jamo
    /// (U+1100-115F, U+A960-A97F, which join the syllable after them), Cyrillic combining marks (U+0483-0489),
    /// and emoji-presentation symbols among the narrow blocks (U+25FD-25FE).
    @inline(__always)
    static func simpleColumns(_ value: UInt32) -> Int? {
        switch value {
        case 0x3041...0x3098, 0x309B...0x33FF, 0x4E00...0x9FFF, 0xFF00...0xFF60, 0xAC00...0xD7A3, 0x3400...0x4DBF,
            0x2E80...0x3029, 0x3030...0x303E, 0xF900...0xFAFF, 0xFE30...0xFE6F, 0xFFE0...0xFFE6, 0x20000...0x2FFFD,
            0x30000...0x3FFFD:
            return 2
        case 0xA0...0x2FF, 0x370...0x482, 0x48A...0x52F, 0x2010...0x2027, 0x2030...0x205E, 0x20A0...0x20C0,
            0x2190...0x22FF, 0x2500...0x25FC, 0x25FF:
            return 1
        default:
            return nil
        }
    }

    /// The columns of one grapheme cluster given as its UTF-8 bytes (more than one): those of its first scalar,
    /// or two when an emoji presentation selector (U+FE0F, bytes EF B8 8F) follows it.
    static func columns(ofCluster utf8: Character.UTF8View) -> Int {
        var iterator = utf8.makeIterator()
        guard let lead = iterator.next() else { return 0 }
        var first = UInt32(lead)
        var continuation = lead < 0x80 ? 0 : lead < 0xE0 ? 1 : lead < 0xF0 ? 2 : 3
        if continuation > 0 { first &= continuation == 1 ? 0x1F : continuation == 2 ? 0x0F : 0x07 }
        while continuation > 0, let byte = iterator.next() {
            first = first << 6 | UInt32(byte & 0x3F)
            continuation -= 1
        }
        // An emoji presentation selector turns a text-style symbol (☺) into a two-column picture; a cluster that
        // starts with one (after a control character, say) and has more scalars takes two columns too.
        if first == 0xFE0F { return iterator.next() == nil ? 0 : 2 }
        var matched = 0
        while let byte = iterator.next() {
            switch (matched, byte) {
            case (0, 0xEF), (1, 0xB8): matched += 1
            case (2, 0x8F): return 2
            default: matched = byte == 0xEF ? 1 : 0
            }
        }
        return columns(of: first)
    }

    /// The columns of one scalar drawn on its own.
    static func columns(of value: UInt32) -> Int {
        if value < 0x20 || (value >= 0x7F && value < 0xA0) { return 0 }
        if value < 0x300 { return 1 }
        if let columns = simpleColumns(value) { return columns }
        if value <= 0x36F { return 0 }  // combining diacritical marks
        if isWide(value) {
            // The combining marks inside the wide blocks: ideographic tone marks and kana voiced sound marks.
            return (0x302A...0x302D).contains(value) || value == 0x3099 || value == 0x309A || value == 0x16FE4 ? 0 : 2
        }
        guard let scalar = Unicode.Scalar(value) else { return 1 }
        switch scalar.properties.generalCategory {
        case .nonspacingMark, .enclosingMark, .format, .control:
            return 0
        default:
            break
        }
        if value == 0x200B || (0xFE00...0xFE0F).contains(value) { return 0 }
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
