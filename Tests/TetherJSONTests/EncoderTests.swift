import Foundation
import Testing

@testable import TetherJSON

@Suite struct EncoderTests {
    // MARK: Models

    struct Shop: Codable, Equatable {
        var shopName: String
        var shopURL: URL
        var rating: Double
        var itemCount: Int
        var isOpen: Bool
        var tags: [String]
        var owner: Person?
        var manager: Person?
        var prices: [String: Int]
        var kind: Kind
        var scores: [Float]
        var smallNumbers: [Int8]
        var big: UInt64
    }

    struct Person: Codable, Equatable {
        var firstName: String
        var userID: Int
    }

    enum Kind: String, Codable {
        case online, offline
    }

    static let shop = Shop(
        shopName: "緑茶/Shop \"Kyoto\"\n", shopURL: URL(string: "https://example.com/shop?id=1&x=%20")!,
        rating: 4.56, itemCount: 3240, isOpen: true, tags: ["tea", "green", ""],
        owner: Person(firstName: "Émile", userID: -7), manager: nil, prices: ["b": 2, "a": 1, "c": -3],
        kind: .online, scores: [0.1, 2.5, -1e-3], smallNumbers: [-128, 127], big: UInt64.max)

    class Base: Encodable {
        var baseValue = 1
        private enum CodingKeys: String, CodingKey { case baseValue }
        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(baseValue, forKey: .baseValue)
        }
    }

    final class Derived: Base {
        var derivedValue = "two"
        private enum CodingKeys: String, CodingKey { case derivedValue }
        override func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(derivedValue, forKey: .derivedValue)
            try super.encode(to: container.superEncoder())
        }
    }

    /// Encodes the given keys with the values 1, 2, 3…, to check key conversion.
    struct DynamicKeys: Encodable {
        var keys: [String]
        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: JSONCodingKey.self)
            for (n, key) in keys.enumerated() { try container.encode(n + 1, forKey: JSONCodingKey(stringValue: key)) }
        }
    }

    private func foundationText(_ value: some Encodable, _ configure: (JSONEncoder) -> Void = { _ in }) throws
        -> String
    {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        configure(encoder)
        return String(decoding: try encoder.encode(value), as: UTF8.self)
    }

    private func tetherText(_ value: some Encodable, _ configure: (inout TetherJSONEncoder) -> Void = { _ in })
        throws -> String
    {
        var encoder = TetherJSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        configure(&encoder)
        return String(decoding: try encoder.encode(value), as: UTF8.self)
    }

    // MARK: Against Foundation

    @Test func matchesFoundationForAStruct() throws {
        #expect(try tetherText(Self.shop) == foundationText(Self.shop))
    }

    @Test func matchesFoundationWithSnakeCaseKeys() throws {
        let ours = try tetherText(Self.shop) { $0.keyEncodingStrategy = .convertToSnakeCase }
        let theirs = try foundationText(Self.shop) { $0.keyEncodingStrategy = .convertToSnakeCase }
        #expect(ours == theirs)
        #expect(ours.contains(#""shop_url":"#))
    }

    @Test func matchesFoundationForArraysOfStructsAndClassInheritance() throws {
        let people = [Person(firstName: "a", userID: 1), Person(firstName: "b/c", userID: 2)]
        #expect(try tetherText(people) == foundationText(people))
        #expect(try tetherText(Derived()) == foundationText(Derived()))
        #expect(try tetherText(Derived()) == #"{"derivedValue":"two","super":{"baseValue":1}}"#)
    }

    @Test func matchesFoundationForTopLevelScalarsAndOptionals() throws {
        #expect(try tetherText(5) == foundationText(5))
        #expect(try tetherText("a/b") == foundationText("a/b"))
        #expect(try tetherText(Int?.none) == foundationText(Int?.none))
        #expect(try tetherText([1, nil, 3] as [Int?]) == foundationText([1, nil, 3] as [Int?]))
        #expect(try tetherText(true) == "true")
    }

    @Test func matchesFoundationForDataAndDecimal() throws {
        let data = Data([0, 1, 2, 250, 255])
        #expect(try tetherText(data) == foundationText(data))
        #expect(try tetherText(data) { $0.dataEncodingStrategy = .deferredToData } == "[0,1,2,250,255]")
        let decimals = [Decimal(string: "3.25")!, Decimal(string: "12345678901234567890123")!, Decimal(-7)]
        #expect(try tetherText(decimals) == foundationText(decimals))
    }

    @Test func snakeCaseFollowsFoundationsRule() throws {
        #expect(TetherJSONEncoder.KeyEncodingStrategy.snakeCase("myURLValue") == "my_url_value")
        let keys = [
            "myURLValue", "URL", "aB", "userID", "HTTPResponseCode", "already_snake", "_leading", "trailingX",
            "ÉmileZola", "x", "", "a1B2", "ǅungla", "myⅧValue", "ABc", "aBC", "oneTwoThree", "__aB__", "a Bc",
        ]
        for key in keys {
            let ours = try tetherText(DynamicKeys(keys: [key])) { $0.keyEncodingStrategy = .convertToSnakeCase }
            let theirs = try foundationText(DynamicKeys(keys: [key])) { $0.keyEncodingStrategy = .convertToSnakeCase }
            #expect(ours == theirs, "key \(key)")
        }
    }

    // MARK: Strategies

    @Test func customKeyStrategySeesTheWholePath() throws {
        struct Outer: Encodable { var inner: Person }
        let json = try TetherJSONEncoder.with {
            $0.keyEncodingStrategy = .custom { path in
                let names = path.map(\.stringValue).joined(separator: ".")
                return JSONCodingKey(stringValue: names.uppercased())
            }
        }.encodeToJSON(Outer(inner: Person(firstName: "x", userID: 1)))
        #expect(json == ["INNER": ["INNER.FIRSTNAME": "x", "INNER.USERID": 1]])
    }

    @Test func nonConformingFloatsThrowWithTheCodingPath() throws {
        struct Series: Encodable { var values: [Double] }
        #expect {
            try TetherJSONEncoder().encode(Series(values: [1, .nan]))
        } throws: { error in
            guard case EncodingError.invalidValue(let value, let context) = error else { return false }
            return (value as? Double)?.isNaN == true && context.codingPath.map(\.stringValue) == ["values", "Index 1"]
                && context.codingPath.last?.intValue == 1
        }
        #expect(throws: EncodingError.self) { try TetherJSONEncoder().encode(Float.infinity) }
        #expect(throws: EncodingError.self) { try TetherJSONEncoder().encode(["a": -Double.infinity]) }
    }

    @Test func nonConformingFloatsConvertToStrings() throws {
        let text = try tetherText([Double.nan, .infinity, -.infinity, 1.5]) {
            $0.nonConformingFloatEncodingStrategy = .convertToString(
                positiveInfinity: "+Inf", negativeInfinity: "-Inf", nan: "NaN")
        }
        #expect(text == #"["NaN","+Inf","-Inf",1.5]"#)
        let floats = try tetherText([Float.nan]) {
            $0.nonConformingFloatEncodingStrategy = .convertToString(
                positiveInfinity: "", negativeInfinity: "", nan: "n")
        }
        #expect(floats == #"["n"]"#)
    }

    @Test func nonFiniteNumbersInsideJSONBecomeEncodingErrors() {
        struct Wrapper: Encodable { var payload: JSON }
        #expect {
            try TetherJSONEncoder().encode(Wrapper(payload: ["x": [.number(.init(Double.nan))]]))
        } throws: { error in
            guard case EncodingError.invalidValue(_, let context) = error else { return false }
            return context.codingPath.map(\.stringValue) == ["payload", "x", "Index 0"]
        }
    }

    @Test func dataStrategies() throws {
        let data = Data("hi!".utf8)
        #expect(try tetherText(["d": data]) == #"{"d":"aGkh"}"#)
        #expect(try tetherText(["d": data]) { $0.dataEncodingStrategy = .deferredToData } == #"{"d":[104,105,33]}"#)
        let custom = try tetherText(["d": data]) {
            $0.dataEncodingStrategy = .custom { data, encoder in
                var container = encoder.singleValueContainer()
                try container.encode(data.map { String($0, radix: 16) }.joined())
            }
        }
        #expect(custom == #"{"d":"686921"}"#)
        let nothing = try tetherText(["d": data]) { $0.dataEncodingStrategy = .custom { _, _ in } }
        #expect(nothing == #"{"d":{}}"#)
    }

    @Test func userInfoReachesEncodeTo() throws {
        struct Reader: Encodable {
            static let key = CodingUserInfoKey(rawValue: "tether.test")!
            func encode(to encoder: any Encoder) throws {
                var container = encoder.singleValueContainer()
                try container.encode(encoder.userInfo[Self.key] as? String ?? "missing")
            }
        }
        var encoder = TetherJSONEncoder()
        encoder.userInfo[Reader.key] = "found"
        #expect(try encoder.encodeToJSON([Reader()]) == ["found"])
    }

    @Test func outputFormatting() throws {
        let value = ["b": [1, 2], "a": []]
        #expect(
            try tetherText(value) { $0.outputFormatting = [.prettyPrinted, .sortedKeys] } == """
                {
                  "a": [],
                  "b": [
                    1,
                    2
                  ]
                }
                """)
        #expect(try tetherText(["u": "a/b"]) { $0.outputFormatting = [.withoutEscapingSlashes] } == #"{"u":"a/b"}"#)
    }

    // MARK: Special values

    @Test func jsonValuesAreCopiedExactly() throws {
        struct Envelope: Encodable {
            var id: Int
            var extra: JSON
        }
        let extra = try JSON(parsing: #"{"z":12345678901234567890123,"a":[1.0,-0.0,null],"m":"x"}"#)
        let text = try TetherJSONEncoder().encode(Envelope(id: 1, extra: extra))
        #expect(
            String(decoding: text, as: UTF8.self)
                == #"{"id":1,"extra":{"z":12345678901234567890123,"a":[1.0,-0.0,null],"m":"x"}}"#)
        #expect(try TetherJSONEncoder().encodeToJSON(extra) == extra)
    }

    @Test func scalarsEncodeToTheirJSON() throws {
        let encoder = TetherJSONEncoder()
        #expect(try encoder.encodeToJSON(Float(0.1)).double == 0.1)
        #expect(try encoder.encodeToJSON(3.0).number?.isInteger == false)
        #expect(try encoder.encodeToJSON(UInt64.max) == .number(.init(UInt64.max)))
        #expect(try encoder.encodeToJSON(Int8(-5)) == -5)
        #expect(try encoder.encodeToJSON(URL(string: "file:///tmp/a%20b")!) == "file:///tmp/a%20b")
        #expect(try encoder.encodeToJSON(Decimal(string: "-0.125")!) == .number(.init(-0.125)))
        #expect(
            try encoder.encodeToJSON(Decimal(string: "98765432109876543210")!).number?.description
                == "98765432109876543210")
        #expect(try encoder.encodeToBytes([Int]()) == Array("[]".utf8))
    }

    @Test func repeatedKeysKeepTheLastValueAtTheFirstPosition() throws {
        struct Twice: Encodable {
            func encode(to encoder: any Encoder) throws {
                var container = encoder.container(keyedBy: JSONCodingKey.self)
                try container.encode(1, forKey: JSONCodingKey(stringValue: "a"))
                try container.encode(2, forKey: JSONCodingKey(stringValue: "b"))
                try container.encode(3, forKey: JSONCodingKey(stringValue: "a"))
                var nested = container.nestedUnkeyedContainer(forKey: JSONCodingKey(stringValue: "list"))
                try nested.encode(1)
                var again = container.nestedUnkeyedContainer(forKey: JSONCodingKey(stringValue: "list"))
                try again.encode(2)
            }
        }
        #expect(try TetherJSONEncoder().encodeToJSON(Twice()) == ["a": 3, "b": 2, "list": [1, 2]])
    }

    @Test func valuesThatEncodeNothingBecomeEmptyObjects() throws {
        struct Nothing: Encodable { func encode(to encoder: any Encoder) throws {} }
        #expect(try TetherJSONEncoder().encodeToJSON(Nothing()) == [:])
        #expect(try TetherJSONEncoder().encodeToJSON([Nothing()]) == [[:]])
    }

    @Test func nestedContainersAndSuperEncodersInArrays() throws {
        struct Manual: Encodable {
            func encode(to encoder: any Encoder) throws {
                var list = encoder.unkeyedContainer()
                var object = list.nestedContainer(keyedBy: JSONCodingKey.self)
                try object.encode("v", forKey: JSONCodingKey(stringValue: "k"))
                var inner = list.nestedUnkeyedContainer()
                try inner.encode(true)
                let sup = list.superEncoder()
                var single = sup.singleValueContainer()
                try single.encode("super")
                #expect(sup.codingPath.last?.intValue == 2)
                try list.encodeNil()
            }
        }
        #expect(try TetherJSONEncoder().encodeToJSON(Manual()) == [["k": "v"], [true], "super", nil])
    }

    // MARK: JSON: Codable through other coders

    @Test func jsonRoundTripsThroughFoundationsCoders() throws {
        let json = try JSON(parsing: #"{"a":[1,-2,2.5,true,null,"x/y"],"b":{"c":{}},"d":18446744073709551615,"e":[]}"#)
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let data = try encoder.encode(json)
        #expect(String(decoding: data, as: UTF8.self) == (try json.text(.sortedKeys)))
        let decoded = try JSONDecoder().decode(JSON.self, from: data)
        // Foundation's decoder does not promise member order, so compare with sorted keys.
        #expect(try decoded.text(.sortedKeys) == json.text(.sortedKeys))
    }

    @Test func bigIntegersGoThroughFoundationAsDecimals() throws {
        let json = try JSON(parsing: "[12345678901234567890123]")
        #expect(String(decoding: try JSONEncoder().encode(json), as: UTF8.self) == "[12345678901234567890123]")
    }
}

extension TetherJSONEncoder {
    /// An encoder configured by `configure`, for tests.
    fileprivate static func with(_ configure: (inout TetherJSONEncoder) -> Void) -> TetherJSONEncoder {
        var encoder = TetherJSONEncoder()
        configure(&encoder)
        return encoder
    }
}
