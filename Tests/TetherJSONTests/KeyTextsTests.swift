import Foundation
import Testing

@testable import TetherJSON

/// The keyed containers take a key's text from `KeyTexts` (by the key's one-byte value) instead of asking for its
/// `stringValue` on every member; these check that the texts are the keys' and that other keys still work.
@Suite(.timeLimit(.minutes(5)))
struct KeyTextsTests {
    private enum Small: String, CodingKey { case a, b, c }
    private enum Single: String, CodingKey { case only }
    private struct Named: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }
    /// A one-byte key that is not an enum: its text is made from its byte.
    private struct ByteKey: CodingKey {
        let byte: UInt8
        init(_ byte: UInt8) { self.byte = byte }
        var stringValue: String { "k\(byte)" }
        var intValue: Int? { nil }
        init?(stringValue: String) {
            guard stringValue.hasPrefix("k"), let byte = UInt8(stringValue.dropFirst()) else { return nil }
            self.byte = byte
        }
        init?(intValue: Int) { nil }
    }

    @Test func oneByteKeysAreIndexedByTheirValue() {
        #expect(KeyTexts.index(of: Small.a) == 0)
        #expect(KeyTexts.index(of: Small.c) == 2)
        #expect(KeyTexts.index(of: Single.only) == 0)
        #expect(KeyTexts.index(of: ByteKey(200)) == 200)
        #expect(KeyTexts.index(of: Named(stringValue: "x")) == nil)
        #expect(KeyTexts.index(of: AnyStringKey("x")) == nil)
    }

    @Test func eachTextIsMadeOnceAndKeptAsTheTableGrows() {
        let texts = KeyTexts()
        defer { texts.deallocate() }
        var made = 0
        func text(_ index: Int) -> [UInt8] {
            let result = texts.text(at: index) {
                made += 1
                return (Array("key number \(index) of the table".utf8), UInt64(index))
            }
            #expect(result.hash == UInt64(index))
            return Array(UnsafeRawBufferPointer(start: result.bytes, count: result.count))
        }
        // Past the first 16 entries and the first 256 bytes of text, then every one again.
        for index in [0, 3, 40, 255, 17, 1] + Array(100..<120) {
            #expect(text(index) == Array("key number \(index) of the table".utf8))
        }
        let count = made
        for index in [0, 3, 40, 255, 17, 1] + Array(100..<120) {
            #expect(text(index) == Array("key number \(index) of the table".utf8))
        }
        #expect(made == count)
        let empty = texts.text(at: 2) { ([], 9) }
        #expect(empty.count == 0)
        #expect(empty.hash == 9)
    }

    /// Keys that need escaping, and keys that differ only past their first eight bytes.
    private struct Odd: Codable, Equatable {
        var slash: Int
        var quote: String
        var longKeyNumberOne: Int
        var longKeyNumberTwo: Int
        var empty: Bool

        enum CodingKeys: String, CodingKey {
            case slash = "a/b"
            case quote = "say \"hi\""
            case longKeyNumberOne = "a_rather_long_key_number_one"
            case longKeyNumberTwo = "a_rather_long_key_number_two"
            case empty = ""
        }
    }

    @Test func keysThatNeedEscapingAreWrittenAsFoundationWritesThem() throws {
        let values = (0..<3).map {
            Odd(slash: $0, quote: "q\($0)", longKeyNumberOne: 10 + $0, longKeyNumberTwo: 20 + $0, empty: $0 == 1)
        }
        let formattings: [(JSONEncoder.OutputFormatting, JSONWriter.Options)] = [
            (.sortedKeys, .sortedKeys),
            ([.sortedKeys, .withoutEscapingSlashes], [.sortedKeys, .withoutEscapingSlashes]),
        ]
        for (formatting, options) in formattings {
            let foundation = JSONEncoder()
            foundation.outputFormatting = formatting
            var tether = TetherJSONEncoder()
            tether.outputFormatting = options
            let written = try tether.encode(values)
            #expect(
                String(decoding: written, as: UTF8.self)
                    == String(decoding: try foundation.encode(values), as: UTF8.self), "\(formatting)")
            #expect(try TetherJSONDecoder().decode([Odd].self, from: written) == values)
        }
    }

    @Test func keysSpelledWithEscapesInTheInputAreFound() throws {
        let text =
            #"[{"a\/b": 1, "say \"hi\"": "x", "a_rather_long_key_number_\u006fne": 2, "a_rather_long_key_number_two": 3, "": true}]"#
        let decoded = try TetherJSONDecoder().decode([Odd].self, from: Data(text.utf8))
        #expect(decoded == [Odd(slash: 1, quote: "x", longKeyNumberOne: 2, longKeyNumberTwo: 3, empty: true)])
        #expect(decoded == (try JSONDecoder().decode([Odd].self, from: Data(text.utf8))))
    }

    /// Reads and writes members named by one-byte keys that are not enum cases.
    private struct ByteKeyed: Codable, Equatable {
        var values: [UInt8: Int]

        init(values: [UInt8: Int]) { self.values = values }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: ByteKey.self)
            var values: [UInt8: Int] = [:]
            for byte in [UInt8(0), 1, 2, 7, 200] {
                if let value = try container.decodeIfPresent(Int.self, forKey: ByteKey(byte)) { values[byte] = value }
            }
            self.values = values
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: ByteKey.self)
            for byte in values.keys.sorted() { try container.encode(values[byte]!, forKey: ByteKey(byte)) }
        }
    }

    @Test func oneByteKeysThatAreNotEnumsReadAndWriteTheirOwnMembers() throws {
        let values = [
            ByteKeyed(values: [0: 1, 7: 2, 200: 3]), ByteKeyed(values: [1: 4, 2: 5]), ByteKeyed(values: [:]),
        ]
        let written = try TetherJSONEncoder().encode(values)
        // Members in the order written (Foundation's order is its dictionary's).
        #expect(
            String(decoding: written, as: UTF8.self)
                == #"[{"k0":1,"k7":2,"k200":3},{"k1":4,"k2":5},{}]"#)
        #expect(try TetherJSONDecoder().decode([ByteKeyed].self, from: written) == values)
    }

    /// Encodes `.a` twice: the second write must still be seen as a repeated key when the text comes from the table.
    private struct Repeats: Encodable {
        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: Small.self)
            try container.encode(1, forKey: .a)
            try container.encode(2, forKey: .b)
            try container.encode(3, forKey: .a)
        }
    }

    @Test func aKeyWrittenTwiceFromTheTableIsStillARepeatedKey() throws {
        let written = try TetherJSONEncoder().encode([Repeats(), Repeats()])
        let reference = try JSONEncoder().encode([Repeats(), Repeats()])
        // Parsed, a member written twice would look like the second write alone: count the key in the text too.
        let text = String(decoding: written, as: UTF8.self)
        #expect(text.components(separatedBy: #""a":"#).count - 1 == 2, "\(text)")
        #expect(
            try JSONSerialization.jsonObject(with: written) as? NSArray
                == JSONSerialization.jsonObject(with: reference) as? NSArray)
    }
}
