import TetherJSON

/// The few JavaScript value semantics json-server's answers depend on: `String(value)`, `Number(text)`,
/// `parseInt`, the relational operators and truthiness, applied to ``JSON`` values.
///
/// `nil` stands for JavaScript's `undefined` (a missing member).
enum JSValue {
    /// `String(value)`: numbers in JavaScript's shortest form, arrays joined with `,`, objects as
    /// `[object Object]`.
    static func string(_ value: JSON) -> String {
        switch value {
        case .null: "null"
        case .bool(let b): b ? "true" : "false"
        case .number(let n): numberString(n)
        case .string(let s): s
        case .array(let elements):
            elements.map { $0.isNull ? "" : string($0) }.joined(separator: ",")
        case .object: "[object Object]"
        }
    }

    /// A number's text as JavaScript writes it: integers as digits, whole doubles without a fraction.
    static func numberString(_ number: JSON.Number) -> String {
        if !number.isInteger, let whole = number.int64, Double(whole) == number.double { return String(whole) }
        return number.description
    }

    /// `Number(text)`: the text trimmed of whitespace, empty as `0`, otherwise a decimal number or `NaN` (`nil`).
    static func number(_ text: String) -> Double? {
        let trimmed = text.trimmingJSWhitespace()
        if trimmed.isEmpty { return 0 }
        switch trimmed {
        case "Infinity", "+Infinity": return .infinity
        case "-Infinity": return -.infinity
        default: break
        }
        let allowed = trimmed.utf8.allSatisfy { byte in
            (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || byte == UInt8(ascii: ".")
                || byte == UInt8(ascii: "e") || byte == UInt8(ascii: "E") || byte == UInt8(ascii: "+")
                || byte == UInt8(ascii: "-")
        }
        guard allowed else { return nil }
        return Double(trimmed)
    }

    /// `ToNumber(ToPrimitive(value))`, or `nil` for `NaN`.
    static func number(_ value: JSON?) -> Double? {
        guard let value else { return nil }
        switch value {
        case .null: return 0
        case .bool(let b): return b ? 1 : 0
        case .number(let n): return n.double
        case .string(let s): return number(s)
        case .array, .object: return number(string(value))
        }
    }

    /// `parseInt(text, 10)`: an optional sign and the leading decimal digits, or `nil` (`NaN`) when there are
    /// none. Values beyond `Int` clamp.
    static func parseInt(_ text: String) -> Int? {
        var scalars = Substring(text.trimmingJSWhitespace()).unicodeScalars[...]
        var negative = false
        if let first = scalars.first, first == "-" || first == "+" {
            negative = first == "-"
            scalars = scalars.dropFirst()
        }
        var value = 0
        var sawDigit = false
        for scalar in scalars {
            guard scalar.value >= 48, scalar.value <= 57 else { break }
            let digit = Int(scalar.value - 48)
            sawDigit = true
            let (times, overflow1) = value.multipliedReportingOverflow(by: 10)
            let (sum, overflow2) = times.addingReportingOverflow(digit)
            value = overflow1 || overflow2 ? Int.max / 2 : sum
        }
        guard sawDigit else { return nil }
        return negative ? -value : value
    }

    /// JavaScript truthiness: `null`, `false`, `0` and `""` are false; everything else, containers included,
    /// is true.
    static func isTruthy(_ value: JSON?) -> Bool {
        switch value {
        case nil, .null?: false
        case .bool(let b)?: b
        case .number(let n)?: n.double != 0 && !n.double.isNaN
        case .string(let s)?: !s.isEmpty
        case .array?, .object?: true
        }
    }

    /// Whether the primitive of `value` is a string (strings, arrays and objects), which makes a relational
    /// comparison compare text.
    private static func primitiveIsString(_ value: JSON?) -> Bool {
        switch value {
        case .string?, .array?, .object?: true
        default: false
        }
    }

    /// `lhs < rhs` with JavaScript's abstract relational comparison; `false` whenever a side is `NaN`.
    static func less(_ lhs: JSON?, _ rhs: JSON?) -> Bool {
        if let lhs, let rhs, primitiveIsString(lhs), primitiveIsString(rhs) {
            return string(lhs).utf16.lexicographicallyPrecedes(string(rhs).utf16)
        }
        guard let a = number(lhs), let b = number(rhs) else { return false }
        return a < b
    }

    /// `lhs <= rhs` with JavaScript's abstract relational comparison (so `false` when a side is `NaN`).
    static func lessOrEqual(_ lhs: JSON?, _ rhs: JSON?) -> Bool {
        if let lhs, let rhs, primitiveIsString(lhs), primitiveIsString(rhs) {
            return !string(rhs).utf16.lexicographicallyPrecedes(string(lhs).utf16)
        }
        guard let a = number(lhs), let b = number(rhs) else { return false }
        return a <= b
    }

    /// `lhs === rhs` for primitives (numbers by value); containers are never identical.
    static func strictlyEqual(_ lhs: JSON?, _ rhs: JSON?) -> Bool {
        switch (lhs, rhs) {
        case (nil, nil): true
        case (.null?, .null?): true
        case (.bool(let a)?, .bool(let b)?): a == b
        case (.number(let a)?, .number(let b)?): a == b || a.double == b.double
        case (.string(let a)?, .string(let b)?): a == b
        default: false
        }
    }

    /// lodash's `compareAscending`, which `_.orderBy` sorts with: `undefined` after `null` after everything else,
    /// and the rest by `>` and `<`.
    static func compareAscending(_ value: JSON?, _ other: JSON?) -> Int {
        if strictlyEqual(value, other) { return 0 }
        let valueIsDefined = value != nil
        let valueIsNull = value?.isNull == true
        let otherIsDefined = other != nil
        let otherIsNull = other?.isNull == true
        if (!otherIsNull && less(other, value)) || (valueIsNull && otherIsDefined) || !valueIsDefined {
            return 1
        }
        if (!valueIsNull && less(value, other)) || (otherIsNull && valueIsDefined) || !otherIsDefined {
            return -1
        }
        return 0
    }

    /// The bounds of `Array.prototype.slice(start, end)` on `count` elements; `nil` bounds are `NaN`
    /// (which counts as 0) and a missing `end` is the count.
    static func sliceRange(count: Int, start: Int?, end: Int?, endGiven: Bool = true) -> Range<Int> {
        func clamp(_ bound: Int?) -> Int {
            let bound = bound ?? 0
            return bound < 0 ? max(count + bound, 0) : min(bound, count)
        }
        let lower = clamp(start)
        let upper = endGiven ? clamp(end) : count
        return lower < upper ? lower..<upper : lower..<lower
    }
}

extension String {
    /// The text without the leading and trailing white space JavaScript's `trim` removes (ASCII and Unicode
    /// spaces, line terminators, BOM).
    func trimmingJSWhitespace() -> String {
        let scalars = unicodeScalars
        func isSpace(_ s: Unicode.Scalar) -> Bool { s.properties.isWhitespace || s == "\u{FEFF}" }
        guard let first = scalars.firstIndex(where: { !isSpace($0) }),
            let last = scalars.lastIndex(where: { !isSpace($0) })
        else { return "" }
        return String(scalars[first...last])
    }
}
