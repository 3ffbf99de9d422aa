extension LossyArray: Decodable {
    /// Decodes every element of an array that can be decoded, and records a ``Failure`` for each that can't.
    ///
    /// - Throws: Only when the value itself is not an array (the decoder's `typeMismatch` or `valueNotFound`), or
    ///   when the decoder cannot move past a bad element (then the element's own error).
    public init(from decoder: any Decoder) throws {
        var container = try decoder.unkeyedContainer()
        var elements: [Element] = []
        var failures: [Failure] = []
        if let count = container.count {
            elements.reserveCapacity(count)
        }
        while !container.isAtEnd {
            let index = container.currentIndex
            do {
                elements.append(try container.decode(Element.self))
            } catch {
                let elementPath = container.codingPath + [LossyIndexKey(index)]
                failures.append(Failure(index: index, codingPath: elementPath, error: error))
                try container.skipElement(at: index, after: error)
            }
        }
        self.init(elements, failures: failures)
    }
}

extension LossyArray: Encodable where Element: Encodable {
    /// Encodes ``elements`` as a plain array; the failures are not encoded.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(elements)
    }
}

extension UnkeyedDecodingContainer {
    /// Moves past the element at `index` after its decoding failed.
    ///
    /// Unkeyed containers (Foundation's among them) advance only when a decode succeeds, so this decodes a type
    /// that accepts any value. If the container still cannot move on, `error` is rethrown rather than looping.
    fileprivate mutating func skipElement(at index: Int, after error: any Error) throws {
        if currentIndex == index, (try? decodeNil()) != true {
            _ = try? decode(SkippedValue.self)
        }
        guard currentIndex > index else { throw error }
    }
}

/// A value that decodes from anything, to step an unkeyed container past a bad element.
private struct SkippedValue: Decodable {
    init(from decoder: any Decoder) throws {}
}

/// The coding key of an array element, spelled as Foundation spells it (`Index 3`).
struct LossyIndexKey: CodingKey {
    let intValue: Int?
    let stringValue: String

    init(_ index: Int) {
        intValue = index
        stringValue = "Index \(index)"
    }

    init?(intValue: Int) { self.init(intValue) }

    init?(stringValue: String) { nil }
}
