// String escaping for JSONWriter (RFC 8259 §7): a scan over the UTF-8 bytes, eight at a time, that copies runs of
// plain bytes in one go and escapes only `"`, `\`, control characters and, optionally, `/`.

extension JSONWriter {
    /// Appends `string` as a quoted, escaped JSON string.
    static func appendString(_ string: String, escapingSlashes: Bool, to bytes: inout [UInt8]) {
        // One overload per output type (not one generic function): the closure then calls code specialized for
        // the output instead of dispatching every append through the protocol.
        let done: Void? = string.utf8.withContiguousStorageIfAvailable { utf8 in
            appendQuoted(utf8, escapingSlashes: escapingSlashes, to: &bytes)
        }
        if done == nil {
            // A bridged or otherwise non-contiguous string: copy its bytes once.
            Array(string.utf8).withUnsafeBufferPointer { utf8 in
                appendQuoted(utf8, escapingSlashes: escapingSlashes, to: &bytes)
            }
        }
    }

    /// Appends `string` as a quoted, escaped JSON string.
    @inline(__always)
    static func appendString(_ string: String, escapingSlashes: Bool, to bytes: inout ByteBuffer) {
        let done: Void? = string.utf8.withContiguousStorageIfAvailable { utf8 in
            appendQuoted(utf8, escapingSlashes: escapingSlashes, to: &bytes)
        }
        if done == nil {
            Array(string.utf8).withUnsafeBufferPointer { utf8 in
                appendQuoted(utf8, escapingSlashes: escapingSlashes, to: &bytes)
            }
        }
    }

    /// Appends the UTF-8 bytes `utf8` as a quoted, escaped JSON string.
    @inline(__always)
    static func appendQuoted<Output: JSONOutput>(
        _ utf8: UnsafeBufferPointer<UInt8>, escapingSlashes: Bool, to bytes: inout Output
    ) {
        bytes.append(UInt8(ascii: "\""))
        appendEscaped(utf8, escapingSlashes: escapingSlashes, to: &bytes)
        bytes.append(UInt8(ascii: "\""))
    }

    /// Appends the UTF-8 bytes `utf8` as a quoted, escaped JSON string, into a byte buffer.
    ///
    /// Most strings need no escape: their bytes are checked and copied in the same pass, eight at a time, into
    /// room reserved up front, instead of scanned first and then copied by `memcpy` (whose call costs more than
    /// the copy for a key or a short value). From the first byte to escape on, ``appendEscaped`` takes over.
    @inline(__always)
    static func appendQuoted(_ utf8: UnsafeBufferPointer<UInt8>, escapingSlashes: Bool, to bytes: inout ByteBuffer) {
        let count = utf8.count
        var plain = 0
        bytes.appendUninitialized(upTo: count + 2) { out in
            out[0] = UInt8(ascii: "\"")
            plain = copyPlainPrefix(utf8, to: out + 1, escapingSlashes: escapingSlashes)
            guard plain == count else { return plain + 1 }
            out[count + 1] = UInt8(ascii: "\"")
            return count + 2
        }
        if plain < count {
            appendEscapedTail(
                UnsafeBufferPointer(rebasing: utf8[plain...]), escapingSlashes: escapingSlashes, to: &bytes)
        }
    }

    /// Appends `utf8`, which starts with a byte to escape, escaped, then the closing quote: into room reserved for
    /// the worst case of each block of input (six bytes out per byte in), the plain runs copied eight bytes at a
    /// time as ``copyPlainPrefix`` does, with no call per run (a URL with its slashes escaped has a run between
    /// each two).
    @inline(never)
    static func appendEscapedTail(
        _ utf8: UnsafeBufferPointer<UInt8>, escapingSlashes: Bool, to bytes: inout ByteBuffer
    ) {
        guard let base = utf8.baseAddress else { return }
        let count = utf8.count
        // Blocks bound the room reserved for one long string to 24 KiB.
        let block = 4096
        var start = 0
        while start < count {
            let end = min(count, start + block)
            bytes.appendUninitialized(upTo: (end - start) * 6) { out in
                var i = start
                var written = 0
                while i < end {
                    let c = base[i]
                    if c < 0x20 || c == UInt8(ascii: "\"") || c == UInt8(ascii: "\\")
                        || (c == UInt8(ascii: "/") && escapingSlashes)
                    {
                        written += writeEscape(for: c, to: out + written)
                        i += 1
                    }
                    let plain = copyPlainPrefix(
                        UnsafeBufferPointer(start: base + i, count: end - i), to: out + written,
                        escapingSlashes: escapingSlashes)
                    i += plain
                    written += plain
                }
                return written
            }
            start = end
        }
        bytes.append(UInt8(ascii: "\""))
    }

    /// Writes the escape sequence for `c`, a byte that must be escaped, at `out` (room for six bytes); returns its
    /// length.
    @inline(__always)
    private static func writeEscape(for c: UInt8, to out: UnsafeMutablePointer<UInt8>) -> Int {
        out[0] = UInt8(ascii: "\\")
        switch c {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): out[1] = c
        case 0x08: out[1] = UInt8(ascii: "b")
        case 0x0C: out[1] = UInt8(ascii: "f")
        case 0x0A: out[1] = UInt8(ascii: "n")
        case 0x0D: out[1] = UInt8(ascii: "r")
        case 0x09: out[1] = UInt8(ascii: "t")
        default:
            out[1] = UInt8(ascii: "u")
            out[2] = UInt8(ascii: "0")
            out[3] = UInt8(ascii: "0")
            out[4] = hexDigits[Int(c >> 4)]
            out[5] = hexDigits[Int(c & 0x0F)]
            return 6
        }
        return 2
    }

    /// Copies the bytes of `utf8` up to the first one that must be escaped to `out` (room for `utf8.count`
    /// bytes), and returns how many it copied.
    @inline(__always)
    static func copyPlainPrefix(
        _ utf8: UnsafeBufferPointer<UInt8>, to out: UnsafeMutablePointer<UInt8>, escapingSlashes: Bool
    ) -> Int {
        guard let base = utf8.baseAddress else { return 0 }
        let count = utf8.count
        let source = UnsafeRawPointer(base)
        let target = UnsafeMutableRawPointer(out)
        var i = 0
        while i + 8 <= count {
            let word = source.loadUnaligned(fromByteOffset: i, as: UInt64.self)
            if mustEscape(word, escapingSlashes: escapingSlashes) { break }
            target.storeBytes(of: word, toByteOffset: i, as: UInt64.self)
            i += 8
        }
        // The last few bytes of a string of eight or more, as one word that overlaps the bytes already copied.
        if i < count, count >= 8, i + 8 > count {
            let word = source.loadUnaligned(fromByteOffset: count - 8, as: UInt64.self)
            if !mustEscape(word, escapingSlashes: escapingSlashes) {
                target.storeBytes(of: word, toByteOffset: count - 8, as: UInt64.self)
                return count
            }
        }
        while i < count {
            let c = base[i]
            if c < 0x20 || c == UInt8(ascii: "\"") || c == UInt8(ascii: "\\")
                || (c == UInt8(ascii: "/") && escapingSlashes)
            {
                return i
            }
            out[i] = c
            i += 1
        }
        return count
    }

    /// Whether any of the eight bytes of `word` may need an escape (exact when none does; see ``firstEscape``).
    @inline(__always)
    static func mustEscape(_ word: UInt64, escapingSlashes: Bool) -> Bool {
        escapeFlags(word, escapingSlashes: escapingSlashes) != 0
    }

    /// The high bit of each byte of `word` that may need an escape: every byte that does is flagged, and a byte
    /// that does not is flagged only above one that does (the borrows of the subtractions run upwards).
    @inline(__always)
    static func escapeFlags(_ word: UInt64, escapingSlashes: Bool) -> UInt64 {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let slash: UInt64 = escapingSlashes ? 0x2F2F_2F2F_2F2F_2F2F : 0x2222_2222_2222_2222
        let quote = word ^ 0x2222_2222_2222_2222
        let backslash = word ^ 0x5C5C_5C5C_5C5C_5C5C
        let slashes = word ^ slash
        let flags =
            ((quote &- ones) & ~quote) | ((backslash &- ones) & ~backslash) | ((slashes &- ones) & ~slashes)
            | ((word &- 0x2020_2020_2020_2020) & ~word)
        return flags & 0x8080_8080_8080_8080
    }

    /// Appends the string `text` (read in place from the tree) as a quoted, escaped JSON string; `false`, having
    /// appended nothing, when its bytes are not contiguous.
    ///
    /// A short string's bytes arrive in two words: without a byte to escape among its `count` bytes, the words
    /// are stored straight after the opening quote (the bytes past `count` are overwritten by the closing quote
    /// and what follows).
    @inline(__always)
    static func append(_ text: UTF8Text, escapingSlashes: Bool, to bytes: inout ByteBuffer) -> Bool {
        let count = text.count
        if let base = text.base {
            appendQuoted(UnsafeBufferPointer(start: base, count: count), escapingSlashes: escapingSlashes, to: &bytes)
            return true
        }
        guard count >= 0 else { return false }
        let (low, high) = text.short
        // The flags of the first `count` bytes only: the zeros after them would be flagged as control characters.
        // A flag above `count` cannot hide one below it, as flags only spread upwards.
        let lowMask: UInt64 = count >= 8 ? ~0 : (1 << UInt64(8 &* count)) &- 1
        let highMask: UInt64 = count > 8 ? (1 << UInt64(8 &* (count &- 8))) &- 1 : 0
        let flags =
            (escapeFlags(low, escapingSlashes: escapingSlashes) & lowMask)
            | (escapeFlags(high, escapingSlashes: escapingSlashes) & highMask)
        if flags == 0 {
            // Room: the quote and 16 bytes of words, of which the closing quote overwrites byte `count` + 1 ≤ 16.
            bytes.appendUninitialized(upTo: 17) { out in
                let target = UnsafeMutableRawPointer(out)
                target.storeBytes(of: UInt8(ascii: "\""), as: UInt8.self)
                target.storeBytes(of: low.littleEndian, toByteOffset: 1, as: UInt64.self)
                target.storeBytes(of: high.littleEndian, toByteOffset: 9, as: UInt64.self)
                target.storeBytes(of: UInt8(ascii: "\""), toByteOffset: count &+ 1, as: UInt8.self)
                return count &+ 2
            }
            return true
        }
        text.withBytes { appendQuoted($0, escapingSlashes: escapingSlashes, to: &bytes) }
        return true
    }

    /// The position of the first byte at or after `start` in `utf8` that must be escaped, or `utf8.count`.
    @inline(__always)
    static func firstEscape(in utf8: UnsafeBufferPointer<UInt8>, from start: Int, escapingSlashes: Bool) -> Int {
        guard let base = utf8.baseAddress else { return 0 }
        let count = utf8.count
        var i = start
        // Eight bytes at a time: a byte is flagged when it is below 0x20 or equals `"`, `\` or `/` (when slashes
        // are escaped), by the classic "has a zero byte" test on the word XORed with each. A flag can only be
        // wrong above a byte that is flagged rightly, so a flagged word always holds a byte to escape.
        while i + 8 <= count {
            let word = UnsafeRawPointer(base + i).loadUnaligned(as: UInt64.self)
            if mustEscape(word, escapingSlashes: escapingSlashes) { break }
            i += 8
        }
        while i < count {
            let c = base[i]
            if c < 0x20 || c == UInt8(ascii: "\"") || c == UInt8(ascii: "\\")
                || (c == UInt8(ascii: "/") && escapingSlashes)
            {
                return i
            }
            i += 1
        }
        return count
    }

    /// Appends the escaped form of the UTF-8 bytes `utf8`, without the quotes.
    @inline(__always)
    static func appendEscaped<Output: JSONOutput>(
        _ utf8: UnsafeBufferPointer<UInt8>, escapingSlashes: Bool, to bytes: inout Output
    ) {
        let count = utf8.count
        var runStart = 0
        while true {
            let next = firstEscape(in: utf8, from: runStart, escapingSlashes: escapingSlashes)
            if runStart < next { bytes.append(UnsafeBufferPointer(rebasing: utf8[runStart..<next])) }
            if next == count { return }
            appendEscape(for: utf8[next], to: &bytes)
            runStart = next + 1
        }
    }

    private static let hexDigits: [UInt8] = Array("0123456789abcdef".utf8)

    /// Appends the escape sequence for `c`, a byte that must be escaped.
    private static func appendEscape<Output: JSONOutput>(for c: UInt8, to bytes: inout Output) {
        let second: UInt8
        switch c {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): second = c
        case 0x08: second = UInt8(ascii: "b")
        case 0x0C: second = UInt8(ascii: "f")
        case 0x0A: second = UInt8(ascii: "n")
        case 0x0D: second = UInt8(ascii: "r")
        case 0x09: second = UInt8(ascii: "t")
        default:
            let high = hexDigits[Int(c >> 4)]
            let low = hexDigits[Int(c & 0x0F)]
            bytes.appendUninitialized(count: 6) { out in
                out[0] = UInt8(ascii: "\\")
                out[1] = UInt8(ascii: "u")
                out[2] = UInt8(ascii: "0")
                out[3] = UInt8(ascii: "0")
                out[4] = high
                out[5] = low
            }
            return
        }
        bytes.appendUninitialized(count: 2) { out in
            out[0] = UInt8(ascii: "\\")
            out[1] = second
        }
    }
}
