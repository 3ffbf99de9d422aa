import Foundation

/// Decodes `Decodable` values straight from JSON bytes, with the shape of Foundation's `JSONDecoder`.
///
/// ```swift
/// import Foundation
/// import TetherJSON
///
/// struct Item: Decodable {
///     var itemName: String
///     var updatedAt: Date
/// }
/// let data = Data(#"{"item_name": "緑茶", "updated_at": "2026-12-01 10:00"}"#.utf8)
///
/// var decoder = TetherJSONDecoder()
/// decoder.keyDecodingStrategy = .convertFromSnakeCase
/// decoder.dateDecodingStrategy = .formatted(pattern: "yyyy-MM-dd HH:mm", timeZone: TimeZone(identifier: "Asia/Tokyo")!)
/// let item = try decoder.decode(Item.self, from: data)
/// ```
///
/// The input is validated and indexed by ``JSONParser`` in one pass; values are then read from that index
/// without building an intermediate tree or a dictionary per object. Keys are matched by comparing bytes,
/// starting where the previous key of the same object was found, so members decoded in document order cost
/// one comparison each.
///
/// Errors are standard `DecodingError`s with the full coding path. A parse error is reported as
/// `DecodingError.dataCorrupted` whose `underlyingError` is the ``JSONError`` with line, column and excerpt.
///
/// Repeated keys: RFC 8259 leaves objects with a repeated member name unpredictable, and so does this decoder:
/// which of the repeated members a key reads is unspecified. (A parsed ``JSON`` value keeps every member, and
/// its lookup returns the last.)
///
/// Numbers: `Int` and the other integer types accept any number with a whole value that fits (`3`, `3.0`,
/// `3e2`); `Double` and `Float` accept any number; `Decimal` is read from the number's text, exactly.
///
/// - Thread safety: a `TetherJSONDecoder` is an immutable value once configured; decode from any number of
///   threads at once. The `Decoder` handed to `init(from:)` is only valid during that call.
public struct TetherJSONDecoder: Sendable {
    /// How JSON object keys are matched to coding keys.
    public var keyDecodingStrategy: KeyDecodingStrategy = .useDefaultKeys
    /// Whether a key that matches no member exactly may match one that differs only in case
    /// (`Items` for `items`). Exact matches always win.
    public var matchesKeysCaseInsensitively = false
    /// How `Date` values are decoded.
    public var dateDecodingStrategy: DateDecodingStrategy = .deferredToDate
    /// How `Data` values are decoded.
    public var dataDecodingStrategy: DataDecodingStrategy = .base64
    /// How `Double` and `Float` values may be spelled when not finite.
    public var nonConformingFloatDecodingStrategy: NonConformingFloatDecodingStrategy = .throw
    /// Limits and policies for parsing the input.
    public var parserOptions = JSONParser.Options()
    /// Values handed to `init(from:)` through `Decoder.userInfo`.
    public var userInfo: [CodingUserInfoKey: any Sendable] = [:]

    /// Creates a decoder with default strategies.
    public init() {}

    /// Decodes a value of `type` from UTF-8 JSON bytes (`Data`, `[UInt8]`, a slice, …).
    ///
    /// - Throws: `DecodingError`.
    public func decode<T: Decodable>(_ type: T.Type, from bytes: some Sequence<UInt8>) throws -> T {
        let parser = JSONParser(options: parserOptions)
        var outcome: Result<T, any Error>?
        do throws(JSONError) {
            try parser.withTape(bytes) { tape throws(JSONError) in
                outcome = Result { try decode(type, tape: tape) }
            }
        } catch {
            throw DecodingError.dataCorrupted(
                DecodingError.Context(
                    codingPath: [], debugDescription: "The given data was not valid JSON: \(error)",
                    underlyingError: error))
        }
        return try outcome!.get()
    }

    /// Decodes a value of `type` from JSON text.
    public func decode<T: Decodable>(_ type: T.Type, from text: String) throws -> T {
        try decode(type, from: text.utf8)
    }

    /// Decodes a value of `type` from an already parsed ``JSON`` value.
    ///
    /// - Complexity: O(n) in the size of `json`: it is laid out once in the decoder's index form.
    public func decode<T: Decodable>(_ type: T.Type, from json: JSON) throws -> T {
        let (buffer, entries) = JSONTapeWriter.layOut(json)
        return try buffer.withUnsafeBufferPointer { bytes in
            try entries.withUnsafeBufferPointer { entries in
                try decode(type, tape: Tape(bytes: bytes, entries: entries))
            }
        }
    }

    private func decode<T: Decodable>(_ type: T.Type, tape: Tape) throws -> T {
        let state = DecodingState(tape: tape, configuration: self)
        defer {
            state.isActive = false
            // The kept containers hold their nodes, which hold the state: let them all go.
            state.keptContainers.removeAll()
        }
        return try TapeDecoder(index: 0, node: .root(state)).decodeValue(type)
    }
}
