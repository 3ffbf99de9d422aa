@testable import TetherJSON

/// The number formatting of the writer before issue 38, kept as the reference the new one is compared with byte for
/// byte (`WriterEquivalenceTests`), like ``ReferenceJSONWriter``: integers digit pair by digit pair from a table,
/// doubles laid out from Schubfach's digits (`JSONNumberFormatter.shortestDecimal`, shared with the writer).
enum ReferenceNumberFormatter {
    /// Appends the decimal digits of `value` (with a leading `-` when negative), without allocating.
    static func append(_ value: Int64, to bytes: inout [UInt8]) {
        if value < 0 { bytes.append(UInt8(ascii: "-")) }
        append(value.magnitude, to: &bytes)
    }

    /// Appends the decimal digits of `value`, without allocating.
    static func append(_ value: UInt64, to bytes: inout [UInt8]) {
        if value < 10 {
            bytes.append(UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: value))
            return
        }
        appendDigits(value, count: digitCount(value), to: &bytes)
    }

    /// The number of decimal digits of `value` (1 for 0).
    @inline(__always)
    static func digitCount(_ value: UInt64) -> Int {
        var count = 1
        var rest = value
        while rest >= 10_000 {
            rest /= 10_000
            count += 4
        }
        while rest >= 10 {
            rest /= 10
            count += 1
        }
        return count
    }

    private static let digitPairs: [UInt8] = Array(
        "00010203040506070809101112131415161718192021222324252627282930313233343536373839404142434445464748495051525354555657585960616263646566676869707172737475767778798081828384858687888990919293949596979899"
            .utf8)

    /// Appends the `count` lowest decimal digits of `value`.
    @inline(__always)
    private static func appendDigits(_ value: UInt64, count: Int, to bytes: inout [UInt8]) {
        bytes.appendUninitialized(count: count) { out in
            digitPairs.withUnsafeBufferPointer { pairs in
                var rest = value
                var i = count
                while i >= 2 {
                    let (quotient, pair) = rest.quotientAndRemainder(dividingBy: 100)
                    i -= 2
                    out[i] = pairs[Int(pair) * 2]
                    out[i + 1] = pairs[Int(pair) * 2 + 1]
                    rest = quotient
                }
                if i > 0 { out[0] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: rest % 10) }
            }
        }
    }

    /// Appends the JSON text of a finite double (see the type's description).
    static func append(_ value: Double, to bytes: inout [UInt8]) {
        if value.sign == .minus { bytes.append(UInt8(ascii: "-")) }
        if value == 0 {
            bytes.append(UInt8(ascii: "0"))
            bytes.append(UInt8(ascii: "."))
            bytes.append(UInt8(ascii: "0"))
            return
        }
        var (digits, exponent) = JSONNumberFormatter.shortestDecimal(value.magnitude)
        while digits % 10 == 0 {
            digits /= 10
            exponent += 1
        }
        let count = digitCount(digits)
        // The value is 0.d₁d₂…dₙ × 10^point.
        let point = count + exponent
        if point < -3 || value.magnitude > 0x1p53 {
            // d₁.d₂…dₙe±XX
            if count > 1 {
                let scale = pow10(count - 1)
                appendDigits(digits / scale, count: 1, to: &bytes)
                bytes.append(UInt8(ascii: "."))
                appendDigits(digits % scale, count: count - 1, to: &bytes)
            } else {
                appendDigits(digits, count: 1, to: &bytes)
            }
            let power = point - 1
            bytes.append(UInt8(ascii: "e"))
            bytes.append(power < 0 ? UInt8(ascii: "-") : UInt8(ascii: "+"))
            let magnitude = UInt64(power.magnitude)
            appendDigits(magnitude, count: max(2, digitCount(magnitude)), to: &bytes)
        } else if point <= 0 {
            // 0.00ddd
            bytes.append(UInt8(ascii: "0"))
            bytes.append(UInt8(ascii: "."))
            bytes.append(repeating: UInt8(ascii: "0"), count: -point)
            appendDigits(digits, count: count, to: &bytes)
        } else if point >= count {
            // ddd000.0
            appendDigits(digits, count: count, to: &bytes)
            bytes.append(repeating: UInt8(ascii: "0"), count: point - count)
            bytes.append(UInt8(ascii: "."))
            bytes.append(UInt8(ascii: "0"))
        } else {
            // dd.ddd
            appendDigits(digits / pow10(count - point), count: point, to: &bytes)
            bytes.append(UInt8(ascii: "."))
            appendDigits(digits % pow10(count - point), count: count - point, to: &bytes)
        }
    }

    private static func pow10(_ n: Int) -> UInt64 {
        var result: UInt64 = 1
        for _ in 0..<n { result &*= 10 }
        return result
    }

}
