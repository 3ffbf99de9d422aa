/// Decodes the escapes of a string the scanner has already checked.
///
/// A lone surrogate escape (only reachable when the parser's policy is
/// ``JSONParser/Options/LoneSurrogatePolicy/replace``) becomes U+FFFD.
enum JSONStringUnescaper {
    static func unescape(_ raw: UnsafeBufferPointer<UInt8>) -> String {
        // Every escape decodes to no more bytes than it takes, so the raw length bounds the result.
        String(unsafeUninitializedCapacity: raw.count) { out in unescape(raw, into: out) }
    }

    /// The string `raw` holds, or `nil` when its unescaped bytes are not valid UTF-8.
    static func unescapeValidating(_ raw: UnsafeBufferPointer<UInt8>) -> String? {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: raw.count) { out in
            let count = unescape(raw, into: out)
            return UTF8Validation.string(UnsafeBufferPointer(rebasing: out[..<count]))
        }
    }

    /// Writes the unescaped bytes of `raw` into `out` (at least `raw.count` long) and returns their count.
    static func unescape(_ raw: UnsafeBufferPointer<UInt8>, into out: UnsafeMutableBufferPointer<UInt8>) -> Int {
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
                o += writeUTF8(scalar, into: out, at: o)
                continue
            default: out[o] = e  // \" \\ \/
            }
            o += 1
        }
        return o
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
