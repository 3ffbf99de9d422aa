/// A property wrapper that reads an empty string, `null` or a missing key as `nil`.
///
/// Some APIs send `""` where they mean "no value": Rakuten's `startTime` and `endTime` are `"YYYY-MM-DD HH:MM"`
/// or `""`. With `EmptyAsNil`, exactly these decode as `nil`:
/// - the empty string `""` (a string of spaces is not empty, and is decoded as `Wrapped`),
/// - `null`,
/// - a missing key.
///
/// Any other value is decoded as `Wrapped` through the decoder's single-value container, so the decoder's
/// strategies apply (a `Date` uses its `dateDecodingStrategy`), and a value `Wrapped` can't read throws the
/// decoder's own `DecodingError` with its coding path.
///
/// ```swift
/// import TetherJSON
///
/// struct Item: Decodable {
///     @EmptyAsNil var startTime: String?   // "" → nil, "2026-12-01 10:00" → "2026-12-01 10:00"
/// }
/// ```
///
/// Encoding writes the plain value; `nil` is omitted from a keyed container (as synthesized `Codable` omits
/// `nil`) and written as `null` elsewhere. It does not write `""` back.
@propertyWrapper
public struct EmptyAsNil<Wrapped: Decodable> {
    /// The value, or `nil` for `""`, `null` or a missing key.
    public var wrappedValue: Wrapped?

    /// Wraps a value.
    public init(wrappedValue: Wrapped?) {
        self.wrappedValue = wrappedValue
    }
}

extension EmptyAsNil: Decodable {
    /// Decodes `nil` from `""` or `null`, and `Wrapped` from anything else.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self.init(wrappedValue: nil)
        } else if FlexibleScalar.may(JSON.Kind(peekingAt: container), be: .string),
            let string = try? container.decode(String.self), string.isEmpty
        {
            self.init(wrappedValue: nil)
        } else {
            self.init(wrappedValue: try container.decode(Wrapped.self))
        }
    }
}

extension EmptyAsNil: Encodable where Wrapped: Encodable {
    /// Encodes the value, or `null` for `nil`.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        if let wrappedValue {
            try container.encode(wrappedValue)
        } else {
            try container.encodeNil()
        }
    }
}

extension EmptyAsNil: Equatable where Wrapped: Equatable {}

extension EmptyAsNil: Hashable where Wrapped: Hashable {}

extension EmptyAsNil: Sendable where Wrapped: Sendable {}

extension KeyedDecodingContainer {
    /// Decodes an ``EmptyAsNil`` value, where a missing key means `nil`.
    ///
    /// Synthesized `Decodable` conformances call this for `@EmptyAsNil` properties.
    public func decode<Wrapped>(_ type: EmptyAsNil<Wrapped>.Type, forKey key: Key) throws -> EmptyAsNil<Wrapped> {
        try decodeIfPresent(type, forKey: key) ?? EmptyAsNil(wrappedValue: nil)
    }
}

extension KeyedEncodingContainer {
    /// Encodes an ``EmptyAsNil`` value, omitting the key when it is `nil`.
    ///
    /// Synthesized `Encodable` conformances call this for `@EmptyAsNil` properties.
    public mutating func encode<Wrapped: Encodable>(_ value: EmptyAsNil<Wrapped>, forKey key: Key) throws {
        try encodeIfPresent(value.wrappedValue, forKey: key)
    }
}
