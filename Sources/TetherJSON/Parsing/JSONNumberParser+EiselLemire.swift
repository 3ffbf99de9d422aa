// Decimal to binary conversion of doubles: w × 10^q to the nearest Double, without strings.
//
// The common cases are exact and fast:
// - Clinger's fast path: w ≤ 2^53 and |q| ≤ 22, where w and 10^|q| are both exact doubles, so one correctly
//   rounded multiplication or division gives the answer.
// - The Eisel–Lemire algorithm (Lemire, "Number Parsing at a Gigabyte per Second", 2021) for any w of up to
//   19 digits: w times a 128-bit approximation of 5^q (``JSONNumberParser/powersOfFive``) gives the leading bits
//   of the result, and the bits below tell whether they are enough to round correctly. They almost always are.
// The rest, inputs with more than 19 significant digits whose truncation leaves the rounding open and the rare
// products the approximation cannot settle, go to ``DecimalDigits``, an exact conversion.

extension JSONNumberParser {
    private static let exactPowersOfTen: [Double] = [
        1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18,
        1e19, 1e20, 1e21, 1e22,
    ]

    private static let infinityBits: UInt64 = 0x7FF0_0000_0000_0000

    /// The correctly rounded magnitude of `w` × 10^`q`, where `w` has at most 19 digits (any `UInt64` works),
    /// as a `Double` bit pattern without the sign: `0` for values that round to zero, ``infinityBits`` for
    /// values too large. `nil` when the 128-bit approximation cannot decide the rounding (rare; use the exact
    /// conversion then).
    @inline(__always)
    static func doubleBits(_ w: UInt64, _ q: Int) -> UInt64? {
        if w <= 1 << 53, q >= -22, q <= 22 {
            let value = q < 0 ? Double(w) / exactPowersOfTen[-q] : Double(w) * exactPowersOfTen[q]
            return value.bitPattern
        }
        return eiselLemire(w, q)
    }

    /// The Eisel–Lemire conversion; see ``doubleBits(_:_:)``.
    static func eiselLemire(_ w: UInt64, _ q: Int) -> UInt64? {
        if w == 0 || q < smallestPowerOfFive { return 0 }
        if q > 308 { return infinityBits }
        let leadingZeros = w.leadingZeroBitCount
        let normalized = w << UInt64(leadingZeros)
        let index = 2 * (q - smallestPowerOfFive)
        // The top 64 bits of normalized × 5^q: 55 of them (52 stored, the hidden bit, one to round with and one
        // that may be the product's leading zero) are needed; the 9 below say whether truncation could matter.
        var (high, low) = normalized.multipliedFullWidth(by: powersOfFive[index])
        if high & 0x1FF == 0x1FF {
            // The bits below might carry into the ones kept: add the product with the next 64 bits of 5^q.
            let (next, _) = normalized.multipliedFullWidth(by: powersOfFive[index + 1])
            let (sum, carry) = low.addingReportingOverflow(next)
            low = sum
            if carry { high &+= 1 }
            // Still all ones below: the truncated rest of 5^q could decide it (never for 0 ≤ q ≤ 55, where the
            // table is exact, nor for -27 ≤ q < 0, where it is rounded up).
            if high & 0x1FF == 0x1FF, low == .max, q < -27 || q > 55 { return nil }
        }
        let upperBit = Int(high >> 63)
        let shift = UInt64(upperBit + 9)
        var mantissa = high >> shift
        // floor(log2(10^q)) = floor(q × log2(10)), computed as (217706 × q) >> 16 for |q| ≤ 1,500.
        var exponent = ((217_706 * q) >> 16) + 63 + upperBit - leadingZeros + 1023
        if exponent <= 0 {
            // Subnormal (or zero): shift the mantissa down to the fixed exponent, then round half up; ties are
            // impossible here, because no w × 10^q this small lies exactly halfway between two doubles.
            if -exponent + 1 >= 64 { return 0 }
            mantissa >>= UInt64(-exponent + 1)
            mantissa += mantissa & 1
            mantissa >>= 1
            // Rounding up may reach the smallest normal number, whose exponent field is 1.
            exponent = mantissa < 1 << 52 ? 0 : 1
            return UInt64(exponent) << 52 | mantissa
        }
        // Round half to even: a product that is exactly halfway has nothing below the rounding bit, which can
        // only happen for -4 ≤ q ≤ 23 (beyond that, 5^q has too many bits for w × 5^q to be that close).
        if low <= 1, q >= -4, q <= 23, mantissa & 3 == 1, mantissa << shift == high {
            mantissa &= ~1
        }
        mantissa += mantissa & 1
        mantissa >>= 1
        if mantissa >= 2 << 52 {
            // Rounding carried into a new bit.
            mantissa = 1 << 52
            exponent += 1
        }
        mantissa &= ~(1 << 52)
        if exponent >= 0x7FF { return infinityBits }
        return UInt64(exponent) << 52 | mantissa
    }

    /// The correctly rounded magnitude of the number whose text is `bytes` (a valid JSON number, sign
    /// included), for numbers with more than 19 significant digits: from the first 19 digits when the rest
    /// cannot change the rounding, else exactly.
    static func manyDigitDoubleBits(_ bytes: UnsafeBufferPointer<UInt8>) -> UInt64 {
        var w: UInt64 = 0
        var taken = 0
        var decimalPoint = 0  // the value is 0.(digits) × 10^decimalPoint
        var seenPoint = false
        var i = 0
        if bytes[0] == UInt8(ascii: "-") { i = 1 }
        while i < bytes.count {
            let c = bytes[i]
            if c == UInt8(ascii: ".") {
                seenPoint = true
            } else if c | 0x20 == UInt8(ascii: "e") {
                break
            } else {
                let d = UInt64(c &- UInt8(ascii: "0"))
                if w == 0, taken == 0, d == 0 {
                    if seenPoint { decimalPoint -= 1 }
                } else {
                    if taken < 19 {
                        w = w &* 10 &+ d
                        taken += 1
                    }
                    if !seenPoint { decimalPoint += 1 }
                }
            }
            i += 1
        }
        if i < bytes.count {
            i += 1
            var negativeExponent = false
            if bytes[i] == UInt8(ascii: "+") || bytes[i] == UInt8(ascii: "-") {
                negativeExponent = bytes[i] == UInt8(ascii: "-")
                i += 1
            }
            var value = 0
            while i < bytes.count {
                if value < 1_000_000 { value = value * 10 + Int(bytes[i] &- UInt8(ascii: "0")) }
                i += 1
            }
            decimalPoint += negativeExponent ? -value : value
        }
        // The value lies in [w, w + 1) × 10^q; if both ends round to the same double, that is the answer.
        let q = decimalPoint - taken
        if let lower = eiselLemire(w, q), let upper = eiselLemire(w + 1, q), lower == upper {
            return lower
        }
        return DecimalDigits.doubleBits(bytes)
    }
}
