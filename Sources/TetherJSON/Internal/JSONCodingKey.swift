/// A coding key made at run time: an object key read from the data, or an array index.
///
/// Used where the keys are not known in advance: ``JSON``'s own `Codable` conformance, coding paths built by
/// the encoder and decoder, and converted keys (snake case, custom strategies).
struct JSONCodingKey: CodingKey, Sendable, Hashable {
    var stringValue: String
    var intValue: Int?

    /// The key for an object member.
    init(stringValue: String) {
        self.stringValue = stringValue
        self.intValue = nil
    }

    /// A key with an integer value, whose string value is the number.
    init(intValue: Int) {
        self.stringValue = String(intValue)
        self.intValue = intValue
    }

    /// The key for the element at `index` of an array, described as `Index 3` as Foundation does.
    init(_ index: Int) {
        self.stringValue = "Index \(index)"
        self.intValue = index
    }

    /// The key a `superEncoder()` or `superDecoder()` without a key uses.
    static let `super` = JSONCodingKey(stringValue: "super")
}
