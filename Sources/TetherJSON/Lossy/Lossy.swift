/// A property wrapper that decodes an array lossily: the elements that decode are kept, and `$property` lists
/// the ones that didn't.
///
/// ```swift
/// import Foundation
/// import TetherJSON
///
/// struct Item: Decodable { var itemName: String; var itemPrice: Int }
/// struct SearchPage: Decodable {
///     @Lossy var items: [Item]
/// }
/// let data = Data(#"{"items": [{"itemName": "緑茶", "itemPrice": 3240}, {"itemName": "急須"}]}"#.utf8)
/// let page = try TetherJSONDecoder().decode(SearchPage.self, from: data)
/// page.items        // [Item], the elements that decoded
/// page.$items       // [LossyArray<Item>.Failure], one per bad element
/// ```
///
/// It decodes exactly as ``LossyArray`` does, including Codable's rules for the array itself: a missing key is
/// `DecodingError.keyNotFound` and a value that is not an array is the decoder's `typeMismatch`. (For an optional
/// lossy array, declare a `LossyArray<Element>?` property instead.) Equality and hashing compare the elements only,
/// and encoding writes them as a plain array.
@propertyWrapper
public struct Lossy<Element: Decodable> {
    /// The elements that decoded.
    public var wrappedValue: [Element]

    /// One entry for each element that failed to decode. Assigning a new ``wrappedValue`` keeps them.
    public var failures: [LossyArray<Element>.Failure]

    /// The failures, as `$property`.
    public var projectedValue: [LossyArray<Element>.Failure] { failures }

    /// Wraps elements, with no failures.
    public init(wrappedValue: [Element]) {
        self.wrappedValue = wrappedValue
        self.failures = []
    }

    /// Wraps the elements and failures of a lossy array.
    public init(_ array: LossyArray<Element>) {
        self.wrappedValue = array.elements
        self.failures = array.failures
    }
}

extension Lossy: Decodable {
    /// Decodes as ``LossyArray/init(from:)`` does.
    public init(from decoder: any Decoder) throws {
        self.init(try LossyArray<Element>(from: decoder))
    }
}

extension Lossy: Encodable where Element: Encodable {
    /// Encodes the elements as a plain array.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(wrappedValue)
    }
}

extension Lossy: Equatable where Element: Equatable {
    /// Whether both wrap equal elements; failures are not compared.
    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.wrappedValue == rhs.wrappedValue
    }
}

extension Lossy: Hashable where Element: Hashable {
    /// Hashes the elements; failures are not hashed.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(wrappedValue)
    }
}

extension Lossy: Sendable where Element: Sendable {}
