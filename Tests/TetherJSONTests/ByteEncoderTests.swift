import Foundation
import Testing
import TetherTestSupport

@testable import TetherJSON

/// The encoder writes bytes in place; these check it against the tree it replaced (``JSON`` written by
/// ``JSONWriter``) and against Foundation, including the container orders it cannot write in place.
@Suite(.timeLimit(.minutes(5)))
struct ByteEncoderTests {
    /// Encodes a ``JSON`` value through keyed and unkeyed containers, as a hand-written `encode(to:)` would.
    struct ViaContainers: Encodable {
        var json: JSON

        func encode(to encoder: any Encoder) throws {
            switch json {
            case .object(let object):
                var container = encoder.container(keyedBy: JSONCodingKey.self)
                for (key, value) in zip(object.keys, object.values) {
                    try container.encode(ViaContainers(json: value), forKey: JSONCodingKey(stringValue: key))
                }
            case .array(let elements):
                var container = encoder.unkeyedContainer()
                for element in elements { try container.encode(ViaContainers(json: element)) }
            case .null:
                var container = encoder.singleValueContainer()
                try container.encodeNil()
            case .bool(let b):
                var container = encoder.singleValueContainer()
                try container.encode(b)
            case .string(let s):
                var container = encoder.singleValueContainer()
                try container.encode(s)
            case .number(let n):
                var container = encoder.singleValueContainer()
                switch n.storage {
                case .int(let v): try container.encode(v)
                case .uint(let v): try container.encode(v)
                case .double(let d): try container.encode(d)
                case .text: try container.encode(n.double)
                }
            }
        }
    }

    static func randomJSON(_ rng: inout SeededRandom, depth: Int = 0) -> JSON {
        let kind = depth > 4 ? rng.next() % 5 : rng.next() % 7
        switch kind {
        case 0: return .null
        case 1: return .bool(rng.next() % 2 == 0)
        case 2: return .number(.init(Int64(bitPattern: rng.next()) >> (rng.next() % 64)))
        case 3:
            let d = Double(bitPattern: rng.next())
            return .number(.init(d.isFinite ? d : 0.5))
        case 4:
            let alphabet = Array("ab/\\\"\n\u{1}é緑 z".unicodeScalars)
            var s = String.UnicodeScalarView()
            for _ in 0..<rng.next() % 6 { s.append(alphabet[Int(rng.next() % UInt64(alphabet.count))]) }
            return .string(String(s))
        case 5:
            return .array((0..<rng.next() % 5).map { _ in randomJSON(&rng, depth: depth + 1) })
        default:
            var object = JSON.Object()
            let keys = ["b", "a", "ab", "Z", "é", "a/b", "", "k\n", "zz", "aa"]
            for _ in 0..<rng.next() % 6 {
                object[keys[Int(rng.next() % UInt64(keys.count))]] = randomJSON(&rng, depth: depth + 1)
            }
            return .object(object)
        }
    }

    @Test func randomValuesMatchTheWriterUnderEveryOption() throws {
        var rng = SeededRandom(seed: 0xE4C0)
        let allOptions: [JSONWriter.Options] = [
            [], [.prettyPrinted], [.sortedKeys], [.prettyPrinted, .sortedKeys], [.withoutEscapingSlashes],
            [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes],
        ]
        for _ in 0..<1500 {
            let json = Self.randomJSON(&rng)
            for options in allOptions {
                var encoder = TetherJSONEncoder()
                encoder.outputFormatting = options
                let expected = try JSONWriter(options: options).bytes(json)
                let viaContainers = try encoder.encodeToBytes(ViaContainers(json: json))
                #expect(
                    viaContainers == expected,
                    "\(json) with \(options.rawValue): \(String(decoding: viaContainers, as: UTF8.self))")
                #expect(try encoder.encodeToBytes(json) == expected)
            }
        }
    }

    /// Strings are checked and copied eight bytes at a time, with an overlapping last word: every length up to
    /// 40, with a byte to escape (or none) at every position, as a value and as a key, against the writer.
    @Test func stringsWithAnEscapeAtEveryPositionMatchTheWriter() throws {
        let specials: [Character?] = [nil, "\"", "\\", "/", "\n", "\u{1}", "\u{1F}", "é", "緑"]
        for options: JSONWriter.Options in [[], [.withoutEscapingSlashes]] {
            var encoder = TetherJSONEncoder()
            encoder.outputFormatting = options
            for length in 0...40 {
                for position in 0..<max(length, 1) {
                    for special in specials {
                        var characters = (0..<length).map { Character(UnicodeScalar(UInt8(97 + $0 % 26))) }
                        if let special, position < length { characters[position] = special }
                        let text = String(characters)
                        let json: JSON = .object(JSON.Object(keys: [text], values: [.string(text)]))
                        let expected = try JSONWriter(options: options).bytes(json)
                        #expect(
                            try encoder.encodeToBytes(ViaContainers(json: json)) == expected, "\(text.debugDescription)"
                        )
                    }
                }
            }
        }
    }

    /// A string with escapes is written in blocks of 4,096 bytes of input, into room for the worst case of each:
    /// escapes dense and sparse, around and across the blocks' edges, in strings of up to three blocks.
    @Test func longStringsWithManyEscapesMatchTheWriter() throws {
        var rng = SeededRandom(seed: 0x5EED)
        let specials: [String] = ["/", "\"", "\\", "\n", "\u{1}", "é", "緑", "https://example.com/a/b"]
        for options: JSONWriter.Options in [[], [.withoutEscapingSlashes]] {
            var encoder = TetherJSONEncoder()
            encoder.outputFormatting = options
            for length in [4095, 4096, 4097, 8191, 8193, 12_300] {
                for density in [1, 7, 300] {
                    var text = ""
                    while text.utf8.count < length {
                        if rng.next() % UInt64(density) == 0 {
                            text += specials[Int(rng.next() % UInt64(specials.count))]
                        } else {
                            text += "abcdefgh"
                        }
                    }
                    let json: JSON = .array([.string(text), .object(JSON.Object(keys: [text], values: [.null]))])
                    let expected = try JSONWriter(options: options).bytes(json)
                    let written = try encoder.encodeToBytes(ViaContainers(json: json))
                    #expect(written == expected, "length \(length), density \(density)")
                    #expect(try JSON(parsing: Data(written)) == json)
                }
            }
            // Nothing but escapes: six bytes out for each byte in, the worst case.
            let controls = String(repeating: "\u{1}", count: 9000)
            #expect(
                try encoder.encodeToBytes(ViaContainers(json: .string(controls)))
                    == JSONWriter(options: options).bytes(.string(controls)))
        }
    }

    @Test func nestedContainersFilledInOrderAndOutOfOrder() throws {
        struct InOrder: Encodable {
            func encode(to encoder: any Encoder) throws {
                var root = encoder.container(keyedBy: JSONCodingKey.self)
                var a = root.nestedContainer(keyedBy: JSONCodingKey.self, forKey: JSONCodingKey(stringValue: "a"))
                try a.encode(1, forKey: JSONCodingKey(stringValue: "x"))
                var list = root.nestedUnkeyedContainer(forKey: JSONCodingKey(stringValue: "list"))
                try list.encode(2)
                var inner = list.nestedUnkeyedContainer()
                try inner.encode(3)
                try list.encode(4)
                try root.encode("end", forKey: JSONCodingKey(stringValue: "z"))
            }
        }
        #expect(
            String(decoding: try TetherJSONEncoder().encode(InOrder()), as: UTF8.self)
                == #"{"a":{"x":1},"list":[2,[3],4],"z":"end"}"#)

        struct OutOfOrder: Encodable {
            func encode(to encoder: any Encoder) throws {
                var root = encoder.container(keyedBy: JSONCodingKey.self)
                var a = root.nestedContainer(keyedBy: JSONCodingKey.self, forKey: JSONCodingKey(stringValue: "a"))
                var b = root.nestedUnkeyedContainer(forKey: JSONCodingKey(stringValue: "b"))
                try b.encode(1)
                try a.encode(2, forKey: JSONCodingKey(stringValue: "late"))
                try root.encode(3, forKey: JSONCodingKey(stringValue: "c"))
                try b.encode(4)
            }
        }
        let foundation = JSONEncoder()
        foundation.outputFormatting = .sortedKeys
        var ours = TetherJSONEncoder()
        ours.outputFormatting = .sortedKeys
        #expect(try ours.encode(OutOfOrder()) == foundation.encode(OutOfOrder()))
        #expect(
            String(decoding: try ours.encode(OutOfOrder()), as: UTF8.self) == #"{"a":{"late":2},"b":[1,4],"c":3}"#)
    }

    @Test func aSubclassAndItsSuperclassShareOneEncoder() throws {
        class Animal: Encodable {
            var name = "Rex"
            private enum CodingKeys: String, CodingKey { case name }
            func encode(to encoder: any Encoder) throws {
                var container = encoder.container(keyedBy: CodingKeys.self)
                try container.encode(name, forKey: .name)
            }
        }
        final class Dog: Animal {
            var barks = true
            private enum CodingKeys: String, CodingKey { case barks }
            override func encode(to encoder: any Encoder) throws {
                try super.encode(to: encoder)
                var container = encoder.container(keyedBy: CodingKeys.self)
                try container.encode(barks, forKey: .barks)
            }
        }
        #expect(
            String(decoding: try TetherJSONEncoder().encode([Dog()]), as: UTF8.self)
                == #"[{"name":"Rex","barks":true}]"#)
    }

    @Test func valuesThatEncodeNothingAreEmptyObjectsInText() throws {
        struct Nothing: Encodable { func encode(to encoder: any Encoder) throws {} }
        struct Holder: Encodable {
            var a = Nothing()
            var b = [Nothing(), Nothing()]
            var c = 1
        }
        #expect(String(decoding: try TetherJSONEncoder().encode(Nothing()), as: UTF8.self) == "{}")
        #expect(
            String(decoding: try TetherJSONEncoder().encode(Holder()), as: UTF8.self) == #"{"a":{},"b":[{},{}],"c":1}"#)
        var pretty = TetherJSONEncoder()
        pretty.outputFormatting = [.prettyPrinted]
        #expect(
            String(decoding: try pretty.encode(Holder()), as: UTF8.self)
                == "{\n  \"a\": {},\n  \"b\": [\n    {},\n    {}\n  ],\n  \"c\": 1\n}")
    }

    @Test func codingPathsAreKeptWithoutBeingBuilt() throws {
        struct Probe: Encodable {
            var expected: [String]
            func encode(to encoder: any Encoder) throws {
                #expect(encoder.codingPath.map(\.stringValue) == expected)
                var container = encoder.singleValueContainer()
                try container.encode(expected.count)
            }
        }
        struct Outer: Encodable {
            var list = [Probe(expected: ["list", "Index 0"]), Probe(expected: ["list", "Index 1"])]
            var map = ["k": Probe(expected: ["map", "k"])]
            var one = Probe(expected: ["one"])
        }
        #expect(
            String(decoding: try TetherJSONEncoder().encode(Outer()), as: UTF8.self)
                == #"{"list":[2,2],"map":{"k":2},"one":1}"#)
        #expect(throws: EncodingError.self) {
            try TetherJSONEncoder().encode(["a": ["b": [1.0, 2.0, Double.infinity]]])
        }
        do {
            _ = try TetherJSONEncoder().encode(["a": ["b": [1.0, 2.0, Double.infinity]]])
        } catch EncodingError.invalidValue(_, let context) {
            #expect(context.codingPath.map(\.stringValue) == ["a", "b", "Index 2"])
        }
    }

    @Test func deepNestingIsWritten() throws {
        var json: JSON = 1
        // Codable recursion is on the stack: as deep as a test thread's stack allows in debug builds.
        for _ in 0..<200 { json = ["a": [json]] }
        let bytes = try TetherJSONEncoder().encodeToBytes(ViaContainers(json: json))
        #expect(bytes == (try JSONWriter().bytes(json)))
    }
}
