// String escaping for JSONWriter (RFC 8259 §7): a scan over the UTF-8 bytes that copies runs of plain bytes
// in one go and escapes only `"`, `\`, control characters and, optionally, `/`.

extension JSONWriter {
    /// Appends `string` as a quoted, escaped JSON string.
    static func appendString(_ string: String, escapingSlashes: Bool, to bytes: inout [UInt8]) {
        bytes.append(UInt8(ascii: "\""))
        let done: Void? = string.utf8.withContiguousStorageIfAvailable { utf8 in
            appendEscaped(utf8, escapingSlashes: escapingSlashes, to: &bytes)
        }
        if done == nil {
            // A bridged or otherwise non-contiguous string: copy its bytes once.
            Array(string.utf8).withUnsafeBufferPointer { utf8 in
                appendEscaped(utf8, escapingSlashes: escapingSlashes, to: &bytes)
            }
        }
        bytes.append(UInt8(ascii: "\""))
    }

    /// Appends the escaped form of the UTF-8 bytes `utf8`, without the quotes.
    static func appendEscaped(_ utf8: UnsafeBufferPointer<UInt8>, escapingSlashes: Bool, to bytes: inout [UInt8]) {
        var runStart = 0
        var i = 0
        let count = utf8.count
        while i < count {
            let c = utf8[i]
            // Fast path: every byte from `0` (0x30) up, except `\`, is written as is, UTF-8 lead and
            // continuation bytes included.
            if c >= 0x30, c != UInt8(ascii: "\\") {
                i += 1
                continue
            }
            guard
                c < 0x20 || c == UInt8(ascii: "\"") || c == UInt8(ascii: "\\")
                    || (c == UInt8(ascii: "/") && escapingSlashes)
            else {
                i += 1
                continue
            }
            if runStart < i { bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart..<i])) }
            appendEscape(for: c, to: &bytes)
            i += 1
            runStart = i
        }
        if runStart < count { bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart..<count])) }
    }

    private static let hexDigits: [UInt8] = Array("0123456789abcdef".utf8)

    /// Appends the escape sequence for `c`, a byte that must be escaped.
    private static func appendEscape(for c: UInt8, to bytes: inout [UInt8]) {
        bytes.append(UInt8(ascii: "\\"))
        switch c {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): bytes.append(c)
        case 0x08: bytes.append(UInt8(ascii: "b"))
        case 0x0C: bytes.append(UInt8(ascii: "f"))
        case 0x0A: bytes.append(UInt8(ascii: "n"))
        case 0x0D: bytes.append(UInt8(ascii: "r"))
        case 0x09: bytes.append(UInt8(ascii: "t"))
        default:
            bytes.append(UInt8(ascii: "u"))
            bytes.append(UInt8(ascii: "0"))
            bytes.append(UInt8(ascii: "0"))
            bytes.append(hexDigits[Int(c >> 4)])
            bytes.append(hexDigits[Int(c & 0x0F)])
        }
    }
}
