public import Foundation

extension TetherJSONEncoder {
    /// How coding keys become object keys.
    public enum KeyEncodingStrategy: Sendable {
        /// The key's `stringValue`, unchanged.
        case useDefaultKeys
        /// camelCase to snake_case by Foundation's rule: a word starts at each uppercase letter, and a run of
        /// uppercase letters is one word up to the letter before the next lowercase one, so `myURLValue`
        /// becomes `my_url_value` and `userID` becomes `user_id`. Underscores already there are kept.
        case convertToSnakeCase
        /// The key your closure returns, given the coding path with the key to convert last.
        case custom(@Sendable (_ codingPath: [any CodingKey]) -> any CodingKey)
    }

    /// How `Date`s are encoded.
    public enum DateEncodingStrategy: Sendable {
        /// `Date`'s own `encode(to:)`: seconds since 2001-01-01 as a `Double`.
        case deferredToDate
        /// An ISO 8601 string in UTC without fractional seconds, `2024-05-01T12:34:56Z`.
        case iso8601
        /// An ISO 8601 string in UTC with milliseconds, `2024-05-01T12:34:56.789Z`.
        case iso8601WithFractionalSeconds
        /// Seconds since 1970 as a number; a whole number of seconds is written as an integer.
        case secondsSince1970
        /// Milliseconds since 1970 as a number; a whole number of milliseconds is written as an integer.
        case millisecondsSince1970
        /// A string in a small fixed pattern such as `yyyy-MM-dd HH:mm`, in `timeZone`.
        ///
        /// The fields are `yyyy`, `MM`, `dd`, `HH`, `mm`, `ss` and `SSS`; text in single quotes and every other
        /// character is literal. The decoder reads the same patterns.
        case formatted(pattern: String, timeZone: TimeZone)
        /// Your closure encodes the date into the encoder it is given. Encoding nothing gives `{}`.
        case custom(@Sendable (Date, any Encoder) throws -> Void)
    }

    /// How `Data` is encoded.
    public enum DataEncodingStrategy: Sendable {
        /// A Base64 string.
        case base64
        /// `Data`'s own `encode(to:)`: an array of byte values.
        case deferredToData
        /// Your closure encodes the data into the encoder it is given. Encoding nothing gives `{}`.
        case custom(@Sendable (Data, any Encoder) throws -> Void)
    }

    /// What to do with NaN and the infinities, which JSON cannot hold.
    public enum NonConformingFloatEncodingStrategy: Sendable, Hashable {
        /// Throw `EncodingError.invalidValue`.
        case `throw`
        /// Write these strings instead.
        case convertToString(positiveInfinity: String, negativeInfinity: String, nan: String)
    }
}

extension TetherJSONEncoder.KeyEncodingStrategy {
    /// `key` converted from camelCase to snake_case (see ``convertToSnakeCase``), matching Foundation's
    /// `JSONEncoder` scalar for scalar.
    static func snakeCase(_ key: String) -> String {
        // Fast path: ASCII without uppercase letters is already snake case.
        if key.utf8.allSatisfy({ $0 < 0x80 && !(UInt8(ascii: "A")...UInt8(ascii: "Z")).contains($0) }) {
            return key
        }
        let scalars = Array(key.unicodeScalars)
        guard !scalars.isEmpty else { return key }

        func isUppercase(_ i: Int) -> Bool {
            let category = scalars[i].properties.generalCategory
            return category == .uppercaseLetter || category == .titlecaseLetter
        }
        func isLowercase(_ i: Int) -> Bool { scalars[i].properties.generalCategory == .lowercaseLetter }

        var words: [Range<Int>] = []
        var wordStart = 0
        var searchStart = 1
        let end = scalars.count
        while let upper = (searchStart..<end).first(where: isUppercase) {
            words.append(wordStart..<upper)
            guard let lower = (upper..<end).first(where: isLowercase) else {
                // Only uppercase and caseless letters are left: they are the last word.
                wordStart = upper
                break
            }
            if lower == upper + 1 {
                // One capital then lowercase: the capital starts the next word.
                wordStart = upper
            } else {
                // A run of capitals: all but the last form a word, the last starts the next.
                words.append(upper..<(lower - 1))
                wordStart = lower - 1
            }
            searchStart = lower + 1
        }
        words.append(wordStart..<end)

        var result = ""
        result.reserveCapacity(key.utf8.count + words.count)
        for (n, word) in words.enumerated() {
            if n > 0 { result.append("_") }
            var text = String.UnicodeScalarView()
            text.append(contentsOf: scalars[word])
            result.append(String(text).lowercased())
        }
        return result
    }
}
