import Foundation
import Testing

@testable import TetherJSON

/// `encodeEach` writes many values with one encoder state into one buffer: each value's text must be exactly what
/// `encode(_:)` makes of it alone, whatever the value before it did (fell back to the tree, or threw).
struct EncodeEachTests {
    /// A value of one of several shapes, so that one batch holds plain values, values the byte encoder cannot write
    /// in place, values that throw, and scalars.
    enum Sample: Encodable {
        case item(id: Int, name: String, price: Double, tags: [String])
        /// Fills a container after a sibling was started: written through the tree.
        case outOfOrder(Int)
        /// A non-finite number, which the default strategy refuses: the encode throws halfway through an object.
        case failing
        case text(String)

        func encode(to encoder: any Encoder) throws {
            switch self {
            case .item(let id, let name, let price, let tags):
                var container = encoder.container(keyedBy: JSONCodingKey.self)
                try container.encode(id, forKey: JSONCodingKey(stringValue: "id"))
                try container.encode(name, forKey: JSONCodingKey(stringValue: "itemName"))
                try container.encode(price, forKey: JSONCodingKey(stringValue: "price"))
                try container.encode(tags, forKey: JSONCodingKey(stringValue: "tags"))
            case .outOfOrder(let n):
                var root = encoder.container(keyedBy: JSONCodingKey.self)
                var a = root.nestedContainer(keyedBy: JSONCodingKey.self, forKey: JSONCodingKey(stringValue: "a"))
                var b = root.nestedUnkeyedContainer(forKey: JSONCodingKey(stringValue: "b"))
                try b.encode(n)
                try a.encode(n + 1, forKey: JSONCodingKey(stringValue: "late"))
                try b.encode(n + 2)
            case .failing:
                var container = encoder.container(keyedBy: JSONCodingKey.self)
                try container.encode("before", forKey: JSONCodingKey(stringValue: "name"))
                var nested = container.nestedContainer(
                    keyedBy: JSONCodingKey.self, forKey: JSONCodingKey(stringValue: "n"))
                try nested.encode(Double.infinity, forKey: JSONCodingKey(stringValue: "value"))
            case .text(let text):
                var container = encoder.singleValueContainer()
                try container.encode(text)
            }
        }
    }

    static let samples: [Sample] = [
        .item(id: 1, name: "ノートパソコン \"15型\"", price: 89_800, tags: ["a", "b/c"]),
        .outOfOrder(10),
        .item(id: 2, name: "second", price: 0.5, tags: []),
        .failing,
        .item(id: 3, name: "after a failure", price: -1, tags: ["\u{1F600}"]),
        .text("plain \n text"),
        .failing,
        .outOfOrder(20),
        .item(id: 4, name: "last", price: 1e21, tags: ["x"]),
    ]

    @Test(arguments: [
        JSONWriter.Options(), .sortedKeys, .prettyPrinted, [.prettyPrinted, .sortedKeys], .withoutEscapingSlashes,
    ])
    func eachValuesTextIsWhatEncodingItAloneMakes(options: JSONWriter.Options) throws {
        var encoder = TetherJSONEncoder()
        encoder.outputFormatting = options
        let (bytes, ranges) = encoder.encodeEach(Self.samples)
        #expect(ranges.count == Self.samples.count)
        for (sample, range) in zip(Self.samples, ranges) {
            if case .failing = sample {
                #expect(range == nil)
                #expect(throws: EncodingError.self) { try encoder.encode(sample) }
                continue
            }
            let range = try #require(range)
            #expect(bytes[range] == (try encoder.encode(sample)), "\(sample)")
        }
        // The values lie one after another, nothing between them.
        let present = ranges.compactMap { $0 }
        #expect(present.first?.lowerBound == 0)
        #expect(present.last?.upperBound == bytes.count)
        for (a, b) in zip(present, present.dropFirst()) { #expect(a.upperBound == b.lowerBound) }
    }

    @Test func nothingToEncodeGivesNoText() {
        let (bytes, ranges) = TetherJSONEncoder().encodeEach([Sample]())
        #expect(bytes.isEmpty)
        #expect(ranges.isEmpty)
    }

    @Test func aLargeBatchGrowsTheBufferAndKeepsEveryValue() throws {
        let items = (0..<2_000).map {
            Sample.item(id: $0, name: String(repeating: "名前", count: $0 % 50), price: Double($0), tags: ["t\($0)"])
        }
        let encoder = TetherJSONEncoder()
        let (bytes, ranges) = encoder.encodeEach(items)
        for (item, range) in zip(items, ranges) {
            #expect(bytes[try #require(range)] == (try encoder.encode(item)))
        }
    }
}
