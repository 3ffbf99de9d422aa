/// Scans and converts JSON numbers (RFC 8259 §6) without allocating.
///
/// Integers become `Int64` or `UInt64` exactly; integers beyond 64 bits are kept as text. Other numbers become
/// the correctly rounded `Double`: the common case (at most 19 significant digits, a mantissa below 2^53 and a
/// decimal exponent within ±22) is computed exactly with one multiplication or division, the rest by the
/// standard library's correctly rounded conversion. A number too large for `Double` is kept as text.
enum JSONNumberParser {
    struct Failure: Error {
        var message: String
        var offset: Int
    }

    private static let powersOfTen: [Double] = [
        1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18,
        1e19, 1e20, 1e21, 1e22,
    ]

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

        if significant <= 19, mantissa <= 1 << 53, exponent >= -22, exponent <= 22 {
            var value = Double(mantissa)
            value = exponent < 0 ? value / powersOfTen[-exponent] : value * powersOfTen[exponent]
            return (Tape.Entry(tag: .double, payload: (negative ? -value : value).bitPattern), i)
        }
        // Slow path: the standard library's correctly rounded conversion.
        let text = String(decoding: UnsafeBufferPointer(start: base + start, count: i - start), as: UTF8.self)
        guard let value = Double(text), value.isFinite else {
            return (Tape.Entry(tag: .bigNumber), i)
        }
        return (Tape.Entry(tag: .double, payload: value.bitPattern), i)
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
