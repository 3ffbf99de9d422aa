/// A JSON value: null, a Boolean, a number, a string, an array or an object.
///
/// `JSON` is a plain value type: `Sendable`, `Hashable`, `Codable` and expressible by literals.
/// Numbers keep whether they were written as integers or with a fraction or exponent (see ``Number``);
/// objects keep their members in the order they were written (see ``Object``).
///
/// ```swift
/// import TetherJSON
///
/// let json = try JSON(parsing: #"{"Items": [{"Item": {"itemName": "緑茶", "itemPrice": 3240}}]}"#)
/// json["Items"][0]["Item"]["itemName"].string    // "緑茶"
/// json["Items"][0]["Item"]["missing"].string     // nil, never a crash
/// try json.value(at: "Items", 0, "Item", "itemPrice", as: Int.self)  // 3240
/// ```
public enum JSON: Sendable, Hashable {
    /// `null`.
    case null
    /// `true` or `false`.
    case bool(Bool)
    /// A number, kept exactly as parsed (see ``Number``).
    case number(Number)
    /// A string.
    case string(String)
    /// An array.
    case array([JSON])
    /// An object, with its members in order (see ``Object``).
    case object(Object)
}

extension JSON {
    /// The kind of a JSON value, for messages and quick switches.
    public enum Kind: String, Sendable, Hashable, CustomStringConvertible {
        case null, bool, number, string, array, object

        public var description: String { rawValue }
    }

    /// The kind of this value.
    public var kind: Kind {
        switch self {
        case .null: .null
        case .bool: .bool
        case .number: .number
        case .string: .string
        case .array: .array
        case .object: .object
        }
    }

    /// Creates a number value from an integer.
    public init(_ value: Int) { self = .number(Number(value)) }
    /// Creates a number value from a 64-bit integer.
    public init(_ value: Int64) { self = .number(Number(value)) }
    /// Creates a number value from an unsigned 64-bit integer.
    public init(_ value: UInt64) { self = .number(Number(value)) }
    /// Creates a number value from a `Double`.
    ///
    /// A non-finite value (NaN or an infinity) can be held, but writing it as JSON text throws.
    public init(_ value: Double) { self = .number(Number(value)) }
    /// Creates a string value.
    public init(_ value: String) { self = .string(value) }
    /// Creates a Boolean value.
    public init(_ value: Bool) { self = .bool(value) }
    /// Creates an array value.
    public init(_ value: [JSON]) { self = .array(value) }
    /// Creates an object value.
    public init(_ value: Object) { self = .object(value) }
}
