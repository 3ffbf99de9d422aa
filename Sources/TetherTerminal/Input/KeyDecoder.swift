/// Turns the bytes a terminal sends into ``Key``s, incrementally.
///
/// Feed every read to ``decode(_:)``: keys come out as soon as they are complete, and the bytes of a sequence split
/// across reads (an escape sequence, a UTF-8 character, a bracketed paste) are held until the rest arrives. A lone
/// Escape cannot be told from the start of a sequence by its bytes alone, so the reader calls ``flush()`` after a
/// short pause with no new input (25–50 ms) while ``hasIncompleteInput`` says an escape sequence may be cut short.
///
/// ```swift
/// import TetherTerminal
///
/// var decoder = KeyDecoder()
/// decoder.decode(Array("\u{1B}[A名".utf8))  // [.up, .character("名")]
/// decoder.decode([0x1B])                    // [] (Escape, or the start of a sequence?)
/// decoder.flush()                           // [.escape]
/// ```
///
/// What it understands:
/// - printable UTF-8, one ``Key/character(_:)`` per Unicode scalar (a combining mark arrives as a key of its own and
///   joins the previous character when appended to a `String`); invalid bytes become U+FFFD, never a crash;
/// - Enter (CR or LF), Tab, Shift+Tab (`CSI Z`), Backspace (DEL or Ctrl+H), Ctrl+A…Ctrl+Z as ``Key/control(_:)``;
/// - arrows, Home, End, Insert, Delete, Page Up/Down and F1–F12 in their CSI, SS3 and Linux console forms, with or
///   without modifiers (`ESC [1;5A`, Ctrl+Up, is ``Key/up``: modifiers are ignored);
/// - bracketed paste (`ESC [200~` … `ESC [201~`) as one ``Key/paste(_:)``, its line endings made `\n`.
///
/// Escape followed at once by a byte that does not start a sequence (Alt+x sends `ESC x`) is ``Key/escape`` and
/// then that key. Sequences it does not know (mouse reports, focus events, other keyboard protocols) are dropped
/// whole: their bytes never leak out as characters. Ctrl+Space, Ctrl+\\ and the other control codes outside
/// Ctrl+A…Ctrl+Z are dropped too.
///
/// A value type with no shared state; one decoder per input stream. Complexity: O(n) in the bytes fed.
public struct KeyDecoder: Sendable {
    /// Bytes received but not decoded yet: an incomplete sequence or character.
    private var pending: [UInt8] = []
    /// The text of a bracketed paste in progress, or `nil` outside one.
    private var paste: [UInt8]?
    /// Whether the rest of an overlong escape sequence is being skipped, up to its final byte.
    private var discardingSequence = false

    /// The longest escape sequence kept while waiting for its end; longer ones are dropped as garbage.
    private static let maximumSequenceLength = 64
    /// `ESC [201~`, the end of a bracketed paste.
    private static let pasteEnd: [UInt8] = [0x1B, 0x5B, 0x32, 0x30, 0x31, 0x7E]

    public init() {}

    /// Whether the reader should call ``flush()`` after a short pause: a lone Escape or an unfinished escape
    /// sequence is held, which only the pause tells from the start of a longer sequence. An unfinished UTF-8
    /// character does not count: its remaining bytes cannot be anything else, so it waits for them however long a
    /// slow connection takes (``flush()`` still turns it into U+FFFD when the input ends). Nor does a bracketed
    /// paste in progress: it waits for its end.
    public var hasIncompleteInput: Bool { paste == nil && pending.first == 0x1B }

    /// Decodes `bytes` after the bytes of earlier calls and returns the keys that are now complete.
    public mutating func decode(_ bytes: some Collection<UInt8>) -> [Key] {
        pending.append(contentsOf: bytes)
        var keys: [Key] = []
        process(into: &keys, atEnd: false)
        return keys
    }

    /// Decodes what is held as if no more bytes were coming: a lone Escape becomes ``Key/escape``, `ESC [` and
    /// `ESC O` become Escape and the character, a longer unfinished sequence is dropped, and an unfinished UTF-8
    /// character becomes U+FFFD. A bracketed paste in progress is kept.
    public mutating func flush() -> [Key] {
        var keys: [Key] = []
        process(into: &keys, atEnd: true)
        return keys
    }

    // MARK: - Decoding

    /// One step of the scanner at some offset of the pending bytes.
    private enum Token {
        /// These keys (maybe none, for a dropped sequence), from this many bytes.
        case keys([Key], consumed: Int)
        /// `ESC [200~`: the bytes after it, up to `ESC [201~`, are pasted text.
        case pasteStart(consumed: Int)
        /// A sequence longer than any key's: these bytes are dropped, and the rest of it up to its final byte.
        case overlong(consumed: Int)
        /// More bytes are needed to tell.
        case incomplete
    }

    private mutating func process(into keys: inout [Key], atEnd: Bool) {
        let bytes = pending
        var index = 0
        while index < bytes.count {
            if discardingSequence {
                let byte = bytes[index]
                if (0x20...0x3F).contains(byte) {
                    index += 1
                    continue
                }
                discardingSequence = false
                if (0x40...0x7E).contains(byte) { index += 1 }
                continue
            }
            if paste != nil {
                index = consumePaste(bytes, from: index, into: &keys)
                if paste != nil { break }
                continue
            }
            switch Self.scan(bytes, at: index) {
            case .keys(let decoded, let consumed):
                keys.append(contentsOf: decoded)
                index += consumed
            case .pasteStart(let consumed):
                paste = []
                index += consumed
            case .overlong(let consumed):
                discardingSequence = true
                index += consumed
            case .incomplete:
                guard atEnd else {
                    pending.removeFirst(index)
                    return
                }
                index += Self.flushIncomplete(bytes, at: index, into: &keys)
            }
        }
        pending.removeFirst(index)
        if atEnd { discardingSequence = false }
    }

    /// Appends paste bytes from `index` and returns where decoding goes on: after `ESC [201~` when it is there
    /// (the paste is then delivered), or at the start of a possible partial terminator left pending.
    private mutating func consumePaste(_ bytes: [UInt8], from index: Int, into keys: inout [Key]) -> Int {
        let terminator = Self.pasteEnd
        var position = index
        while position < bytes.count {
            guard bytes[position] == 0x1B else {
                position += 1
                continue
            }
            var matched = 1
            while matched < terminator.count, position + matched < bytes.count,
                bytes[position + matched] == terminator[matched]
            {
                matched += 1
            }
            if matched == terminator.count {
                paste!.append(contentsOf: bytes[index..<position])
                keys.append(.paste(Self.pastedText(paste!)))
                paste = nil
                return position + matched
            }
            if position + matched == bytes.count {
                // A partial terminator at the end: keep it pending until the next read.
                paste!.append(contentsOf: bytes[index..<position])
                return position
            }
            position += 1
        }
        paste!.append(contentsOf: bytes[index..<position])
        return position
    }

    /// The pasted bytes as text, invalid UTF-8 replaced and CR LF or CR made LF.
    private static func pastedText(_ bytes: [UInt8]) -> String {
        var normalized: [UInt8] = []
        normalized.reserveCapacity(bytes.count)
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            if byte == 0x0D {
                normalized.append(0x0A)
                if index + 1 < bytes.count, bytes[index + 1] == 0x0A { index += 1 }
            } else {
                normalized.append(byte)
            }
            index += 1
        }
        return String(decoding: normalized, as: UTF8.self)
    }

    /// Decodes an incomplete token when no more bytes are coming; returns the bytes used.
    private static func flushIncomplete(_ bytes: [UInt8], at index: Int, into keys: inout [Key]) -> Int {
        let remaining = bytes.count - index
        guard bytes[index] == 0x1B else {
            // An unfinished UTF-8 character.
            keys.append(.character("\u{FFFD}"))
            return remaining
        }
        if remaining == 1 {
            keys.append(.escape)
            return 1
        }
        if remaining == 2 {
            // `ESC [` or `ESC O` and nothing more: Escape, then the character (decoded on the next turn).
            keys.append(.escape)
            return 1
        }
        // An escape sequence cut short: drop it.
        return remaining
    }

    /// The token at `index`.
    private static func scan(_ bytes: [UInt8], at index: Int) -> Token {
        let byte = bytes[index]
        switch byte {
        case 0x1B:
            guard index + 1 < bytes.count else { return .incomplete }
            switch bytes[index + 1] {
            case 0x5B: return scanCSI(bytes, at: index)
            case 0x4F: return scanSS3(bytes, at: index)
            default: return .keys([.escape], consumed: 1)
            }
        case 0x0D, 0x0A: return .keys([.enter], consumed: 1)
        case 0x09: return .keys([.tab], consumed: 1)
        case 0x7F, 0x08: return .keys([.backspace], consumed: 1)
        case 0x01...0x1A: return .keys([.control(Character(Unicode.Scalar(byte + 0x60)))], consumed: 1)
        case 0x00, 0x1C...0x1F: return .keys([], consumed: 1)
        case 0x20...0x7E: return .keys([.character(Character(Unicode.Scalar(byte)))], consumed: 1)
        default: return scanUTF8(bytes, at: index)
        }
    }

    /// A control sequence: `ESC [`, parameter bytes, intermediate bytes, a final byte.
    private static func scanCSI(_ bytes: [UInt8], at index: Int) -> Token {
        var position = index + 2
        guard position < bytes.count else { return .incomplete }
        if bytes[position] == 0x5B {
            // The Linux console's F1–F5: `ESC [ [ A` … `ESC [ [ E`.
            guard position + 1 < bytes.count else { return .incomplete }
            let final = bytes[position + 1]
            let keys: [Key] = (0x41...0x45).contains(final) ? [.function(Int(final) - 0x40)] : []
            return .keys(keys, consumed: position + 2 - index)
        }
        let parametersStart = position
        while position < bytes.count, (0x30...0x3F).contains(bytes[position]) { position += 1 }
        let parametersEnd = position
        while position < bytes.count, (0x20...0x2F).contains(bytes[position]) { position += 1 }
        // The same bytes are dropped whether the sequence came in one read or many.
        if position - index > maximumSequenceLength { return .overlong(consumed: maximumSequenceLength + 1) }
        guard position < bytes.count else { return .incomplete }
        let final = bytes[position]
        guard (0x40...0x7E).contains(final) else {
            // Not a valid sequence: drop what was read and decode the stray byte on its own.
            return .keys([], consumed: position - index)
        }
        let consumed = position + 1 - index
        guard parametersEnd == position else { return .keys([], consumed: consumed) }  // intermediates: unknown
        let parameters = bytes[parametersStart..<parametersEnd]
        if let first = parameters.first, first >= 0x3C {
            // A private sequence (`ESC [<` mouse reports, `ESC [?` replies): not a key.
            return .keys([], consumed: consumed)
        }
        let number = firstParameter(parameters)
        if final == 0x7E, number == 200 { return .pasteStart(consumed: consumed) }
        let key = csiKey(final: final, number: number)
        return .keys(key.map { [$0] } ?? [], consumed: consumed)
    }

    /// The first number of the parameters, `nil` when there is none.
    private static func firstParameter(_ parameters: ArraySlice<UInt8>) -> Int? {
        var value: Int?
        for byte in parameters {
            guard (0x30...0x39).contains(byte) else { break }
            value = min((value ?? 0) * 10 + Int(byte - 0x30), 100_000)
        }
        return value
    }

    private static func csiKey(final: UInt8, number: Int?) -> Key? {
        switch final {
        case 0x41: return .up
        case 0x42: return .down
        case 0x43: return .right
        case 0x44: return .left
        case 0x48: return .home
        case 0x46: return .end
        case 0x5A: return .backTab
        case 0x50...0x53:
            // `ESC [1;2P` is Shift+F1; `ESC [24;80R` would be a cursor position report.
            guard number == nil || number == 1 else { return nil }
            return .function(Int(final) - 0x4F)
        case 0x7E:
            switch number {
            case 1, 7: return .home
            case 2: return .insert
            case 3: return .delete
            case 4, 8: return .end
            case 5: return .pageUp
            case 6: return .pageDown
            case .some(let code) where (11...15).contains(code): return .function(code - 10)
            case .some(let code) where (17...21).contains(code): return .function(code - 11)
            case .some(let code) where (23...24).contains(code): return .function(code - 12)
            default: return nil
            }
        default: return nil
        }
    }

    /// `ESC O` and a final byte (application cursor keys, F1–F4), maybe with a modifier digit in between.
    private static func scanSS3(_ bytes: [UInt8], at index: Int) -> Token {
        var position = index + 2
        while position < bytes.count, (0x30...0x39).contains(bytes[position]) || bytes[position] == 0x3B {
            position += 1
        }
        guard position < bytes.count else { return .incomplete }
        let final = bytes[position]
        guard (0x40...0x7E).contains(final) else { return .keys([], consumed: position - index) }
        let key: Key?
        switch final {
        case 0x41: key = .up
        case 0x42: key = .down
        case 0x43: key = .right
        case 0x44: key = .left
        case 0x48: key = .home
        case 0x46: key = .end
        case 0x4D: key = .enter
        case 0x50...0x53: key = .function(Int(final) - 0x4F)
        default: key = nil
        }
        return .keys(key.map { [$0] } ?? [], consumed: position + 1 - index)
    }

    /// A UTF-8 character from a lead byte of 0x80 or more; an invalid one is U+FFFD.
    private static func scanUTF8(_ bytes: [UInt8], at index: Int) -> Token {
        let lead = bytes[index]
        let length: Int
        var secondRange: ClosedRange<UInt8> = 0x80...0xBF
        var value: UInt32
        switch lead {
        case 0xC2...0xDF:
            length = 2
            value = UInt32(lead & 0x1F)
        case 0xE0...0xEF:
            length = 3
            value = UInt32(lead & 0x0F)
            if lead == 0xE0 { secondRange = 0xA0...0xBF }  // no overlong forms
            if lead == 0xED { secondRange = 0x80...0x9F }  // no surrogates
        case 0xF0...0xF4:
            length = 4
            value = UInt32(lead & 0x07)
            if lead == 0xF0 { secondRange = 0x90...0xBF }
            if lead == 0xF4 { secondRange = 0x80...0x8F }  // nothing above U+10FFFF
        default:
            return .keys([.character("\u{FFFD}")], consumed: 1)
        }
        for offset in 1..<length {
            guard index + offset < bytes.count else { return .incomplete }
            let byte = bytes[index + offset]
            guard (offset == 1 ? secondRange : 0x80...0xBF).contains(byte) else {
                // The maximal valid prefix becomes one replacement character; the byte is decoded on its own.
                return .keys([.character("\u{FFFD}")], consumed: offset)
            }
            value = value << 6 | UInt32(byte & 0x3F)
        }
        guard let scalar = Unicode.Scalar(value), !(0x80...0x9F).contains(value) else {
            // C1 control codes are not keys.
            return .keys([], consumed: length)
        }
        return .keys([.character(Character(scalar))], consumed: length)
    }
}
