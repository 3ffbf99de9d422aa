/// A type that ``Flexible`` can decode from more than one JSON form.
///
/// Conforming types document exactly which forms they accept. `Int`, `Double`, `String`, `Bool` and `Optional`
/// (of a conforming type) conform. Every conformance reads a single value through the standard
/// `SingleValueDecodingContainer`, so it works with any `Decoder`.
public protocol FlexibleDecodable {
    /// Creates a value from the single value in `container`, accepting the forms the type documents.
    ///
    /// - Throws: `DecodingError` with `container`'s coding path when the value has none of those forms.
    init(flexiblyFrom container: any SingleValueDecodingContainer) throws
}

extension Int: FlexibleDecodable {
    /// Accepts a JSON integer (`205275`) or a string holding one (`"205275"`).
    ///
    /// Whitespace around the digits of a string is trimmed, and a leading `+` or `-` is allowed; nothing else is
    /// (no fraction, exponent, hex or digit separators).
    ///
    /// - Throws: `DecodingError.valueNotFound` for `null`; `DecodingError.dataCorrupted` for a number that is not
    ///   an `Int` (`4.5`, `1e30`) or a string that does not hold one (`""`, `"abc"`, `"4.5"`);
    ///   `DecodingError.typeMismatch` for anything else (a Boolean, an array, an object).
    public init(flexiblyFrom container: any SingleValueDecodingContainer) throws {
        let kind = JSON.Kind(peekingAt: container)
        if FlexibleScalar.may(kind, be: .number), let value = try? container.decode(Int.self) {
            self = value
            return
        }
        try FlexibleScalar.rejectNull(Int.self, in: container)
        if FlexibleScalar.may(kind, be: .string), let string = try? container.decode(String.self) {
            guard let value = Int(FlexibleScalar.trimmed(string)) else {
                throw FlexibleScalar.corrupted(container, "Cannot read \(string.debugDescription) as Int")
            }
            self = value
            return
        }
        if FlexibleScalar.may(kind, be: .number), let number = try? container.decode(Double.self) {
            throw FlexibleScalar.corrupted(container, "The number \(number) is not an Int")
        }
        throw FlexibleScalar.mismatch(Int.self, container, "an integer or a string holding one")
    }
}

extension Double: FlexibleDecodable {
    /// Accepts a JSON number, integer or not (`4`, `4.5`, `-1e3`), or a string holding a finite decimal number
    /// (`"4.5"`, `"4"`, `"-1e3"`).
    ///
    /// Whitespace around a string's number is trimmed. `"nan"`, `"inf"` and hexadecimal strings are refused.
    ///
    /// - Throws: `DecodingError.valueNotFound` for `null`; `DecodingError.dataCorrupted` for a string that does
    ///   not hold a finite decimal number (`""`, `"abc"`, `"nan"`); `DecodingError.typeMismatch` for anything else
    ///   (a Boolean, an array, an object).
    public init(flexiblyFrom container: any SingleValueDecodingContainer) throws {
        let kind = JSON.Kind(peekingAt: container)
        // A string too: the decoder's non-conforming float strategy may read "inf" and the like as a Double.
        if FlexibleScalar.may(kind, be: .number) || kind == .string, let value = try? container.decode(Double.self) {
            self = value
            return
        }
        try FlexibleScalar.rejectNull(Double.self, in: container)
        if FlexibleScalar.may(kind, be: .string), let string = try? container.decode(String.self) {
            let text = FlexibleScalar.trimmed(string)
            guard FlexibleScalar.isDecimal(text), let value = Double(text), value.isFinite else {
                throw FlexibleScalar.corrupted(container, "Cannot read \(string.debugDescription) as Double")
            }
            self = value
            return
        }
        throw FlexibleScalar.mismatch(Double.self, container, "a number or a string holding one")
    }
}

extension String: FlexibleDecodable {
    /// Accepts a JSON string as it is, and writes a number or a Boolean as a string: `123` → `"123"`,
    /// `4.5` → `"4.5"`, `true` → `"true"`.
    ///
    /// An integer that fits `Int` is written in decimal digits; any other number is written as Swift prints the
    /// `Double` (`1e+20`), since the standard `Decoder` protocol does not expose the original text.
    ///
    /// - Throws: `DecodingError.valueNotFound` for `null`; `DecodingError.typeMismatch` for an array or an object.
    public init(flexiblyFrom container: any SingleValueDecodingContainer) throws {
        let kind = JSON.Kind(peekingAt: container)
        if FlexibleScalar.may(kind, be: .string), let value = try? container.decode(String.self) {
            self = value
        } else if FlexibleScalar.may(kind, be: .number), let value = try? container.decode(Int.self) {
            self = String(value)
        } else if FlexibleScalar.may(kind, be: .number), let value = try? container.decode(Double.self) {
            self = String(describing: value)
        } else if FlexibleScalar.may(kind, be: .bool), let value = try? container.decode(Bool.self) {
            self = value ? "true" : "false"
        } else {
            try FlexibleScalar.rejectNull(String.self, in: container)
            throw FlexibleScalar.mismatch(String.self, container, "a string, a number or a Boolean")
        }
    }
}

extension Bool: FlexibleDecodable {
    /// Accepts `true`/`false`, the numbers `0` and `1`, and the strings `"true"`, `"false"`, `"0"` and `"1"`.
    ///
    /// Strings are matched ignoring case (`"TRUE"`) and whitespace around them. Nothing else is accepted (no
    /// `"yes"`, no `2`).
    ///
    /// - Throws: `DecodingError.valueNotFound` for `null`; `DecodingError.dataCorrupted` for any other number
    ///   (`2`, `0.5`) or string (`""`, `"yes"`); `DecodingError.typeMismatch` for an array or an object.
    public init(flexiblyFrom container: any SingleValueDecodingContainer) throws {
        let kind = JSON.Kind(peekingAt: container)
        if FlexibleScalar.may(kind, be: .bool), let value = try? container.decode(Bool.self) {
            self = value
            return
        }
        try FlexibleScalar.rejectNull(Bool.self, in: container)
        if FlexibleScalar.may(kind, be: .number), let number = try? container.decode(Int.self) {
            guard number == 0 || number == 1 else {
                throw FlexibleScalar.corrupted(container, "Expected 0 or 1 for a Bool, found \(number)")
            }
            self = number == 1
            return
        }
        if FlexibleScalar.may(kind, be: .string), let string = try? container.decode(String.self) {
            switch FlexibleScalar.trimmed(string).lowercased() {
            case "true", "1": self = true
            case "false", "0": self = false
            default: throw FlexibleScalar.corrupted(container, "Cannot read \(string.debugDescription) as Bool")
            }
            return
        }
        if FlexibleScalar.may(kind, be: .number), let number = try? container.decode(Double.self) {
            throw FlexibleScalar.corrupted(container, "Expected 0 or 1 for a Bool, found \(number)")
        }
        throw FlexibleScalar.mismatch(
            Bool.self, container, "a Boolean, 0 or 1, or one of \"true\", \"false\", \"0\", \"1\"")
    }
}

extension Optional: FlexibleDecodable where Wrapped: FlexibleDecodable {
    /// `null` is `nil`; any other value is decoded as `Wrapped` decodes it, with the same errors.
    public init(flexiblyFrom container: any SingleValueDecodingContainer) throws {
        self = container.decodeNil() ? nil : try Wrapped(flexiblyFrom: container)
    }
}

/// What the ``FlexibleDecodable`` conformances share.
enum FlexibleScalar {
    /// Whether a value of `kind` (`nil`: not known, see ``JSON/Kind/init(peekingAt:)-(SingleValueDecodingContainer)``)
    /// may be `expected`: each form is tried only where it can succeed, so the usual value is read without a
    /// failed attempt (and its thrown error) first.
    @inline(__always)
    static func may(_ kind: JSON.Kind?, be expected: JSON.Kind) -> Bool {
        kind == nil || kind == expected
    }

    static func trimmed(_ string: String) -> Substring {
        guard let first = string.firstIndex(where: { !$0.isWhitespace }),
            let last = string.lastIndex(where: { !$0.isWhitespace })
        else { return "" }
        return string[first...last]
    }

    /// Whether `text` has only the characters of a decimal number, so `Double(_:)` won't read hex, `nan` or `inf`.
    static func isDecimal(_ text: Substring) -> Bool {
        !text.isEmpty && text.allSatisfy { $0.isASCII && ($0.isNumber || "+-.eE".contains($0)) }
    }

    static func rejectNull<T>(_ type: T.Type, in container: any SingleValueDecodingContainer) throws {
        if container.decodeNil() {
            throw DecodingError.valueNotFound(
                type, .init(codingPath: container.codingPath, debugDescription: "Expected \(type) but found null"))
        }
    }

    static func corrupted(_ container: any SingleValueDecodingContainer, _ message: String) -> DecodingError {
        .dataCorrupted(.init(codingPath: container.codingPath, debugDescription: message))
    }

    static func mismatch<T>(
        _ type: T.Type, _ container: any SingleValueDecodingContainer, _ expected: String
    ) -> DecodingError {
        .typeMismatch(type, .init(codingPath: container.codingPath, debugDescription: "Expected \(expected)"))
    }
}
