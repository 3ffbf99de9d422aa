public import Foundation

/// Writes ``JSON`` values as UTF-8 JSON text (RFC 8259).
///
/// The output reads back as an equal value: numbers keep their text (a 23-digit integer stays exact,
/// a `Double` is written in the shortest form that parses to the same bits, and whole doubles keep a fraction,
/// `3.0`, so they stay doubles), and object members keep their order unless ``Options/sortedKeys`` is set.
///
/// Strings escape `"`, `\`, and the control characters U+0000 to U+001F (as `\b`, `\f`, `\n`, `\r`, `\t` or
/// `\u00XX` with lowercase hex digits). `/` is written as `\/`, like Foundation's `JSONSerialization` and
/// `JSONEncoder`, unless ``Options/withoutEscapingSlashes`` is set. Everything else, non-ASCII included, is
/// written as plain UTF-8.
///
/// ```swift
/// import TetherJSON
///
/// let json: JSON = ["name": "緑茶", "tags": ["tea", "green"], "price": 3240]
/// try JSONWriter().string(json)
/// // {"name":"緑茶","tags":["tea","green"],"price":3240}
/// try JSONWriter(options: [.prettyPrinted, .sortedKeys]).string(json)
/// // {
/// //   "name": "緑茶",
/// //   "price": 3240,
/// //   "tags": [
/// //     "tea",
/// //     "green"
/// //   ]
/// // }
/// ```
///
/// Writing is iterative, so arbitrarily deep values (up to the parser's 10,000 levels and beyond) cannot
/// overflow the stack. A writer is a plain value and can be used from any thread. Each call formats every value
/// of the tree again: nothing of an earlier text is kept. (Within one call, the keys of objects that share one keys
/// array, as the parser makes objects of one shape, are formatted once and copied for each object.) For text too large to hold in memory at once,
/// ``write(_:chunkSize:to:)`` and ``write(_:toFileDescriptor:chunkSize:)`` hand it on in chunks.
public struct JSONWriter: Sendable {
    /// How the text is laid out.
    public struct Options: OptionSet, Sendable, Hashable {
        public let rawValue: Int

        public init(rawValue: Int) { self.rawValue = rawValue }

        /// One member or element per line, indented by ``JSONWriter/indentWidth`` spaces per level, with
        /// members written `"key": value` (as `JSON.stringify` and `jq` do). Empty containers stay `[]` and `{}`.
        /// The text does not end with a newline.
        public static let prettyPrinted = Options(rawValue: 1 << 0)
        /// Object members in ascending order of their keys' Unicode code points (equivalently, UTF-8 bytes);
        /// members with the same key keep their relative order.
        public static let sortedKeys = Options(rawValue: 1 << 1)
        /// Writes `/` as itself instead of `\/`.
        public static let withoutEscapingSlashes = Options(rawValue: 1 << 2)
    }

    /// How the text is laid out.
    public var options: Options
    /// Spaces per nesting level when ``Options/prettyPrinted`` is set; a negative width counts as zero.
    public var indentWidth: Int
    /// Writes non-finite numbers as `NaN`, `Infinity` and `-Infinity` instead of throwing. The text is then
    /// not JSON; it is for descriptions only.
    var writesNonFiniteNumbers = false

    /// Creates a writer.
    public init(options: Options = [], indentWidth: Int = 2) {
        self.options = options
        self.indentWidth = indentWidth
    }

    /// The UTF-8 JSON text of `json`.
    ///
    /// - Throws: ``JSONError`` with code ``JSONError/Code/invalidValue`` if `json` holds a NaN or infinite
    ///   number; its ``JSONError/path`` says where.
    public func bytes(_ json: JSON) throws(JSONError) -> [UInt8] {
        var buffer = ByteBuffer(capacity: 4096)
        defer { buffer.deallocate() }
        try write(json, into: &buffer)
        let count = buffer.count
        return [UInt8](unsafeUninitializedCapacity: count) { array, initialized in
            // Bounds: the array was made with room for `count` bytes, the buffer holds `count`.
            if let target = array.baseAddress { target.initialize(from: buffer.base, count: count) }
            initialized = count
        }
    }

    /// The UTF-8 JSON text of `json`, in `Data` that owns the memory the text was written in (no copy is made).
    ///
    /// - Throws: ``JSONError`` with code ``JSONError/Code/invalidValue`` if `json` holds a NaN or infinite
    ///   number; its ``JSONError/path`` says where.
    public func data(_ json: JSON) throws(JSONError) -> Data {
        var buffer = ByteBuffer(capacity: 4096)
        do {
            try write(json, into: &buffer)
        } catch {
            buffer.deallocate()
            throw error
        }
        let count = buffer.count
        return Data(bytesNoCopy: buffer.takeMemory(), count: count, deallocator: .free)
    }

    /// The JSON text of `json`.
    ///
    /// - Throws: ``JSONError`` with code ``JSONError/Code/invalidValue`` if `json` holds a NaN or infinite
    ///   number; its ``JSONError/path`` says where.
    public func string(_ json: JSON) throws(JSONError) -> String {
        var buffer = ByteBuffer(capacity: 4096)
        defer { buffer.deallocate() }
        try write(json, into: &buffer)
        return String(decoding: UnsafeBufferPointer(start: buffer.base, count: buffer.count), as: UTF8.self)
    }

    /// Appends the JSON text of `json` to `bytes`, as a value nested `depth` levels deep (for the indentation of
    /// pretty-printed text).
    func write(_ json: JSON, into bytes: inout [UInt8], depth: Int = 0) throws(JSONError) {
        var buffer = ByteBuffer(capacity: 256)
        defer { buffer.deallocate() }
        try write(json, into: &buffer, depth: depth)
        bytes.append(contentsOf: UnsafeBufferPointer(start: buffer.base, count: buffer.count))
    }

    /// The positions of `keys` in ascending UTF-8 byte order; equal keys keep their order.
    static func sortedOrder(of keys: [String]) -> [Int] {
        Array(keys.indices).sorted { a, b in
            if keys[a].utf8.lexicographicallyPrecedes(keys[b].utf8) { return true }
            if keys[b].utf8.lexicographicallyPrecedes(keys[a].utf8) { return false }
            return a < b
        }
    }
}

extension JSON {
    /// The JSON text of this value, written by a ``JSONWriter`` with `options`.
    ///
    /// - Throws: ``JSONError`` with code ``JSONError/Code/invalidValue`` if the value holds a NaN or infinite
    ///   number.
    public func text(_ options: JSONWriter.Options = []) throws(JSONError) -> String {
        try JSONWriter(options: options).string(self)
    }

    /// The UTF-8 JSON text of this value, written by a ``JSONWriter`` with `options`.
    ///
    /// - Throws: ``JSONError`` with code ``JSONError/Code/invalidValue`` if the value holds a NaN or infinite
    ///   number.
    public func bytes(_ options: JSONWriter.Options = []) throws(JSONError) -> [UInt8] {
        try JSONWriter(options: options).bytes(self)
    }
}

extension JSON: CustomStringConvertible, CustomDebugStringConvertible {
    /// The compact JSON text of this value. It never fails: a NaN or infinite number, which JSON cannot hold,
    /// is shown as `NaN`, `Infinity` or `-Infinity`. Use ``text(_:)`` for text that must be valid JSON.
    public var description: String {
        var writer = JSONWriter()
        writer.writesNonFiniteNumbers = true
        return (try? writer.string(self)) ?? ""
    }

    /// The compact JSON text wrapped in `JSON(...)`, as in `JSON({"a":1})`, so values stand out in logs and
    /// collections.
    public var debugDescription: String { "JSON(\(description))" }
}
