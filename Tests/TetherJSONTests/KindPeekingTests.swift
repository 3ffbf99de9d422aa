import Foundation
import Testing
import TetherJSON
import TetherTestSupport

/// `JSON.Kind(peekingAt:)`: the kind of the value a decoder is at, from TetherJSONDecoder; `nil` from any other.
@Suite struct KindPeekingTests {
    /// Records the kind its decoder and its single-value container report, then decodes nothing.
    struct Peek: Decodable {
        var fromDecoder: JSON.Kind?
        var fromContainer: JSON.Kind?

        init(from decoder: any Decoder) throws {
            fromDecoder = JSON.Kind(peekingAt: decoder)
            fromContainer = JSON.Kind(peekingAt: try decoder.singleValueContainer())
        }
    }

    @Test func tetherJSONDecoderTellsEachKind() throws {
        let cases: [(String, JSON.Kind)] = [
            ("null", .null), ("true", .bool), ("false", .bool), ("0", .number), ("-1.5e3", .number),
            ("18446744073709551615", .number), ("123456789012345678901234567890", .number), ("\"x\"", .string),
            ("[]", .array), ("[1]", .array), ("{}", .object), ("{\"a\":1}", .object),
        ]
        for (text, kind) in cases {
            let peek = try TetherJSONDecoder().decode(Peek.self, from: Data(text.utf8))
            #expect(peek.fromDecoder == kind, "\(text)")
            #expect(peek.fromContainer == kind, "\(text)")
            // Nested: each element's decoder reports its own value's kind.
            let nested = try TetherJSONDecoder().decode([Peek].self, from: Data("[\(text), 1]".utf8))
            #expect(nested.map(\.fromDecoder) == [kind, .number], "[\(text), 1]")
        }
    }

    @Test func otherDecodersTellNothing() throws {
        let peek = try JSONDecoder().decode(Peek.self, from: Data("{\"a\":1}".utf8))
        #expect(peek.fromDecoder == nil)
        #expect(peek.fromContainer == nil)
    }

    /// The lossy types pick the form to decode from the kind; what they accept and refuse stays the same with
    /// either decoder, also under a strategy that reads strings as numbers.
    @Test(arguments: TestDecoder.allCases)
    func flexibleValuesReadTheSameWithEitherDecoder(decoder: TestDecoder) throws {
        struct Row: Decodable, Equatable {
            @Flexible var int: Int
            @Flexible var double: Double
            @Flexible var string: String
            @Flexible var bool: Bool
        }
        let rows = try decoder.decode(
            [Row].self,
            from: """
                [{"int": 1, "double": 2, "string": 3, "bool": 1},
                 {"int": " 4 ", "double": "5.5", "string": "six", "bool": "TRUE"},
                 {"int": -7, "double": 8.25, "string": true, "bool": false}]
                """)
        #expect(rows.map(\.int) == [1, 4, -7])
        #expect(rows.map(\.double) == [2, 5.5, 8.25])
        #expect(rows.map(\.string) == ["3", "six", "true"])
        #expect(rows.map(\.bool) == [true, true, false])
        for bad in [#"{"int": true}"#, #"{"int": "4.5"}"#, #"{"int": 4.5}"#, #"{"int": {}}"#, #"{"int": null}"#] {
            #expect(throws: DecodingError.self, "\(bad)") { try decoder.decode(Flexible<Int>.self, from: bad) }
        }
        for bad in [#"2"#, #""yes""#, #"[]"#, #"0.5"#] {
            #expect(throws: DecodingError.self, "\(bad)") { try decoder.decode(Flexible<Bool>.self, from: bad) }
        }
        #expect(throws: DecodingError.self) { try decoder.decode(Flexible<String>.self, from: "[1]") }
        #expect(throws: DecodingError.self) { try decoder.decode(Flexible<Double>.self, from: #""nan""#) }
    }

    @Test func aStringStrategyStillReadsNonConformingFloatsThroughFlexible() throws {
        var decoder = TetherJSONDecoder()
        decoder.nonConformingFloatDecodingStrategy = .convertFromString(
            positiveInfinity: "inf", negativeInfinity: "-inf", nan: "nan")
        let value = try decoder.decode(Flexible<Double>.self, from: Data(#""inf""#.utf8))
        #expect(value.wrappedValue == .infinity)
        #expect(try decoder.decode(Flexible<Double>.self, from: Data(#""2.5""#.utf8)).wrappedValue == 2.5)
    }
}
