public import Foundation

extension TetherJSONDecoder {
    /// How JSON object keys map to coding keys.
    public enum KeyDecodingStrategy: Sendable {
        /// Keys are used as they are.
        case useDefaultKeys
        /// `snake_case` keys become `camelCase` before matching, with Foundation's rules: leading and
        /// trailing underscores are kept, the words in between are joined and capitalised
        /// (`"user_id"` → `"userId"`, `"_private_key_"` → `"_privateKey_"`).
        case convertFromSnakeCase
        /// A function turns the coding path plus the JSON key (its last element) into the key to match.
        case custom(@Sendable (_ codingPath: [any CodingKey]) -> any CodingKey)
    }

    /// How `Date` values are decoded.
    public enum DateDecodingStrategy: Sendable {
        /// `Date`'s own `Decodable` conformance (a number of seconds since 2001-01-01).
        case deferredToDate
        /// A number of seconds since 1970-01-01 UTC.
        case secondsSince1970
        /// A number of milliseconds since 1970-01-01 UTC.
        case millisecondsSince1970
        /// An ISO 8601 / RFC 3339 date-time, with or without fractional seconds:
        /// `2024-05-01T12:34:56Z`, `2024-05-01T12:34:56.789+09:00`.
        case iso8601
        /// A string in a fixed pattern of `yyyy`, `MM`, `dd`, `HH`, `mm`, `ss`, `SSS` and literal characters,
        /// read in `timeZone`; Rakuten's times are `.formatted(pattern: "yyyy-MM-dd HH:mm", timeZone: tokyo)`.
        case formatted(pattern: String, timeZone: TimeZone)
        /// A function decodes the date from the decoder.
        case custom(@Sendable (_ decoder: any Decoder) throws -> Date)
    }

    /// How `Data` values are decoded.
    public enum DataDecodingStrategy: Sendable {
        /// `Data`'s own `Decodable` conformance (an array of bytes).
        case deferredToData
        /// A Base64 string.
        case base64
        /// A function decodes the data from the decoder.
        case custom(@Sendable (_ decoder: any Decoder) throws -> Data)
    }

    /// How non-finite floating-point values may be spelled.
    public enum NonConformingFloatDecodingStrategy: Sendable {
        /// Only JSON numbers are accepted.
        case `throw`
        /// These strings are also accepted for infinity, negative infinity and NaN.
        case convertFromString(positiveInfinity: String, negativeInfinity: String, nan: String)
    }
}
