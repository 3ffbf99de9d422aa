/// Scans and converts JSON numbers (RFC 8259 §6) without allocating.
///
/// Integers become `Int64` or `UInt64` exactly; integers beyond 64 bits are kept as text. Other numbers, and
/// `-0` (which keeps its sign as the double `-0.0`), become the correctly rounded `Double`, computed from the
/// digits without going through a `String` (see `JSONNumberParser+EiselLemire.swift`). A number too large for
/// `Double` is kept as text; one too small for it becomes zero.
enum JSONNumberParser {
    struct Failure: Error {
        var message: String
        var offset: Int
    }

    /// Whether `c` can appear in a JSON number after its first character.
    static func isNumberByte(_ c: UInt8) -> Bool {
        switch c {
        case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "."), UInt8(ascii: "e"), UInt8(ascii: "E"),
            UInt8(ascii: "+"), UInt8(ascii: "-"):
            true
        default: false
        }
    }

    @inline(__always) private static func digit(_ c: UInt8) -> UInt64? {
        let d = c &- UInt8(ascii: "0")
        return d < 10 ? UInt64(d) : nil
    }

    /// The value of the eight ASCII digits at `p`, or `nil` if any of the eight bytes is not a digit.
    ///
    /// SWAR: a byte is a digit when its high nibble is 3 and adding 6 does not carry into it; then pairs, quads
    /// and the two halves are combined with three multiplications.
    @inline(__always)
    static func eightDigits(_ p: UnsafePointer<UInt8>) -> UInt64? {
        let word = UInt64(littleEndian: UnsafeRawPointer(p).loadUnaligned(as: UInt64.self))
        let high: UInt64 = 0xF0F0_F0F0_F0F0_F0F0
        guard (word & high) | (((word &+ 0x0606_0606_0606_0606) & high) >> 4) == 0x3333_3333_3333_3333 else {
            return nil
        }
        var value = word &- 0x3030_3030_3030_3030
        value = (value &* 10) &+ (value >> 8)
        let mask: UInt64 = 0x0000_00FF_0000_00FF
        value = (((value & mask) &* 0x000F_4240_0000_0064) &+ (((value >> 16) & mask) &* 0x0000_2710_0000_0001)) >> 32
        return value & 0xFFFF_FFFF
    }

    /// Scans the number at `start`, returning its tape entry (a `.bigNumber` entry has no range yet) and the
    /// offset just past it.
    @inline(__always)
    static func scan(_ base: UnsafePointer<UInt8>, from start: Int, end: Int) throws(Failure) -> (Tape.Entry, Int) {
        var i = start
        let negative = base[i] == UInt8(ascii: "-")
        if negative { i += 1 }
        guard i < end, let first = digit(base[i]) else {
            throw Failure(message: "expected a digit after '-'", offset: i)
        }
        var mantissa: UInt64 = first
        var significant = first == 0 ? 0 : 1
        var overflow = false
        i += 1
        if first == 0 {
            if i < end, digit(base[i]) != nil {
                throw Failure(
                    message:
                        "expected '.', 'e' or the end of the number after a leading 0 (JSON numbers have no leading zeros)",
                    offset: i)
            }
        } else {
            // Eight digits at a time while they surely fit (up to 19 digits cannot overflow 64 bits).
            while significant <= 11, i + 8 <= end, let eight = eightDigits(base + i) {
                mantissa = mantissa &* 100_000_000 &+ eight
                significant += 8
                i += 8
            }
            while i < end, let d = digit(base[i]) {
                if significant < 19 {
                    mantissa = mantissa &* 10 &+ d
                } else {
                    let (m, o1) = mantissa.multipliedReportingOverflow(by: 10)
                    let (s, o2) = m.addingReportingOverflow(d)
                    if o1 || o2 { overflow = true } else { mantissa = s }
                }
                significant += 1
                i += 1
            }
        }
        var isInteger = true
        var exponent = 0
        if i < end, base[i] == UInt8(ascii: ".") {
            isInteger = false
            i += 1
            guard i < end, digit(base[i]) != nil else {
                throw Failure(message: "expected a digit after the decimal point", offset: i)
            }
            while i < end, let d = digit(base[i]) {
                if mantissa != 0, significant <= 11, i + 8 <= end, let eight = eightDigits(base + i) {
                    mantissa = mantissa &* 100_000_000 &+ eight
                    exponent -= 8
                    significant += 8
                    i += 8
                    continue
                }
                if mantissa == 0 && d == 0 {
                    exponent -= 1  // leading zeros of a fraction are not significant
                } else if significant < 19 {
                    mantissa = mantissa &* 10 &+ d
                    exponent -= 1
                    significant += 1
                } else {
                    significant += 1
                }
                i += 1
            }
        }
        if i < end, base[i] | 0x20 == UInt8(ascii: "e") {
            isInteger = false
            i += 1
            var negativeExponent = false
            if i < end, base[i] == UInt8(ascii: "+") || base[i] == UInt8(ascii: "-") {
                negativeExponent = base[i] == UInt8(ascii: "-")
                i += 1
            }
            guard i < end, digit(base[i]) != nil else {
                throw Failure(message: "expected a digit in the exponent", offset: i)
            }
            var value = 0
            while i < end, let d = digit(base[i]) {
                if value < 1_000_000 { value = value * 10 + Int(d) }
                i += 1
            }
            exponent += negativeExponent ? -value : value
        }

        if isInteger {
            if !overflow {
                if negative {
                    if mantissa == 0 {
                        // `-0`: integers have no negative zero, so it is the double -0.0, sign kept.
                        return (Tape.Entry(tag: .double, payload: (-0.0 as Double).bitPattern), i)
                    }
                    if mantissa <= UInt64(Int64.max) {
                        return (Tape.Entry(tag: .int, payload: UInt64(bitPattern: -Int64(mantissa))), i)
                    }
                    if mantissa == UInt64(Int64.max) + 1 {
                        return (Tape.Entry(tag: .int, payload: UInt64(bitPattern: Int64.min)), i)
                    }
                } else if mantissa <= UInt64(Int64.max) {
                    return (Tape.Entry(tag: .int, payload: mantissa), i)
                } else {
                    return (Tape.Entry(tag: .uint, payload: mantissa), i)
                }
            }
            return (Tape.Entry(tag: .bigNumber), i)
        }

        let bits: UInt64
        if significant <= 19 {
            // Every digit is in `mantissa`: exact and fast, apart from rare ties the table cannot settle.
            bits =
                doubleBits(mantissa, exponent)
                ?? DecimalDigits.doubleBits(UnsafeBufferPointer(start: base + start, count: i - start))
        } else {
            bits = manyDigitDoubleBits(UnsafeBufferPointer(start: base + start, count: i - start))
        }
        if bits >= 0x7FF0_0000_0000_0000 { return (Tape.Entry(tag: .bigNumber), i) }
        return (Tape.Entry(tag: .double, payload: negative ? bits | 1 << 63 : bits), i)
    }

    /// Parses `bytes` as exactly one JSON number, or returns `nil`.
    static func parseComplete(_ bytes: UnsafeBufferPointer<UInt8>) -> JSON.Number? {
        guard let base = bytes.baseAddress, !bytes.isEmpty else { return nil }
        let first = base[0]
        guard first == UInt8(ascii: "-") || digit(first) != nil else { return nil }
        guard let (entry, next) = try? scan(base, from: 0, end: bytes.count), next == bytes.count else { return nil }
        switch entry.tag {
        case .int: return JSON.Number(storage: .int(Int64(bitPattern: entry.payload)))
        case .uint: return JSON.Number(storage: .uint(entry.payload))
        case .double: return JSON.Number(storage: .double(Double(bitPattern: entry.payload)))
        default: return JSON.Number(storage: .text(String(decoding: bytes, as: UTF8.self)))
        }
    }
}
