/// The `keyword` and `NGKeyword` rules of the Item Search API, and the text matching behind them.
///
/// - Words are separated by half-width or full-width spaces; empty words are ignored.
/// - Length: the whole value, as the API counts it in single-byte characters: an ASCII or half-width katakana
///   character counts 1, any other (double-byte) character 2. More than 128 is an error.
/// - Each word needs at least two characters, except that a single double-byte character is enough when it is
///   not hiragana, katakana or a symbol (so `茶` is a word, `a`, `あ`, `ア`, `★` and `Ａ` are not).
/// - Matching is a substring match on the item's name, caption and catchcopy after ``normalize(_:)``:
///   full-width ASCII is read as half-width and ASCII letters are case-insensitive.
struct RakutenKeyword: Sendable {
    /// The most single-byte characters a keyword may have.
    static let maximumLength = 128

    /// The normalized words, each as UTF-8.
    let words: [[UInt8]]

    enum Problem: Error, Equatable {
        case tooLong
        case invalidWord
    }

    /// Parses and checks `text`; `nil` when it has no word at all (only spaces).
    init?(_ text: String) throws(Problem) {
        if Self.length(of: text) > Self.maximumLength { throw .tooLong }
        let normalized = String(decoding: Self.normalize(text), as: UTF8.self)
        let parts = normalized.split(separator: " ", omittingEmptySubsequences: true)
        if parts.isEmpty { return nil }
        for part in parts where !Self.isValidWord(part) { throw .invalidWord }
        words = parts.map { Array($0.utf8) }
    }

    /// Whether `text` contains every word (`all`) or at least one.
    func matches(_ text: [UInt8], all: Bool) -> Bool {
        if all { return words.allSatisfy { Self.contains(text, $0) } }
        return words.contains { Self.contains(text, $0) }
    }

    /// The keyword length in single-byte characters.
    static func length(of text: String) -> Int {
        text.unicodeScalars.reduce(0) { total, scalar in
            let value = scalar.value
            return total + (value < 0x80 || (0xFF61...0xFF9F).contains(value) ? 1 : 2)
        }
    }

    /// Full-width ASCII and the ideographic space as half-width, ASCII letters lower-cased, as UTF-8.
    ///
    /// Works on the UTF-8 bytes directly (the catalog normalizes 30,000 texts at start-up): the ideographic space is
    /// `E3 80 80`, and U+FF01-U+FF5E are `EF BC 81`-`EF BC BF` and `EF BD 80`-`EF BD 9E`.
    static func normalize(_ text: String) -> [UInt8] {
        var result: [UInt8] = []
        result.reserveCapacity(text.utf8.count)
        func ascii(_ byte: UInt8) -> UInt8 {
            if byte >= 0x41 && byte <= 0x5A { return byte + 0x20 }
            return byte == 0x09 ? 0x20 : byte
        }
        // A String is valid UTF-8: a lead byte E3 or EF is followed by exactly two continuation bytes.
        var bytes = text.utf8.makeIterator()
        while let byte = bytes.next() {
            if byte < 0x80 {
                result.append(ascii(byte))
            } else if byte == 0xE3 || byte == 0xEF, let second = bytes.next(), let third = bytes.next() {
                if byte == 0xE3 && second == 0x80 && third == 0x80 {
                    result.append(0x20)
                } else if byte == 0xEF && second == 0xBC && third >= 0x81 && third <= 0xBF {
                    result.append(ascii(third - 0x81 + 0x21))
                } else if byte == 0xEF && second == 0xBD && third >= 0x80 && third <= 0x9E {
                    result.append(ascii(third - 0x80 + 0x60))
                } else {
                    result += [byte, second, third]
                }
            } else {
                result.append(byte)
            }
        }
        return result
    }

    private static func isValidWord(_ word: Substring) -> Bool {
        if word.count >= 2 { return true }
        guard let scalar = word.unicodeScalars.first else { return false }
        let value = scalar.value
        if value < 0x80 { return false }  // one single-byte character
        if (0x3040...0x30FF).contains(value) || (0x31F0...0x31FF).contains(value) || (0xFF61...0xFF9F).contains(value) {
            return false  // hiragana or katakana
        }
        switch scalar.properties.generalCategory {
        case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter, .decimalNumber,
            .letterNumber, .otherNumber:
            return true
        default:
            return false  // a symbol or punctuation
        }
    }

    /// Whether `needle` occurs in `haystack` (bytes; UTF-8 keeps matches on character boundaries).
    static func contains(_ haystack: [UInt8], _ needle: [UInt8]) -> Bool {
        guard !needle.isEmpty else { return true }
        guard haystack.count >= needle.count else { return false }
        return haystack.withUnsafeBufferPointer { hay in
            needle.withUnsafeBufferPointer { pin in
                let first = pin[0]
                let last = hay.count - pin.count
                var i = 0
                while i <= last {
                    if hay[i] == first {
                        var j = 1
                        while j < pin.count, hay[i + j] == pin[j] { j += 1 }
                        if j == pin.count { return true }
                    }
                    i += 1
                }
                return false
            }
        }
    }
}
