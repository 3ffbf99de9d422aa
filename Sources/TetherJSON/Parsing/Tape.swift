/// The parsed structure of a JSON text: a flat array of entries in document order, two words each.
///
/// The parser validates the whole input once and records every value here; building a ``JSON`` tree or
/// decoding a `Decodable` then walks the tape without rescanning the text. Strings stay as byte ranges of the
/// input until someone asks for them, so keys can be matched by comparing bytes.
///
/// Layout of an entry (`header`, `payload`):
/// - header bits 56...63: the ``Tag``; bits 0...55: a tag-specific value (see below).
/// - null/true/false: nothing else.
/// - int, uint, double: header holds the text's byte offset, payload holds the bit pattern.
/// - bigNumber: header holds the text's byte offset, payload its length.
/// - string: header holds the byte offset of the first byte after the opening quote, payload holds the
///   length in bytes (low 32 bits), ``escapedFlag`` when the string holds backslash escapes and ``asciiFlag``
///   when all its bytes are ASCII.
/// - array/object: header holds the index of the entry just past the container (its last descendant + 1),
///   payload holds the element or member count. Object members are key string, then value.
struct Tape {
    /// Raw values equal the cases' declaration order, which is how Swift stores them: `Entry.tag` relies on it.
    enum Tag: UInt8 {
        case null = 0
        case `true`, `false`, int, uint, double, bigNumber, string, array, object
    }

    struct Entry {
        var header: UInt64
        var payload: UInt64

        /// Every entry is made by `init(tag:value:payload:)`, so the top byte is always a valid tag.
        @inline(__always) var tag: Tag { unsafeBitCast(UInt8(truncatingIfNeeded: header >> 56), to: Tag.self) }
        @inline(__always) var value: Int { Int(truncatingIfNeeded: header & 0x00FF_FFFF_FFFF_FFFF) }

        @inline(__always) init(tag: Tag, value: Int = 0, payload: UInt64 = 0) {
            header = UInt64(tag.rawValue) << 56 | UInt64(truncatingIfNeeded: value)
            self.payload = payload
        }
    }

    static let escapedFlag: UInt64 = 1 << 32
    /// A string whose bytes are all ASCII (set by the scanner and by the decoder's layout of a ``JSON`` value). Its
    /// `String` is then made ASCII, which the standard library knows to be in normal form: without the flag, hashing
    /// and comparing the string take the slower paths for text that may need normalizing.
    static let asciiFlag: UInt64 = 1 << 33

    /// The input the tape describes. Valid only while the parse call's buffer is.
    let bytes: UnsafeBufferPointer<UInt8>
    /// The entries, borrowed from their owner (``TapeStorage``, or the decoder's layout of a ``JSON`` value) for as
    /// long as the tape is used: a `Tape` is a view, copied without reference counting on the decoder's hot paths.
    let entries: UnsafeBufferPointer<Entry>

    /// The index of the entry after the value at `index` and all its descendants.
    @inline(__always) func next(after index: Int) -> Int {
        let entry = entries[index]
        switch entry.tag {
        case .array, .object: return entry.value
        default: return index + 1
        }
    }

    /// The raw bytes of the string at `index` (escapes not yet decoded).
    @inline(__always) func rawString(at index: Int) -> UnsafeBufferPointer<UInt8> {
        let entry = entries[index]
        let start = entry.value
        let length = Int(truncatingIfNeeded: entry.payload & 0xFFFF_FFFF)
        return UnsafeBufferPointer(rebasing: bytes[start..<start + length])
    }

    @inline(__always) func isEscaped(_ index: Int) -> Bool {
        entries[index].payload & Tape.escapedFlag != 0
    }

    /// The string at `index`, with escapes decoded.
    ///
    /// Its bytes are not checked again: every tape holds valid UTF-8 (the scanner checks every string, and the
    /// decoder's layout of a ``JSON`` value copies `String`s).
    @inline(__always)
    func string(at index: Int) -> String {
        let entry = entries[index]
        let length = Int(truncatingIfNeeded: entry.payload & 0xFFFF_FFFF)
        if length == 0 { return "" }
        let raw = UnsafeBufferPointer(start: bytes.baseAddress.unsafelyUnwrapped + entry.value, count: length)
        if entry.payload & Tape.escapedFlag == 0 {
            return UTF8Validation.string(checked: raw, isASCII: entry.payload & Tape.asciiFlag != 0)
        }
        return JSONStringUnescaper.unescape(raw, isASCII: entry.payload & Tape.asciiFlag != 0)
    }

    /// Whether the string at `index` equals `key`'s UTF-8 bytes.
    @inline(__always) func string(at index: Int, equals key: UnsafeBufferPointer<UInt8>) -> Bool {
        let entry = entries[index]
        let length = Int(truncatingIfNeeded: entry.payload & 0xFFFF_FFFF)
        if entry.payload & Tape.escapedFlag != 0 {
            var decoded = string(at: index)
            return decoded.withUTF8 { $0.elementsEqual(key) }
        }
        guard length == key.count else { return false }
        if length == 0 { return true }
        return Tape.bytesEqual(bytes.baseAddress! + entry.value, key.baseAddress!, length)
    }

    /// Compares `count` bytes with word loads: keys are short, and a call to `memcmp` costs more than the compare.
    @inline(__always) static func bytesEqual(_ a: UnsafePointer<UInt8>, _ b: UnsafePointer<UInt8>, _ count: Int) -> Bool
    {
        let a = UnsafeRawPointer(a)
        let b = UnsafeRawPointer(b)
        if count >= 8 {
            var i = 0
            while i + 8 <= count {
                if a.loadUnaligned(fromByteOffset: i, as: UInt64.self)
                    != b.loadUnaligned(fromByteOffset: i, as: UInt64.self)
                {
                    return false
                }
                i += 8
            }
            // The tail, as one overlapping word.
            return i == count
                || a.loadUnaligned(fromByteOffset: count - 8, as: UInt64.self)
                    == b.loadUnaligned(fromByteOffset: count - 8, as: UInt64.self)
        }
        if count >= 4 {
            return a.loadUnaligned(as: UInt32.self) == b.loadUnaligned(as: UInt32.self)
                && a.loadUnaligned(fromByteOffset: count - 4, as: UInt32.self)
                    == b.loadUnaligned(fromByteOffset: count - 4, as: UInt32.self)
        }
        for i in 0..<count where a.load(fromByteOffset: i, as: UInt8.self) != b.load(fromByteOffset: i, as: UInt8.self)
        {
            return false
        }
        return true
    }

    /// The number at `index` (which must be a number entry).
    func number(at index: Int) -> JSON.Number {
        let entry = entries[index]
        switch entry.tag {
        case .int: return JSON.Number(storage: .int(Int64(bitPattern: entry.payload)))
        case .uint: return JSON.Number(storage: .uint(entry.payload))
        case .double: return JSON.Number(storage: .double(Double(bitPattern: entry.payload)))
        default:
            let start = entry.value
            let text = String(decoding: bytes[start..<start + Int(entry.payload)], as: UTF8.self)
            return JSON.Number(storage: .text(text))
        }
    }

    /// The text of the number at `index` exactly as written in the input.
    func numberText(at index: Int) -> String {
        let entry = entries[index]
        let start = entry.value
        var end = start + 1
        if entry.tag == .bigNumber {
            end = start + Int(entry.payload)
        } else {
            while end < bytes.count, JSONNumberParser.isNumberByte(bytes[end]) { end += 1 }
        }
        return String(decoding: bytes[start..<end], as: UTF8.self)
    }
}

/// What a scan made: the entries a ``Tape`` borrows. Frees them when it goes.
final class TapeStorage {
    let bytes: UnsafeBufferPointer<UInt8>
    private let entries: GrowableBuffer<Tape.Entry>

    /// Takes over `entries` (frees them when it goes).
    init(bytes: UnsafeBufferPointer<UInt8>, entries: GrowableBuffer<Tape.Entry>) {
        self.bytes = bytes
        self.entries = entries
    }

    deinit {
        entries.release()
    }

    /// Runs `body` with a tape over this storage; the tape must not be used after `body` returns.
    func withTape<R>(_ body: (Tape) -> R) -> R {
        withExtendedLifetime(self) {
            body(Tape(bytes: bytes, entries: entries.elements))
        }
    }
}

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#elseif canImport(ucrt)
    import ucrt
#endif
