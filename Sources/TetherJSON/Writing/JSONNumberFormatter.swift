/// Formats numbers as JSON text: integers digit by digit, `Double`s in the shortest text that reads back as
/// the same `Double`, straight into the output bytes.
///
/// Doubles are written exactly as Swift's `description` writes them, which is always a valid JSON number for
/// finite values: whole values keep a fraction (`3.0`) so they read back as doubles, and values below 10^-4 or
/// above 2^53 in magnitude use an exponent of at least two digits (`1e-05`, `1.5e+300`, `5e-324`).
/// The digits come from the Schubfach algorithm (Raffaello Giulietti, "The Schubfach way to render doubles",
/// 2020): the shortest decimal in the interval of values that round to the double, and the one closest to it when
/// several are that short.
enum JSONNumberFormatter {
    /// The JSON text for a finite double (see the type's description); NaN and the infinities, which have none, as
    /// Swift's `description` writes them (`nan`, `inf`, `-inf`).
    static func text(for value: Double) -> String {
        guard value.isFinite else { return value.description }
        var bytes = ByteBuffer(capacity: 32)
        defer { bytes.deallocate() }
        append(value, to: &bytes)
        return String(decoding: UnsafeBufferPointer(start: bytes.base, count: bytes.count), as: UTF8.self)
    }

    // MARK: - Schubfach

    /// floor(q × log10(2)), for |q| ≤ 5,456,721.
    @inline(__always) private static func floorLog10Pow2(_ q: Int) -> Int { (q &* 661_971_961_083) >> 41 }
    /// floor(log10(3/4 × 2^q)).
    @inline(__always) private static func floorLog10ThreeQuartersPow2(_ q: Int) -> Int {
        (q &* 661_971_961_083 &- 274_743_187_321) >> 41
    }
    /// floor(e × log2(10)), for |e| ≤ 1,838,394.
    @inline(__always) private static func floorLog2Pow10(_ e: Int) -> Int { (e &* 913_124_641_741) >> 38 }

    /// The shortest decimal `digits` × 10^`exponent` that reads back as `value` (finite, positive); among the
    /// shortest, the closest to `value`. `digits` may end in zeros.
    static func shortestDecimal(_ value: Double) -> (digits: UInt64, exponent: Int) {
        let bits = value.bitPattern
        let fraction = bits & (1 << 52 - 1)
        let biasedExponent = Int(bits >> 52 & 0x7FF)
        if biasedExponent != 0 {
            let c = 1 << 52 | fraction
            let q = biasedExponent - 1075
            if q <= 0, q > -53 {
                // A whole number below 2^53: its own digits are the shortest.
                let whole = c >> UInt64(-q)
                if whole << UInt64(-q) == c { return (whole, 0) }
            }
            return toDecimal(q, c, 0)
        }
        // Subnormal.
        return toDecimal(-1074, fraction, 0)
    }

    /// Schubfach for `c` × 2^`q`; `dk` corrects the exponent when `c` was scaled by 10.
    private static func toDecimal(_ q: Int, _ c: UInt64, _ dk: Int) -> (digits: UInt64, exponent: Int) {
        // Work with 4 × the value and its rounding interval's bounds, so they are integers.
        let out: UInt64 = c & 1  // an even significand's bounds read back as it (round half to even)
        let cb = c << 2
        let cbr = cb + 2
        let cbl: UInt64
        let k: Int
        if c != 1 << 52 || q == -1074 {
            cbl = cb - 2
            k = floorLog10Pow2(q)
        } else {
            // A power of two: the gap below is half the gap above.
            cbl = cb - 1
            k = floorLog10ThreeQuartersPow2(q)
        }
        let h = q + floorLog2Pow10(-k) + 2
        let index = 2 * (-k - smallestPowerOfTen)
        let g1 = powersOfTen[index]
        let g0 = powersOfTen[index + 1]
        // The value and its bounds times 10^-k, rounded to odd.
        let vb = roundToOdd(g1, g0, cb << UInt64(h))
        let vbl = roundToOdd(g1, g0, cbl << UInt64(h))
        let vbr = roundToOdd(g1, g0, cbr << UInt64(h))

        let s = vb >> 2
        // One digit fewer: s' = floor(s / 10) and its successor, when exactly one of them is in the interval.
        // (Always tried: for the smallest subnormals s has only two digits, and one may be enough.)
        let sp10 = 10 * s.multipliedFullWidth(by: 115_292_150_460_684_698 << 4).high
        let tp10 = sp10 + 10
        let upin = vbl + out <= sp10 << 2
        let wpin = (tp10 << 2) + out <= vbr
        if upin != wpin { return (upin ? sp10 : tp10, k) }
        let t = s + 1
        let uin = vbl + out <= s << 2
        let win = (t << 2) + out <= vbr
        if uin != win { return (uin ? s : t, k + dk) }
        // Both are in the interval: the closer one, the even one on a tie.
        let cmp = Int64(bitPattern: vb) - Int64(bitPattern: (s + t) << 1)
        return (cmp < 0 || (cmp == 0 && s & 1 == 0) ? s : t, k + dk)
    }

    /// floor(g × cp / 2^127), with the lowest bit set when the division was inexact, for g = g1 × 2^63 + g0.
    @inline(__always)
    private static func roundToOdd(_ g1: UInt64, _ g0: UInt64, _ cp: UInt64) -> UInt64 {
        let mask: UInt64 = 1 << 63 - 1
        let x1 = g0.multipliedFullWidth(by: cp).high
        let (y1, y0) = g1.multipliedFullWidth(by: cp)
        let z = (y0 >> 1) &+ x1
        let vbp = y1 &+ (z >> 63)
        return vbp | ((z & mask) &+ mask) >> 63
    }
}
