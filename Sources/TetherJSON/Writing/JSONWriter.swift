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
/// overflow the stack. A writer is a plain value and can be used from any thread.
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
        var bytes: [UInt8] = []
        bytes.reserveCapacity(256)
        try write(json, into: &bytes)
        return bytes
    }

    /// The JSON text of `json`.
    ///
    /// - Throws: ``JSONError`` with code ``JSONError/Code/invalidValue`` if `json` holds a NaN or infinite
    ///   number; its ``JSONError/path`` says where.
    public func string(_ json: JSON) throws(JSONError) -> String {
        String(decoding: try bytes(json), as: UTF8.self)
    }

    /// An array or object being written: its values, its keys if it is an object, the order to visit them
    /// in when the keys are sorted, and how many have been started.
    private struct Frame {
        var values: [JSON]
        var keys: [String]?
        var order: [Int]?
        var next: Int

        /// The position in `values` of the member or element started last.
        var current: Int { order?[next - 1] ?? next - 1 }
    }

    /// Appends the JSON text of `json` to `bytes`, as a value nested `depth` levels deep (for the indentation of
    /// pretty-printed text).
    func write(_ json: JSON, into bytes: inout [UInt8], depth baseDepth: Int = 0) throws(JSONError) {
        let pretty = options.contains(.prettyPrinted)
        let sorted = options.contains(.sortedKeys)
        let escapesSlashes = !options.contains(.withoutEscapingSlashes)
        let indent = max(0, indentWidth)
        var stack: [Frame] = []
        var value = json

        func newline(depth: Int, into bytes: inout [UInt8]) {
            guard pretty else { return }
            bytes.append(UInt8(ascii: "\n"))
            bytes.append(contentsOf: repeatElement(UInt8(ascii: " "), count: (baseDepth + depth) * indent))
        }

        func member(_ key: String, into bytes: inout [UInt8]) {
            Self.appendString(key, escapingSlashes: escapesSlashes, to: &bytes)
            bytes.append(UInt8(ascii: ":"))
            if pretty { bytes.append(UInt8(ascii: " ")) }
        }

        while true {
            // Write `value`. A non-empty container is opened, pushed, and its first child becomes `value`.
            switch value {
            case .null:
                bytes.append(contentsOf: Self.nullBytes)
            case .bool(let b):
                bytes.append(contentsOf: b ? Self.trueBytes : Self.falseBytes)
            case .number(let number):
                try appendNumber(number, to: &bytes, path: { Self.path(of: stack) })
            case .string(let string):
                Self.appendString(string, escapingSlashes: escapesSlashes, to: &bytes)
            case .array(let array):
                guard let first = array.first else {
                    bytes.append(UInt8(ascii: "["))
                    bytes.append(UInt8(ascii: "]"))
                    break
                }
                bytes.append(UInt8(ascii: "["))
                stack.append(Frame(values: array, keys: nil, order: nil, next: 1))
                newline(depth: stack.count, into: &bytes)
                value = first
                continue
            case .object(let object):
                guard !object.isEmpty else {
                    bytes.append(UInt8(ascii: "{"))
                    bytes.append(UInt8(ascii: "}"))
                    break
                }
                let order = sorted ? Self.sortedOrder(of: object.keys) : nil
                let first = order?[0] ?? 0
                bytes.append(UInt8(ascii: "{"))
                stack.append(Frame(values: object.values, keys: object.keys, order: order, next: 1))
                newline(depth: stack.count, into: &bytes)
                member(object.keys[first], into: &bytes)
                value = object.values[first]
                continue
            }

            // `value` is complete: start its next sibling, closing every container that has none left.
            while true {
                let last = stack.count - 1
                guard last >= 0 else { return }
                if stack[last].next < stack[last].values.count {
                    stack[last].next += 1
                    let position = stack[last].current
                    bytes.append(UInt8(ascii: ","))
                    newline(depth: stack.count, into: &bytes)
                    if let keys = stack[last].keys { member(keys[position], into: &bytes) }
                    value = stack[last].values[position]
                    break
                }
                let isObject = stack.removeLast().keys != nil
                newline(depth: stack.count, into: &bytes)
                bytes.append(isObject ? UInt8(ascii: "}") : UInt8(ascii: "]"))
            }
        }
    }

    private static let nullBytes: [UInt8] = Array("null".utf8)
    private static let trueBytes: [UInt8] = Array("true".utf8)
    private static let falseBytes: [UInt8] = Array("false".utf8)

    private func appendNumber(
        _ number: JSON.Number, to bytes: inout [UInt8], path: () -> [JSON.PathElement]
    ) throws(JSONError) {
        switch number.storage {
        case .int(let v):
            JSONNumberFormatter.append(v, to: &bytes)
        case .uint(let v):
            JSONNumberFormatter.append(v, to: &bytes)
        case .double(let d):
            if d.isFinite {
                JSONNumberFormatter.append(d, to: &bytes)
            } else if writesNonFiniteNumbers {
                bytes.append(contentsOf: (d.isNaN ? "NaN" : d < 0 ? "-Infinity" : "Infinity").utf8)
            } else {
                let name = d.isNaN ? "NaN" : d < 0 ? "negative infinity" : "infinity"
                throw JSONError(.invalidValue, "\(name) cannot be written as a JSON number", path: path())
            }
        case .text(let text):
            bytes.append(contentsOf: text.utf8)
        }
    }

    /// The path to the value being written, from the frames of the containers around it.
    private static func path(of stack: [Frame]) -> [JSON.PathElement] {
        stack.map { frame in
            let position = frame.current
            if let keys = frame.keys { return .key(keys[position]) }
            return .index(position)
        }
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
