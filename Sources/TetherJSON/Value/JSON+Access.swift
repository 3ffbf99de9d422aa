// Dynamic access that never crashes: a missing key, an index out of range or a value of another kind
// gives `nil`. Subscripts return `JSON?`, and `Optional<JSON>` has the same subscripts and accessors,
// so paths chain without `?`: `json["Items"][0]["Item"]["itemName"].string`.

extension JSON {
    /// The member named `key`, if this is an object that has it.
    public subscript(key: String) -> JSON? {
        guard case .object(let object) = self else { return nil }
        return object[key]
    }

    /// The element at `index`, if this is an array and the index is in range.
    public subscript(index: Int) -> JSON? {
        guard case .array(let array) = self, array.indices.contains(index) else { return nil }
        return array[index]
    }

    /// The string, if this is a string.
    public var string: String? {
        if case .string(let s) = self { return s }
        return nil
    }

    /// The Boolean, if this is `true` or `false`.
    public var bool: Bool? {
        if case .bool(let b) = self { return b }
        return nil
    }

    /// The number, if this is a number.
    public var number: Number? {
        if case .number(let n) = self { return n }
        return nil
    }

    /// The value as `Int`, if this is a number that is a whole value within range (`3` or `3.0`, not `3.5`).
    public var int: Int? { number?.int }

    /// The value as `Int64`, if this is a number that is a whole value within range.
    public var int64: Int64? { number?.int64 }

    /// The value as `UInt64`, if this is a number that is a non-negative whole value within range.
    public var uint64: UInt64? { number?.uint64 }

    /// The value as `Double`, if this is a number.
    public var double: Double? { number?.double }

    /// The elements, if this is an array.
    public var array: [JSON]? {
        if case .array(let a) = self { return a }
        return nil
    }

    /// The members, if this is an object.
    public var object: Object? {
        if case .object(let o) = self { return o }
        return nil
    }

    /// Whether this is `null`.
    public var isNull: Bool {
        if case .null = self { return true }
        return false
    }
}

extension Optional where Wrapped == JSON {
    /// The member named `key`, if there is a value, it is an object, and it has the key.
    public subscript(key: String) -> JSON? { self?[key] }
    /// The element at `index`, if there is a value, it is an array, and the index is in range.
    public subscript(index: Int) -> JSON? { self?[index] }
    /// The string, if there is a string here.
    public var string: String? { self?.string }
    /// The Boolean, if there is one here.
    public var bool: Bool? { self?.bool }
    /// The number, if there is one here.
    public var number: JSON.Number? { self?.number }
    /// The whole number as `Int`, if there is one here.
    public var int: Int? { self?.int }
    /// The whole number as `Int64`, if there is one here.
    public var int64: Int64? { self?.int64 }
    /// The whole number as `UInt64`, if there is one here.
    public var uint64: UInt64? { self?.uint64 }
    /// The number as `Double`, if there is one here.
    public var double: Double? { self?.double }
    /// The elements, if there is an array here.
    public var array: [JSON]? { self?.array }
    /// The members, if there is an object here.
    public var object: JSON.Object? { self?.object }
    /// Whether a value is present and is `null` (a missing value is not null).
    public var isNull: Bool { self?.isNull ?? false }
}

extension JSON {
    /// One step of an access path: an object key or an array index.
    ///
    /// Written as literals: `try json.value(at: "Items", 0, "Item")`.
    public enum PathElement: Sendable, Hashable, CustomStringConvertible, ExpressibleByStringLiteral,
        ExpressibleByIntegerLiteral
    {
        case key(String)
        case index(Int)

        public init(stringLiteral value: String) { self = .key(value) }
        public init(integerLiteral value: Int) { self = .index(value) }

        public var description: String {
            switch self {
            case .key(let k): k
            case .index(let i): "[\(i)]"
            }
        }

        /// A path as text, like `Items[0].Item.itemName`.
        static func describe(_ path: [PathElement]) -> String {
            var text = ""
            for element in path {
                switch element {
                case .key(let k): text += text.isEmpty ? k : "." + k
                case .index(let i): text += "[\(i)]"
                }
            }
            return text.isEmpty ? "the root" : text
        }
    }

    /// The value at `path`, or a ``JSONError`` saying where the path broke and what was there instead.
    ///
    /// - Throws: ``JSONError`` with code ``JSONError/Code/pathNotFound`` (a missing key or an index out of range)
    ///   or ``JSONError/Code/typeMismatch`` (a key asked of a non-object, an index of a non-array).
    public func value(at path: PathElement...) throws(JSONError) -> JSON {
        try value(at: path)
    }

    /// The value at `path`, or a ``JSONError`` saying where the path broke and what was there instead.
    public func value(at path: [PathElement]) throws(JSONError) -> JSON {
        var current = self
        for (depth, element) in path.enumerated() {
            let walked = Array(path[...depth])
            switch (element, current) {
            case (.key(let key), .object(let object)):
                guard let next = object[key] else {
                    throw JSONError(.pathNotFound, "no key \"\(key)\" in the object", path: walked)
                }
                current = next
            case (.index(let index), .array(let array)):
                guard array.indices.contains(index) else {
                    throw JSONError(
                        .pathNotFound, "index \(index) is out of range for an array of \(array.count)",
                        path: walked)
                }
                current = array[index]
            case (.key(let key), _):
                throw JSONError(
                    .typeMismatch, "expected an object to look up \"\(key)\", found \(current.summary)",
                    path: walked)
            case (.index(let index), _):
                throw JSONError(
                    .typeMismatch, "expected an array to take index \(index), found \(current.summary)",
                    path: walked)
            }
        }
        return current
    }

    /// The value at `path` converted to `type`, or a ``JSONError`` saying where the path broke or what the
    /// value was instead.
    ///
    /// Scalars (`String`, `Bool`, `Int`, `Int64`, `UInt64`, `Double`, `JSON`) convert directly, with the same
    /// rules as the accessors (`Int` takes whole numbers only); any other `Decodable` is decoded with a default
    /// ``TetherJSONDecoder``, whose `DecodingError` is reported as a ``JSONError/Code/typeMismatch``.
    public func value<T: Decodable>(at path: PathElement..., as type: T.Type) throws(JSONError) -> T {
        let found = try value(at: path)
        if let converted = found.scalar(as: type) { return converted }
        switch type {
        case is String.Type, is Bool.Type, is Int.Type, is Int64.Type, is UInt64.Type, is Double.Type:
            throw JSONError(.typeMismatch, "expected \(type), found \(found.summary)", path: path)
        default:
            do {
                return try TetherJSONDecoder().decode(type, from: found)
            } catch {
                throw JSONError(.typeMismatch, "cannot decode \(type): \(error)", path: path)
            }
        }
    }

    private func scalar<T>(as type: T.Type) -> T? {
        switch type {
        case is JSON.Type: self as? T
        case is String.Type: string as? T
        case is Bool.Type: bool as? T
        case is Int.Type: int as? T
        case is Int64.Type: int64 as? T
        case is UInt64.Type: uint64 as? T
        case is Double.Type: double as? T
        default: nil
        }
    }

    /// A short description of the value for error messages: its kind and, for scalars, the value.
    var summary: String {
        switch self {
        case .null: "null"
        case .bool(let b): "the Boolean \(b)"
        case .number(let n): "the number \(n)"
        case .string(let s): s.count > 40 ? "a string \"\(s.prefix(40))…\"" : "the string \"\(s)\""
        case .array(let a): "an array of \(a.count)"
        case .object(let o): "an object of \(o.count) members"
        }
    }
}
