extension JSON {
    /// A JSON number, kept exactly.
    ///
    /// Integers that fit `Int64` or `UInt64` are held as integers, numbers written with a fraction or an
    /// exponent as `Double`, and integers that fit neither (or numbers beyond `Double`'s range, like `1e309`)
    /// keep their original text, so a 20-digit id survives a parse-and-write round trip unchanged.
    ///
    /// Equality is by value within a representation: `1` equals `1`, `1.0` equals `1.0`, but the integer `1`
    /// and the floating-point `1.0` differ, because a round trip keeps them apart.
    public struct Number: Sendable, Hashable, CustomStringConvertible {
        enum Storage: Sendable, Hashable {
            case int(Int64)
            case uint(UInt64)  // only values above Int64.max
            case double(Double)
            case text(String)  // an integer beyond 64 bits or a number beyond Double's range, as written
        }

        var storage: Storage

        init(storage: Storage) { self.storage = storage }

        /// Creates an integer number.
        public init(_ value: Int) { storage = .int(Int64(value)) }
        /// Creates an integer number.
        public init(_ value: Int64) { storage = .int(value) }
        /// Creates an integer number.
        public init(_ value: UInt64) {
            storage = value <= UInt64(Int64.max) ? .int(Int64(value)) : .uint(value)
        }
        /// Creates a floating-point number. A non-finite value can be held but not written as JSON.
        public init(_ value: Double) { storage = .double(value) }

        /// Creates a number from its JSON text, such as `"12345678901234567890123"` or `"-1.5e3"`.
        ///
        /// Returns `nil` unless the whole text is one valid JSON number.
        public init?(text: String) {
            var text = text
            guard let number = text.withUTF8({ JSONNumberParser.parseComplete($0) }) else { return nil }
            self = number
        }

        /// Whether the number was written as an integer (no fraction, no exponent).
        public var isInteger: Bool {
            switch storage {
            case .int, .uint: true
            case .double: false
            case .text(let t): !t.utf8.contains { $0 == UInt8(ascii: ".") || $0 | 0x20 == UInt8(ascii: "e") }
            }
        }

        /// The value as `Int64`, if it is an integer or a whole `Double` within range.
        public var int64: Int64? {
            switch storage {
            case .int(let v): v
            case .uint: nil
            case .double(let d): Int64(exactly: d)
            case .text: nil
            }
        }

        /// The value as `UInt64`, if it is a non-negative integer or whole `Double` within range.
        public var uint64: UInt64? {
            switch storage {
            case .int(let v): UInt64(exactly: v)
            case .uint(let v): v
            case .double(let d): UInt64(exactly: d)
            case .text: nil
            }
        }

        /// The value as `Int`, if it is an integer or a whole `Double` within range.
        public var int: Int? { int64.flatMap { Int(exactly: $0) } }

        /// The value as the nearest `Double` (large integers may lose precision).
        public var double: Double {
            switch storage {
            case .int(let v): Double(v)
            case .uint(let v): Double(v)
            case .double(let d): d
            case .text(let t): Double(t) ?? .nan
            }
        }

        /// The number as JSON text: integers exactly, doubles in the shortest form that reads back the same.
        public var description: String {
            switch storage {
            case .int(let v): String(v)
            case .uint(let v): String(v)
            case .double(let d): JSONNumberFormatter.text(for: d)
            case .text(let t): t
            }
        }
    }
}
