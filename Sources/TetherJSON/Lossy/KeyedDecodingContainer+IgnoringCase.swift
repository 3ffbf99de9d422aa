extension KeyedDecodingContainer {
    /// Decodes the value for `key`, or for the key whose spelling differs from it only in letter case.
    ///
    /// The exact key wins. Without it, `allKeys` is searched for the one key equal to `key` ignoring case; when
    /// several match (`items` and `ITEMS`), that is `DecodingError.dataCorrupted`. As `allKeys` only lists keys
    /// that `Key` can represent, this finds other spellings only when `Key` accepts any string. With a synthesized
    /// `CodingKeys` enum it can't; use `Decoder.decode(_:forKeyIgnoringCase:)` from `init(from:)` instead.
    ///
    /// - Throws: `DecodingError.keyNotFound` when no key matches, and whatever decoding the value throws.
    public func decode<T: Decodable>(_ type: T.Type, forKeyIgnoringCase key: Key) throws -> T {
        guard let match = try matchingKey(ignoringCase: key) else {
            throw DecodingError.keyNotFound(
                key,
                .init(
                    codingPath: codingPath,
                    debugDescription: "No value associated with key \(key.stringValue.debugDescription) in any case"))
        }
        return try decode(type, forKey: match)
    }

    /// Decodes the value for `key`, or for the key whose spelling differs from it only in letter case, if present.
    ///
    /// Matches keys as ``decode(_:forKeyIgnoringCase:)`` does, and returns `nil` when no key matches or the value
    /// is `null`.
    public func decodeIfPresent<T: Decodable>(_ type: T.Type, forKeyIgnoringCase key: Key) throws -> T? {
        guard let match = try matchingKey(ignoringCase: key) else { return nil }
        return try decodeIfPresent(type, forKey: match)
    }

    /// `key` when present, else the single key of `allKeys` equal to it ignoring case, else `nil`.
    fileprivate func matchingKey(ignoringCase key: Key) throws -> Key? {
        if contains(key) { return key }
        let wanted = key.stringValue.lowercased()
        let matches = allKeys.filter { $0.stringValue.lowercased() == wanted }
        guard matches.count <= 1 else {
            let names = matches.map(\.stringValue).sorted().map(\.debugDescription).joined(separator: ", ")
            throw DecodingError.dataCorrupted(
                .init(
                    codingPath: codingPath + [key],
                    debugDescription: "Several keys match \(key.stringValue.debugDescription) ignoring case: \(names)"))
        }
        return matches.first
    }
}

extension Decoder {
    /// Decodes the value for `key` in this decoder's object, matching the key ignoring letter case when there is
    /// no exact match.
    ///
    /// Call it from `init(from:)` for a key an API spells inconsistently (Rakuten's `Items`, sometimes `items`).
    /// It reads the object through a container keyed by any string, so it works with a synthesized
    /// `CodingKeys` enum and with any `Decoder`; the object's other keys can still be read through
    /// `container(keyedBy: CodingKeys.self)`.
    ///
    /// ```swift
    /// import TetherJSON
    ///
    /// struct Item: Decodable { var itemName: String }
    ///
    /// struct SearchPage: Decodable {
    ///     var count: Int
    ///     var items: LossyArray<Item>
    ///     enum CodingKeys: String, CodingKey { case count, items = "Items" }
    ///
    ///     init(from decoder: any Decoder) throws {
    ///         let container = try decoder.container(keyedBy: CodingKeys.self)
    ///         count = try container.decode(Int.self, forKey: .count)
    ///         items = try decoder.decode(LossyArray<Item>.self, forKeyIgnoringCase: CodingKeys.items)
    ///     }
    /// }
    /// ```
    ///
    /// The exact spelling wins; when several other spellings match, that is `DecodingError.dataCorrupted`.
    ///
    /// - Throws: `DecodingError.keyNotFound` (with `key`) when no key matches, the decoder's `typeMismatch` when
    ///   the value is not an object, and whatever decoding the value throws.
    public func decode<T: Decodable>(_ type: T.Type, forKeyIgnoringCase key: some CodingKey) throws -> T {
        let container = try container(keyedBy: CaseInsensitiveLookupKey.self)
        guard let match = try container.matchingKey(ignoringCase: CaseInsensitiveLookupKey(key.stringValue)) else {
            throw DecodingError.keyNotFound(
                key,
                .init(
                    codingPath: codingPath,
                    debugDescription: "No value associated with key \(key.stringValue.debugDescription) in any case"))
        }
        return try container.decode(type, forKey: match)
    }

    /// Decodes the value for `key` in this decoder's object, matching the key ignoring letter case, if present.
    ///
    /// Matches keys as ``decode(_:forKeyIgnoringCase:)`` does, and returns `nil` when no key matches or the value
    /// is `null`.
    public func decodeIfPresent<T: Decodable>(_ type: T.Type, forKeyIgnoringCase key: some CodingKey) throws -> T? {
        let container = try container(keyedBy: CaseInsensitiveLookupKey.self)
        guard let match = try container.matchingKey(ignoringCase: CaseInsensitiveLookupKey(key.stringValue)) else {
            return nil
        }
        return try container.decodeIfPresent(type, forKey: match)
    }
}

/// A coding key for any string, so `allKeys` lists every key of an object.
private struct CaseInsensitiveLookupKey: CodingKey {
    let stringValue: String

    init(_ stringValue: String) {
        self.stringValue = stringValue
    }

    init?(stringValue: String) {
        self.init(stringValue)
    }

    var intValue: Int? { nil }

    init?(intValue: Int) { nil }
}
