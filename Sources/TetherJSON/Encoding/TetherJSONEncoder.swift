public import Foundation

/// Encodes `Encodable` values as JSON, with the options of Foundation's `JSONEncoder`.
///
/// The text is written straight into one buffer as values are encoded, with no tree in between, following the
/// rules of ``JSONWriter``: members in the order they were encoded (or sorted with
/// ``JSONWriter/Options/sortedKeys``), `/` escaped as `\/` unless ``JSONWriter/Options/withoutEscapingSlashes``,
/// and pretty-printed members written `"key": value`. Containers filled in another order than they nest, a key
/// encoded twice (the last value wins, at the first position) and `superEncoder()` are handled by encoding the
/// value again through a ``JSON`` tree, so such a value's `encode(to:)` runs twice. Some types are encoded
/// specially:
/// - ``JSON`` is copied as it is, numbers' text included.
/// - `Date` and `Data` follow ``dateEncodingStrategy`` and ``dataEncodingStrategy``.
/// - `URL` is its `absoluteString`; `Decimal` is a number with its decimal text (fractional decimals are kept
///   to `Double` precision, integers of up to 38 digits exactly).
/// - `Float` is written in its own shortest form (`0.1`, not `0.10000000149011612`).
///
/// Unlike Foundation, a whole `Double` keeps its fraction (`3.0`, not `3`), so it reads back as a double.
/// Top-level scalars are allowed. Errors are `EncodingError.invalidValue` with the coding path of the value.
///
/// ```swift
/// import Foundation
/// import TetherJSON
///
/// struct Item: Encodable { var itemName: String; var itemPrice: Int; var updatedAt: Date }
/// var encoder = TetherJSONEncoder()
/// encoder.keyEncodingStrategy = .convertToSnakeCase
/// encoder.dateEncodingStrategy = .iso8601
/// encoder.outputFormatting = [.sortedKeys]
/// let data = try encoder.encode(Item(itemName: "緑茶", itemPrice: 3240, updatedAt: .now))
/// // {"item_name":"緑茶","item_price":3240,"updated_at":"2024-05-01T12:34:56Z"}
/// ```
///
/// An encoder is a plain value: configure a copy per use, and share it between threads freely.
public struct TetherJSONEncoder: Sendable {
    /// How the JSON text is laid out. Defaults to compact output in encoding order.
    public var outputFormatting: JSONWriter.Options = []
    /// How coding keys become object keys. Defaults to ``KeyEncodingStrategy/useDefaultKeys``.
    public var keyEncodingStrategy: KeyEncodingStrategy = .useDefaultKeys
    /// How `Date`s are encoded. Defaults to ``DateEncodingStrategy/deferredToDate``, like Foundation.
    public var dateEncodingStrategy: DateEncodingStrategy = .deferredToDate
    /// How `Data` is encoded. Defaults to ``DataEncodingStrategy/base64``.
    public var dataEncodingStrategy: DataEncodingStrategy = .base64
    /// What to do with NaN and the infinities, which JSON cannot hold. Defaults to
    /// ``NonConformingFloatEncodingStrategy/throw``.
    public var nonConformingFloatEncodingStrategy: NonConformingFloatEncodingStrategy = .throw
    /// Values handed to every `encode(to:)` as the encoder's `userInfo`.
    public var userInfo: [CodingUserInfoKey: any Sendable] = [:]

    /// Creates an encoder with the default strategies.
    public init() {}

    /// The UTF-8 JSON text of `value`.
    ///
    /// - Throws: `EncodingError.invalidValue` for a value that cannot be encoded (a non-finite number under
    ///   the `.throw` strategy), or any error a value's `encode(to:)` throws.
    public func encode<T: Encodable>(_ value: T) throws -> Data {
        if var buffer = try encodeInPlace(value) {
            // The buffer's memory becomes the `Data`'s, without a copy.
            return Data(bytesNoCopy: buffer.takeMemory(), count: buffer.count, deallocator: .free)
        }
        return Data(try encodeThroughTree(value))
    }

    /// The UTF-8 JSON text of `value`, as bytes.
    ///
    /// - Throws: As ``encode(_:)``.
    public func encodeToBytes<T: Encodable>(_ value: T) throws -> [UInt8] {
        if let buffer = try encodeInPlace(value) {
            defer { buffer.deallocate() }
            return buffer.array
        }
        return try encodeThroughTree(value)
    }

    /// Encodes each of `values` in turn into one buffer, with one encoding state for them all: the text of value `i`
    /// is `bytes[ranges[i]]`, or `ranges[i]` is `nil` when that value failed to encode (the others are unaffected).
    /// For a caller that encodes many values at once (a store saving a page of entities): each value is spared the
    /// encoder's setup and a buffer of its own. Each value's text is what ``encode(_:)`` would make of it.
    ///
    /// - Complexity: O(total text); the buffer grows by doubling.
    package func encodeEach<C: Collection>(_ values: C) -> (bytes: Data, ranges: [Range<Int>?])
    where C.Element: Encodable {
        let state = ByteEncodingState(self)
        // The kept containers' cursors hold the state: let them go, whatever happens.
        defer { state.keptContainers.removeAll() }
        var ranges: [Range<Int>?] = []
        ranges.reserveCapacity(values.count)
        for value in values {
            let start = state.bytes.count
            do {
                try state.encode(value, depth: 0, step: .none)
                if !state.fellBack { state.finish() }
                if state.fellBack {
                    // As `encode(_:)` does for such a value: through a tree, its text appended where it starts.
                    state.restart(at: start)
                    let text = try encodeThroughTree(value)
                    text.withUnsafeBufferPointer { state.bytes.append($0) }
                }
                ranges.append(start..<state.bytes.count)
            } catch {
                state.restart(at: start)
                ranges.append(nil)
            }
        }
        var buffer = state.takeBytes()
        return (Data(bytesNoCopy: buffer.takeMemory(), count: buffer.count, deallocator: .free), ranges)
    }

    /// The text of `value` written in place, in a buffer the caller must free; `nil` when the value must be
    /// encoded through a tree instead (see ``ByteEncodingState``).
    private func encodeInPlace<T: Encodable>(_ value: T) throws -> ByteBuffer? {
        let state = ByteEncodingState(self)
        // The kept containers' cursors hold the state: let them go, whatever happens.
        defer { state.keptContainers.removeAll() }
        try state.encode(value, depth: 0, step: .none)
        guard !state.fellBack else { return nil }
        state.finish()
        // Sorting can find a key it cannot order in place, and fall back too.
        guard !state.fellBack else { return nil }
        return state.takeBytes()
    }

    /// Encodes `value` into a ``JSON`` tree and writes it: for the rare values the byte encoder cannot write in
    /// place (see ``ByteEncodingState``).
    private func encodeThroughTree<T: Encodable>(_ value: T) throws -> [UInt8] {
        let json = try encodeToJSON(value)
        do {
            return try JSONWriter(options: outputFormatting).bytes(json)
        } catch {
            // Only a non-finite number inside a `JSON` value gets here; others were caught while encoding.
            let path = error.path.map { element -> any CodingKey in
                switch element {
                case .key(let key): JSONCodingKey(stringValue: key)
                case .index(let index): JSONCodingKey(index)
                }
            }
            throw EncodingError.invalidValue(
                value, EncodingError.Context(codingPath: path, debugDescription: error.message, underlyingError: error))
        }
    }

    /// `value` as a ``JSON`` tree, without writing it as text.
    ///
    /// - Throws: As ``encode(_:)``.
    public func encodeToJSON<T: Encodable>(_ value: T) throws -> JSON {
        try EncodingContext(self).box(value, at: .none, in: []).json
    }
}
