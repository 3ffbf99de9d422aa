/// An array that keeps the elements that decode and records the ones that don't.
///
/// Decoding a JSON array into `[Element]` fails as a whole when one element is malformed, so one bad item costs
/// the whole page. `LossyArray` decodes each element on its own: the good ones become ``elements``, and each bad
/// one becomes a ``Failure`` in ``failures`` that says which element it was (its index in the original array),
/// where decoding stopped (the full coding path) and why. Nothing is dropped silently.
///
/// ```swift
/// import Foundation
/// import TetherJSON
///
/// struct Item: Decodable { var itemName: String; var itemPrice: Int }
/// struct SearchPage: Decodable {
///     var items: LossyArray<Item>
/// }
/// let data = Data(#"{"items": [{"itemName": "緑茶", "itemPrice": 3240}, {"itemName": "急須"}]}"#.utf8)
/// let page = try JSONDecoder().decode(SearchPage.self, from: data)
/// for item in page.items { print(item.itemName) }     // the elements that decoded
/// for failure in page.items.failures { print(failure) }  // "items[1].itemPrice: key not found: …"
/// ```
///
/// It works with any `Decoder` (Foundation's `JSONDecoder` and ``TetherJSONDecoder`` alike). Only the elements are
/// lossy; the array itself follows Codable's rules:
/// - A missing key is `DecodingError.keyNotFound`, as for `[Element]`. Declare the property as
///   `LossyArray<Element>?` to make it optional; then a missing key or `null` decodes as `nil`.
/// - A value that is not an array (an object, a string, `null` for a non-optional property) throws the decoder's
///   own error (`typeMismatch` or `valueNotFound`).
///
/// Equality and hashing compare ``elements`` only: ``failures`` are diagnostics about one decode, not part of the
/// value. Encoding writes ``elements`` as a plain array, so the elements that failed are not written back.
///
/// Use ``Lossy`` to get the same behaviour as a property wrapper over a plain `[Element]`.
public struct LossyArray<Element: Decodable> {
    /// The elements that decoded, in their original order.
    public var elements: [Element]

    /// One entry for each element that failed to decode, in their original order.
    public var failures: [Failure]

    /// Creates a lossy array from elements and, optionally, failures.
    public init(_ elements: [Element] = [], failures: [Failure] = []) {
        self.elements = elements
        self.failures = failures
    }
}

extension LossyArray: RandomAccessCollection {
    public typealias Index = Int

    /// The position of the first decoded element.
    public var startIndex: Int { elements.startIndex }

    /// The position one past the last decoded element.
    public var endIndex: Int { elements.endIndex }

    /// The decoded element at `position`.
    ///
    /// Positions count decoded elements only; a failure's ``Failure/index`` counts the original array.
    public subscript(position: Int) -> Element { elements[position] }
}

extension LossyArray: ExpressibleByArrayLiteral {
    /// Creates a lossy array with these elements and no failures.
    public init(arrayLiteral elements: Element...) {
        self.init(elements)
    }
}

extension LossyArray: Equatable where Element: Equatable {
    /// Whether both hold equal ``elements``; ``failures`` are not compared.
    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.elements == rhs.elements
    }
}

extension LossyArray: Hashable where Element: Hashable {
    /// Hashes ``elements``; ``failures`` are not hashed.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(elements)
    }
}

extension LossyArray: Sendable where Element: Sendable {}

extension LossyArray: CustomStringConvertible {
    /// The elements, followed by the number of failures when there are any.
    public var description: String {
        failures.isEmpty
            ? elements.description : "\(elements.description) (\(failures.count) failed)"
    }
}
