/// An exact decimal number of up to ``capacity`` significant digits, for the conversions the fast paths of
/// ``JSONNumberParser`` cannot settle.
///
/// The number is 0.d₁d₂d₃… × 10^``decimalPoint``. Converting it to a `Double` scales it by powers of two
/// (multiplying or dividing the digit string, exactly) until it lies in [1/2, 1), then takes the 53 bits of the
/// significand and rounds half to even on the digits left over. Digits past the capacity are dropped but
/// remembered (``truncated``), which is enough to round correctly: a value that far from a tie cannot be moved
/// across one by them. Slow (a few microseconds) and allocating, so it is only for the rare hard cases.
struct DecimalDigits {
    static let capacity = 800

    /// The digits' values (0...9), most significant first; no leading or trailing zeros.
    private var digits: [UInt8]
    private var count = 0
    private var decimalPoint = 0
    /// Whether nonzero digits were dropped beyond ``capacity``.
    private var truncated = false

    /// Reads `bytes`, a valid JSON number; the sign is ignored.
    private init(_ bytes: UnsafeBufferPointer<UInt8>) {
        digits = [UInt8](repeating: 0, count: Self.capacity + 20)
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
                let d = c &- UInt8(ascii: "0")
                if count == 0, d == 0 {
                    if seenPoint { decimalPoint -= 1 }
                } else {
                    if count < Self.capacity {
                        digits[count] = d
                        count += 1
                    } else if d != 0 {
                        truncated = true
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
        trimTrailingZeros()
    }

    private mutating func trimTrailingZeros() {
        while count > 0, digits[count - 1] == 0 { count -= 1 }
        if count == 0 { decimalPoint = 0 }
    }

    /// Multiplies by 2^`k` (`k` ≤ 60).
    private mutating func multiplyByPowerOfTwo(_ k: Int) {
        // Each digit times 2^k plus the carry stays below 10 × 2^60 < 2^64. The product has at most 19 more
        // digits than the number; they are written from the right into a fresh buffer.
        var product = [UInt8](repeating: 0, count: count + 20)
        var write = product.count
        var carry: UInt64 = 0
        for i in stride(from: count - 1, through: 0, by: -1) {
            let value = UInt64(digits[i]) << UInt64(k) + carry
            carry = value / 10
            write -= 1
            product[write] = UInt8(value % 10)
        }
        while carry > 0 {
            write -= 1
            product[write] = UInt8(carry % 10)
            carry /= 10
        }
        let newCount = product.count - write
        decimalPoint += newCount - count
        count = 0
        for i in write..<product.count {
            if count < Self.capacity {
                digits[count] = product[i]
                count += 1
            } else if product[i] != 0 {
                truncated = true
            }
        }
        trimTrailingZeros()
    }

    /// Divides by 2^`k` (`k` ≤ 60), by long division from the most significant digit.
    private mutating func divideByPowerOfTwo(_ k: Int) {
        guard count > 0 else { return }
        var read = 0
        var write = 0
        var n: UInt64 = 0
        // Take enough leading digits for the first quotient digit to be nonzero.
        while n >> UInt64(k) == 0 {
            if read < count {
                n = n * 10 + UInt64(digits[read])
            } else {
                n *= 10
            }
            read += 1
        }
        decimalPoint -= read - 1
        let mask: UInt64 = (1 << UInt64(k)) - 1
        while read < count {
            let next = UInt64(digits[read])
            read += 1
            digits[write] = UInt8(n >> UInt64(k))
            write += 1
            n = (n & mask) * 10 + next
        }
        while n > 0 {
            let digit = UInt8(n >> UInt64(k))
            if write < Self.capacity {
                digits[write] = digit
                write += 1
            } else if digit > 0 {
                truncated = true
            }
            n = (n & mask) * 10
        }
        count = write
        trimTrailingZeros()
    }

    private mutating func shift(byPowerOfTwo k: Int) {
        var rest = k
        while rest > 60 {
            multiplyByPowerOfTwo(60)
            rest -= 60
        }
        while rest < -60 {
            divideByPowerOfTwo(60)
            rest += 60
        }
        if rest > 0 { multiplyByPowerOfTwo(rest) } else if rest < 0 { divideByPowerOfTwo(-rest) }
    }

    /// The integer part, rounded half to even on the fraction (a dropped digit breaks a tie upwards).
    /// The integer part must fit in 19 digits.
    private func roundedInteger() -> UInt64 {
        var n: UInt64 = 0
        var i = 0
        while i < decimalPoint {
            n = n * 10 + (i < count ? UInt64(digits[i]) : 0)
            i += 1
        }
        let position = decimalPoint
        guard position >= 0, position < count else { return n }
        let roundsUp: Bool
        if digits[position] == 5, position + 1 == count {
            roundsUp = truncated || (position > 0 && digits[position - 1] % 2 == 1)
        } else {
            roundsUp = digits[position] >= 5
        }
        return roundsUp ? n + 1 : n
    }

    /// Powers of two that keep a number with `decimalPoint` digits before the point above 1/2 when divided
    /// (or below 1 when multiplied): 2^powers[n] < 10^n.
    private static let powers = [1, 3, 6, 9, 13, 16, 19, 23, 26]

    /// The correctly rounded magnitude of the JSON number `bytes` as a `Double` bit pattern (infinity when it is
    /// too large).
    static func doubleBits(_ bytes: UnsafeBufferPointer<UInt8>) -> UInt64 {
        var d = DecimalDigits(bytes)
        if d.count == 0 { return 0 }
        if d.decimalPoint > 310 { return 0x7FF0_0000_0000_0000 }
        if d.decimalPoint < -330 { return 0 }
        // Scale into [1/2, 1): d × 2^exponent stays the number.
        var exponent = 0
        while d.decimalPoint > 0 {
            let n = d.decimalPoint >= powers.count ? 27 : powers[d.decimalPoint]
            d.shift(byPowerOfTwo: -n)
            exponent += n
        }
        while d.decimalPoint < 0 || (d.decimalPoint == 0 && d.digits[0] < 5) {
            let n = -d.decimalPoint >= powers.count ? 27 : powers[-d.decimalPoint]
            d.shift(byPowerOfTwo: n)
            exponent -= n
        }
        // Doubles are 1.f × 2^e: in [1, 2).
        exponent -= 1
        if exponent < -1022 {
            // Subnormal: fix the exponent at the smallest one and shift the digits down instead.
            let n = -1022 - exponent
            d.shift(byPowerOfTwo: -n)
            exponent += n
        }
        if exponent > 1023 { return 0x7FF0_0000_0000_0000 }
        d.shift(byPowerOfTwo: 53)
        var mantissa = d.roundedInteger()
        if mantissa == 2 << 52 {
            mantissa >>= 1
            exponent += 1
            if exponent > 1023 { return 0x7FF0_0000_0000_0000 }
        }
        // Without the hidden bit the number is subnormal: its exponent field is 0.
        let biased = mantissa & (1 << 52) == 0 ? 0 : exponent + 1023
        return mantissa & ((1 << 52) - 1) | UInt64(biased) << 52
    }
}
