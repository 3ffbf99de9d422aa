/// A property wrapper that decodes a scalar from whichever JSON form an API happens to send.
///
/// Real APIs are inconsistent about scalars: Rakuten sends `genreId` as a string (`"205275"`) and `tagIds` as
/// numbers, `reviewAverage` as `4.56` or as the integer literal `5`, and flags as `0`/`1`. `Flexible` accepts the
/// forms its `Value` documents (see ``FlexibleDecodable``) and throws a standard `DecodingError` with the coding
/// path for anything else:
///
/// | `Value` | accepts | example |
/// |---|---|---|
/// | `Int` | an integer, or a string holding one (trimmed) | `205275`, `"205275"` |
/// | `Double` | any number, or a string holding a finite one (trimmed) | `4`, `4.5`, `"4.5"` |
/// | `String` | a string, a number or a Boolean, as a string | `"x"`, `123`, `4.5`, `true` |
/// | `Bool` | a Boolean, `0`/`1`, or `"true"`/`"false"`/`"0"`/`"1"` | `true`, `1`, `"0"` |
///
/// ```swift
/// import TetherJSON
///
/// struct Item: Decodable {
///     @Flexible var genreId: String       // "100316" or 100316
///     @Flexible var reviewAverage: Double // 4.56, 0 or "4.5"
///     @Flexible var availability: Bool    // 1 or true
///     @Flexible var pointRate: Int?       // 1, "1", null or a missing key → nil
/// }
/// ```
///
/// `null` is `DecodingError.valueNotFound`, and a missing key `keyNotFound`, unless `Value` is optional: then both
/// are `nil`, as for a plain optional property. Encoding writes the plain value (an optional `nil` is omitted
/// from a keyed container, as synthesized `Codable` omits `nil`). The missing-key rule for an optional `Value` comes
/// from an overload of `KeyedDecodingContainer.decode(_:forKey:)`, which the compiler picks where the property's type
/// is known to be optional (`@Flexible var x: Int?`); in a generic type whose `Value` is a type parameter, a
/// missing key is `keyNotFound` even when the parameter is bound to an optional.
@propertyWrapper
public struct Flexible<Value: FlexibleDecodable> {
    /// The decoded value.
    public var wrappedValue: Value

    /// Wraps a value.
    public init(wrappedValue: Value) {
        self.wrappedValue = wrappedValue
    }
}

extension Flexible: Decodable {
    /// Decodes the value from any of the forms `Value` accepts.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        self.init(wrappedValue: try Value(flexiblyFrom: container))
    }
}

extension Flexible: Encodable where Value: Encodable {
    /// Encodes the plain value (`nil` as `null`).
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(wrappedValue)
    }
}

extension Flexible: Equatable where Value: Equatable {}

extension Flexible: Hashable where Value: Hashable {}

extension Flexible: Sendable where Value: Sendable {}

extension KeyedDecodingContainer {
    /// Decodes an optional ``Flexible`` value, where a missing key means `nil` as it does for a plain optional.
    ///
    /// Synthesized `Decodable` conformances call this for `@Flexible var x: T?` properties.
    public func decode<Wrapped>(_ type: Flexible<Wrapped?>.Type, forKey key: Key) throws -> Flexible<Wrapped?> {
        try decodeIfPresent(type, forKey: key) ?? Flexible(wrappedValue: nil)
    }
}

extension KeyedEncodingContainer {
    /// Encodes an optional ``Flexible`` value, omitting the key when it is `nil`.
    ///
    /// Synthesized `Encodable` conformances call this for `@Flexible var x: T?` properties.
    public mutating func encode<Wrapped: Encodable>(_ value: Flexible<Wrapped?>, forKey key: Key) throws {
        try encodeIfPresent(value.wrappedValue, forKey: key)
    }
}
