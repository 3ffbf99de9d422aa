// The number formatting of the writer and the encoder, into a `ByteBuffer`: the same text as the generic
// `append` functions of `JSONNumberFormatter`, written through one pointer into room reserved once per number,
// with the digits made two at a time by arithmetic (no table to load, no bounds or initialization checks).

/// 10^0 through 10^19, for counting digits.
private let powersOfTenUInt64: [UInt64] = [
    1, 10, 100, 1_000, 10_000, 100_000, 1_000_000, 10_000_000, 100_000_000, 1_000_000_000, 10_000_000_000,
    100_000_000_000, 1_000_000_000_000, 10_000_000_000_000, 100_000_000_000_000, 1_000_000_000_000_000,
    10_000_000_000_000_000, 100_000_000_000_000_000, 1_000_000_000_000_000_000, 10_000_000_000_000_000_000,
]

extension JSONNumberFormatter {
    /// Appends the decimal digits of `value` (with a leading `-` when negative).
    @inline(__always)
    static func append(_ value: Int64, to bytes: inout ByteBuffer) {
        bytes.reserve(27)
        appendReserved(value, to: &bytes)
    }

    /// Appends the decimal digits of `value` into 27 bytes of room reserved in `bytes` (see
    /// ``ByteBuffer/reserve(_:)``).
    @inline(__always)
    static func appendReserved(_ value: Int64, to bytes: inout ByteBuffer) {
        // A sign and 19 digits, and the 7 bytes ``writeDigits(_:count:to:)`` may write past them.
        bytes.appendReserved(upTo: 27) { out in
            if value < 0 {
                out[0] = UInt8(ascii: "-")
                return 1 + writeDigits(value.magnitude, to: out + 1)
            }
            return writeDigits(UInt64(value), to: out)
        }
    }

    /// Appends the decimal digits of `value`.
    @inline(__always)
    static func append(_ value: UInt64, to bytes: inout ByteBuffer) {
        bytes.reserve(27)
        appendReserved(value, to: &bytes)
    }

    /// Appends the decimal digits of `value` into 27 bytes of room reserved in `bytes`.
    @inline(__always)
    static func appendReserved(_ value: UInt64, to bytes: inout ByteBuffer) {
        // 20 digits, and the 7 bytes ``writeDigits(_:count:to:)`` may write past them.
        bytes.appendReserved(upTo: 27) { out in writeDigits(value, to: out) }
    }

    /// Appends the JSON text of a finite double, as the generic ``append(_:to:)`` does.
    @inline(__always)
    static func append(_ value: Double, to bytes: inout ByteBuffer) {
        // At most 25 bytes: `-`, 17 digits, `.` and `e-324`; or `-0.000` and 17 digits; or `-`, 16 digits and `.0`.
        // The digits are written in whole words, up to 7 bytes past their end: at most byte 1 + 1 + 17 + 7 of the
        // mantissa, 1 + 1 + 17 + 1 + 2 + 3 + 7 of an exponent, 6 + 17 + 7 of a small number.
        // A non-finite value has no shortest digits: its garbage could run past the 40 bytes.
        bytes.reserve(40)
        appendReserved(value, to: &bytes)
    }

    /// Appends the JSON text of a finite double into 40 bytes of room reserved in `bytes`.
    @inline(__always)
    static func appendReserved(_ value: Double, to bytes: inout ByteBuffer) {
        precondition(value.isFinite, "JSONNumberFormatter writes finite doubles only")
        bytes.appendReserved(upTo: 40) { out in writeDouble(value, to: out) }
    }

    /// The number of decimal digits of `value` (1 for 0).
    @inline(__always)
    static func fastDigitCount(_ value: UInt64) -> Int {
        // log10(2) ≈ 1233/4096: a first guess from the bit length, which is right or one short.
        let bits = 64 - (value | 1).leadingZeroBitCount
        let guess = (bits &* 1233) >> 12
        // Bounds: bits ≤ 64, so guess ≤ 19, the table's last index.
        return guess + (value | 1 >= powersOfTenUInt64[guess] ? 1 : 0)
    }

    /// Writes the digits of `value` at `out` (room for 27 bytes); returns how many.
    @inline(__always)
    static func writeDigits(_ value: UInt64, to out: UnsafeMutablePointer<UInt8>) -> Int {
        let count = fastDigitCount(value)
        writeDigits(value, count: count, to: out)
        return count
    }

    /// Writes the `count` decimal digits of `value` (below 10^`count`; `count` from 1 to 20) at `out`, with
    /// leading zeros as needed. It may write garbage up to `out + count + 7` (whole words): callers reserve room
    /// for that and write what follows over it.
    @inline(__always)
    static func writeDigits(_ value: UInt64, count: Int, to out: UnsafeMutablePointer<UInt8>) {
        let target = UnsafeMutableRawPointer(out)
        if count <= 8 {
            // One word of eight digits (value < 10^8), without its leading count - 8 zeros.
            let word = eightDigits(UInt32(truncatingIfNeeded: value)) >> UInt64(8 &* (8 &- count))
            target.storeBytes(of: word.littleEndian, as: UInt64.self)
        } else if count <= 10 {
            // One or two digits, then eight (ids are often nine or ten digits long): the first ones by a
            // multiplication that divides by 10 exactly below 179, instead of a word of eight.
            let (high, low) = value.quotientAndRemainder(dividingBy: 100_000_000)
            let tens = (high &* 103) >> 10
            let pair = (tens | (high &- 10 &* tens) << 8 | 0x3030) >> UInt64(8 &* (10 &- count))
            target.storeBytes(of: pair.littleEndian, as: UInt64.self)
            target.storeBytes(
                of: eightDigits(UInt32(truncatingIfNeeded: low)).littleEndian, toByteOffset: count &- 8,
                as: UInt64.self)
        } else if count <= 16 {
            let (high, low) = value.quotientAndRemainder(dividingBy: 100_000_000)
            let first = eightDigits(UInt32(truncatingIfNeeded: high)) >> UInt64(8 &* (16 &- count))
            target.storeBytes(of: first.littleEndian, as: UInt64.self)
            target.storeBytes(
                of: eightDigits(UInt32(truncatingIfNeeded: low)).littleEndian, toByteOffset: count &- 8,
                as: UInt64.self)
        } else {
            let (high, low) = value.quotientAndRemainder(dividingBy: 100_000_000)
            let (top, middle) = high.quotientAndRemainder(dividingBy: 100_000_000)
            let first: UInt64
            if count <= 18 {
                // One or two digits (a double's 17 among them), as for ten digits above.
                let tens = (top &* 103) >> 10
                first = (tens | (top &- 10 &* tens) << 8 | 0x3030) >> UInt64(8 &* (18 &- count))
            } else {
                first = eightDigits(UInt32(truncatingIfNeeded: top)) >> UInt64(8 &* (24 &- count))
            }
            target.storeBytes(of: first.littleEndian, as: UInt64.self)
            target.storeBytes(
                of: eightDigits(UInt32(truncatingIfNeeded: middle)).littleEndian, toByteOffset: count &- 16,
                as: UInt64.self)
            target.storeBytes(
                of: eightDigits(UInt32(truncatingIfNeeded: low)).littleEndian, toByteOffset: count &- 8,
                as: UInt64.self)
        }
    }

    /// The eight decimal digits of `x` (below 10^8, with leading zeros) as ASCII in a little-endian word: the
    /// first digit in the lowest byte. Computed in lanes: two of 32 bits (the upper and lower four digits), split
    /// into four of 16 bits (pairs of digits, by a multiplication that divides by 100 exactly below 10^4), then
    /// into eight bytes (by one that divides by 10 exactly below 179).
    @inline(__always)
    static func eightDigits(_ x: UInt32) -> UInt64 {
        let merged = UInt64(x / 10_000) | UInt64(x % 10_000) << 32
        let hundreds = ((merged &* 10_486) >> 20) & 0x7F_0000_007F
        let pairs = ((merged &- 100 &* hundreds) << 16) &+ hundreds
        var tens = ((pairs &* 103) >> 10) & 0x000F_000F_000F_000F
        tens &+= (pairs &- 10 &* tens) << 8
        return tens | 0x3030_3030_3030_3030
    }

    /// The four ways ``writeDouble(_:to:)`` writes a double, as Swift's `description` does.
    private enum DoubleForm {
        /// `1.5e-05`, `1e+300`: below 10^-4 or above 2^53 in magnitude.
        case scientific
        /// `0.001`.
        case belowOne
        /// `1500.0`.
        case whole
        /// `15.25`.
        case fraction
    }

    /// Writes the JSON text of a finite double at `out` (room for 40 bytes); returns its length.
    static func writeDouble(_ value: Double, to out: UnsafeMutablePointer<UInt8>) -> Int {
        var p = 0
        if value.sign == .minus {
            out[0] = UInt8(ascii: "-")
            p = 1
        }
        if value == 0 {
            out[p] = UInt8(ascii: "0")
            out[p + 1] = UInt8(ascii: ".")
            out[p + 2] = UInt8(ascii: "0")
            return p + 3
        }
        var (digits, exponent) = shortestDecimal(value.magnitude)
        while digits % 10 == 0 {
            digits /= 10
            exponent += 1
        }
        // At most 17 digits (the shortest round trip of a double).
        let count = fastDigitCount(digits)
        // The value is 0.d₁d₂…dₙ × 10^point. Each of the four forms has the digits in one run, written by one
        // call below (so that it is inlined once), then completed around it.
        let point = count + exponent
        let form: DoubleForm
        let start: Int
        if point < -3 || value.magnitude > 0x1p53 {
            form = .scientific
            start = p + 1
        } else if point <= 0 {
            form = .belowOne
            start = p + 2 - point
        } else if point >= count {
            form = .whole
            start = p
        } else {
            form = .fraction
            start = p + 1
        }
        writeDigits(digits, count: count, to: out + start)
        switch form {
        case .scientific:
            // d₁.d₂…dₙe±XX: the first digit moved in front of the point.
            out[p] = out[p + 1]
            if count > 1 {
                out[p + 1] = UInt8(ascii: ".")
                p += count + 1
            } else {
                p += 1
            }
            let power = point - 1
            out[p] = UInt8(ascii: "e")
            out[p + 1] = power < 0 ? UInt8(ascii: "-") : UInt8(ascii: "+")
            p += 2
            // Two digits at least, three at most (the magnitude is at most 324).
            let magnitude = power.magnitude
            if magnitude >= 100 {
                out[p] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: magnitude / 100)
                p += 1
            }
            out[p] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: magnitude / 10 % 10)
            out[p + 1] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: magnitude % 10)
            return p + 2
        case .belowOne:
            // 0.00ddd, with at most three zeros after the point, in front of the digits.
            out[p] = UInt8(ascii: "0")
            out[p + 1] = UInt8(ascii: ".")
            for i in 0 ..< -point { out[p + 2 + i] = UInt8(ascii: "0") }
            return start + count
        case .whole:
            // ddd000.0, at most 16 digits before the point (the value is at most 2^53).
            p += count
            for _ in 0..<(point - count) {
                out[p] = UInt8(ascii: "0")
                p += 1
            }
            out[p] = UInt8(ascii: ".")
            out[p + 1] = UInt8(ascii: "0")
            return p + 2
        case .fraction:
            // dd.ddd: the digits were written one place to the right; the whole part moves back in front of the
            // point.
            if point <= 8 {
                // In one word: the digits d₁…d₈ sit at p + 1 … p + 8 (whole words written there); the first `point`
                // of them move one place left, and bytes p + point + 1 … p + 7 get the digits they hold already
                // (each the one before it in the word read). Byte p + point is the point, stored next.
                let raw = UnsafeMutableRawPointer(out + p)
                let moved = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: 1, as: UInt64.self))
                let mask: UInt64 = point == 8 ? ~0 : (1 << UInt64(8 &* point)) &- 1
                raw.storeBytes(of: ((moved & mask) | ((moved << 8) & ~mask)).littleEndian, as: UInt64.self)
            } else {
                for i in 0..<point { out[p + i] = out[p + i + 1] }
            }
            out[p + point] = UInt8(ascii: ".")
            return p + count + 1
        }
    }
}
