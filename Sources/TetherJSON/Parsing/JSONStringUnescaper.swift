/// Decodes the escapes of a string the scanner has already checked.
///
/// A lone surrogate escape (only reachable when the parser's policy is
/// ``JSONParser/Options/LoneSurrogatePolicy/replace``) becomes U+FFFD.
enum JSONStringUnescaper {
    /// The string `raw` holds; `isASCII` says whether `raw`'s bytes are all ASCII.
    ///
    /// The result is valid UTF-8 without a check: the checked runs between escapes are copied whole (an escape
    /// starts with an ASCII backslash, so no run ends inside a character), and every escape writes one valid
    /// scalar (a lone surrogate becomes U+FFFD).
    static func unescape(_ raw: UnsafeBufferPointer<UInt8>, isASCII: Bool) -> String {
        // Every escape decodes to no more bytes than it takes, so the raw length bounds the result.
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: raw.count) { out in
            let (count, wroteNonASCII) = unescape(raw, into: out)
            return UTF8Validation.string(
                checked: UnsafeBufferPointer(rebasing: out[..<count]), isASCII: isASCII && !wroteNonASCII)
        }
    }

    /// Writes the unescaped bytes of `raw` into `out` (at least `raw.count` long) and returns their count, and
    /// whether a `\u` escape wrote a non-ASCII scalar.
    static func unescape(
        _ raw: UnsafeBufferPointer<UInt8>, into out: UnsafeMutableBufferPointer<UInt8>
    ) -> (count: Int, wroteNonASCII: Bool) {
        var wroteNonASCII = false
        var o = 0
        var i = 0
        let n = raw.count
        while i < n {
            // Copy the run up to the next backslash in one go.
            let j: Int
            if let found = memchr(raw.baseAddress! + i, 0x5C, n - i) {
                j = raw.baseAddress!.distance(to: found.assumingMemoryBound(to: UInt8.self))
            } else {
                j = n
            }
            if j > i {
                UnsafeMutableRawPointer(out.baseAddress! + o).copyMemory(
                    from: raw.baseAddress! + i, byteCount: j - i)
                o += j - i
                i = j
                if i == n { break }
            }
            let e = raw[i + 1]
            i += 2
            switch e {
            case UInt8(ascii: "b"): out[o] = 0x08
            case UInt8(ascii: "f"): out[o] = 0x0C
            case UInt8(ascii: "n"): out[o] = 0x0A
            case UInt8(ascii: "r"): out[o] = 0x0D
            case UInt8(ascii: "t"): out[o] = 0x09
            case UInt8(ascii: "u"):
                var scalar = UInt32(hex(raw, i))
                i += 4
                if scalar >= 0xD800, scalar <= 0xDBFF {
                    if i + 5 < n, raw[i] == UInt8(ascii: "\\"), raw[i + 1] == UInt8(ascii: "u") {
                        let low = UInt32(hex(raw, i + 2))
                        if low >= 0xDC00, low <= 0xDFFF {
                            scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                            i += 6
                        } else {
                            scalar = 0xFFFD
                        }
                    } else {
                        scalar = 0xFFFD
                    }
                } else if scalar >= 0xDC00, scalar <= 0xDFFF {
                    scalar = 0xFFFD
                }
                if scalar >= 0x80 { wroteNonASCII = true }
                o += writeUTF8(scalar, into: out, at: o)
                continue
            default: out[o] = e  // \" \\ \/
            }
            o += 1
        }
        return (o, wroteNonASCII)
    }

    @inline(__always) private static func hex(_ raw: UnsafeBufferPointer<UInt8>, _ at: Int) -> UInt16 {
        var value: UInt16 = 0
        for k in 0..<4 {
            let c = raw[at + k]
            let d: UInt8 =
                c <= UInt8(ascii: "9") ? c &- UInt8(ascii: "0") : (c | 0x20) &- UInt8(ascii: "a") &+ 10
            value = value << 4 | UInt16(d)
        }
        return value
    }

    @inline(__always)
    static func writeUTF8(_ scalar: UInt32, into out: UnsafeMutableBufferPointer<UInt8>, at o: Int) -> Int {
        switch scalar {
        case 0..<0x80:
            out[o] = UInt8(scalar)
            return 1
        case 0x80..<0x800:
            out[o] = UInt8(0xC0 | scalar >> 6)
            out[o + 1] = UInt8(0x80 | scalar & 0x3F)
            return 2
        case 0x800..<0x10000:
            out[o] = UInt8(0xE0 | scalar >> 12)
            out[o + 1] = UInt8(0x80 | scalar >> 6 & 0x3F)
            out[o + 2] = UInt8(0x80 | scalar & 0x3F)
            return 3
        default:
            out[o] = UInt8(0xF0 | scalar >> 18)
            out[o + 1] = UInt8(0x80 | scalar >> 12 & 0x3F)
            out[o + 2] = UInt8(0x80 | scalar >> 6 & 0x3F)
            out[o + 3] = UInt8(0x80 | scalar & 0x3F)
            return 4
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
