import Foundation
import Testing
import TetherTestSupport

@testable import TetherJSON

@Suite struct WriterTests {
    // MARK: Escaping

    /// The escape RFC 8259 asks for each control character: the short forms, else `\u00XX` in lowercase hex.
    private static func expectedEscape(_ c: UInt8) -> String {
        switch c {
        case 0x08: return "\\b"
        case 0x09: return "\\t"
        case 0x0A: return "\\n"
        case 0x0C: return "\\f"
        case 0x0D: return "\\r"
        default:
            let hex = String(c, radix: 16)
            return "\\u00" + (hex.count == 1 ? "0" + hex : hex)
        }
    }

    @Test(arguments: 0..<0x20)
    func escapesEveryControlCharacter(code: Int) throws {
        let scalar = Character(Unicode.Scalar(UInt8(code)))
        let text = try JSONWriter().string(.string("a\(scalar)b"))
        #expect(text == "\"a" + Self.expectedEscape(UInt8(code)) + "b\"")
        // And the parser reads it back.
        #expect(try JSON(parsing: text) == .string("a\(scalar)b"))
    }

    @Test func escapesQuotesAndBackslashes() throws {
        #expect(try JSONWriter().string(#"say "hi" \ bye"#) == #""say \"hi\" \\ bye""#)
        #expect(try JSONWriter().string(#"\\""#) == #""\\\\\"""#)
    }

    @Test func escapesSlashesUnlessAskedNotTo() throws {
        let json: JSON = ["url": "https://example.com/a/b"]
        #expect(try JSONWriter().string(json) == #"{"url":"https:\/\/example.com\/a\/b"}"#)
        #expect(
            try JSONWriter(options: .withoutEscapingSlashes).string(json) == #"{"url":"https://example.com/a/b"}"#)
        // Keys are escaped the same way.
        #expect(try JSONWriter().string(["a/b": 1]) == #"{"a\/b":1}"#)
    }

    @Test func writesNonASCIIAsUTF8() throws {
        let text = "緑茶 é 😀 \u{7F} \u{2028} \u{FFFF}"
        let bytes = try JSONWriter().bytes(.string(text))
        #expect(bytes == [UInt8(ascii: "\"")] + Array(text.utf8) + [UInt8(ascii: "\"")])
    }

    @Test func escapingMatchesFoundationsJSONSerialization() throws {
        var text = (0..<0x20).map { String(Character(Unicode.Scalar(UInt8($0)))) }.joined()
        text += #"plain "quoted" back\slash a/b 緑茶 é 😀 \#u{7F}"#
        let foundation = try JSONSerialization.data(withJSONObject: [text])
        let ours = try JSONWriter().bytes([.string(text)])
        #expect(String(decoding: ours, as: UTF8.self) == String(decoding: foundation, as: UTF8.self))
    }

    @Test func escapesLongStringsWithManyRuns() throws {
        let unit = "abc\"/\n緑"
        let text = String(repeating: unit, count: 1000)
        let written = try JSONWriter().string(.string(text))
        #expect(written == "\"" + String(repeating: #"abc\"\/\n緑"#, count: 1000) + "\"")
        #expect(try JSON(parsing: written) == .string(text))
    }

    // MARK: Layout

    private static let sample: JSON = [
        "name": "緑茶",
        "tags": ["tea", "green"],
        "price": 3240,
        "stock": ["shelf": 2, "back": [:]],
        "empty": [],
        "discount": nil,
    ]

    @Test func compactOutputKeepsOrder() throws {
        #expect(
            try JSONWriter().string(Self.sample)
                == #"{"name":"緑茶","tags":["tea","green"],"price":3240,"stock":{"shelf":2,"back":{}},"empty":[],"discount":null}"#
        )
    }

    @Test func prettyPrintedAndSorted() throws {
        let text = try JSONWriter(options: [.prettyPrinted, .sortedKeys]).string(Self.sample)
        #expect(
            text == """
                {
                  "discount": null,
                  "empty": [],
                  "name": "緑茶",
                  "price": 3240,
                  "stock": {
                    "back": {},
                    "shelf": 2
                  },
                  "tags": [
                    "tea",
                    "green"
                  ]
                }
                """)
    }

    @Test func prettyPrintedWithIndentWidth() throws {
        let json: JSON = [[1, [2]], ["a": true]]
        #expect(
            try JSONWriter(options: .prettyPrinted, indentWidth: 4).string(json) == """
                [
                    [
                        1,
                        [
                            2
                        ]
                    ],
                    {
                        "a": true
                    }
                ]
                """)
        #expect(
            try JSONWriter(options: .prettyPrinted, indentWidth: 0).string(json)
                == "[\n[\n1,\n[\n2\n]\n],\n{\n\"a\": true\n}\n]")
    }

    @Test func prettyPrintedScalarsAndEmptyContainers() throws {
        let pretty = JSONWriter(options: .prettyPrinted)
        #expect(try pretty.string(1) == "1")
        #expect(try pretty.string([]) == "[]")
        #expect(try pretty.string([:]) == "{}")
        #expect(try pretty.string([[]]) == "[\n  []\n]")
    }

    @Test func sortsKeysByCodePoint() throws {
        // UTF-16 order would put U+10000 before U+FF5E; code point (UTF-8) order puts it after.
        let keys = ["b", "\u{10000}", "a", "é", "B", "aa", "\u{FF5E}", "", "a b"]
        let object = JSON.Object(keys.map { ($0, JSON.null) })
        let text = try JSONWriter(options: .sortedKeys).string(.object(object))
        let expectedOrder = ["", "B", "a", "a b", "aa", "b", "é", "\u{FF5E}", "\u{10000}"]
        #expect(text == "{" + expectedOrder.map { "\"\($0)\":null" }.joined(separator: ",") + "}")
        // And the order is the UTF-8 byte order.
        #expect(expectedOrder == keys.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) })
    }

    @Test func repeatedKeysAreAllWrittenAndSortStably() throws {
        let json = try JSON(parsing: #"{"b":1,"a":2,"b":3}"#)
        #expect(try JSONWriter().string(json) == #"{"b":1,"a":2,"b":3}"#)
        #expect(try JSONWriter(options: .sortedKeys).string(json) == #"{"a":2,"b":1,"b":3}"#)
    }

    // MARK: Numbers

    @Test func writesIntegersExactly() throws {
        let json: JSON = [
            .number(.init(Int64.min)), .number(.init(Int64.max)), .number(.init(UInt64.max)), 0, -1, 10, 9, 100,
        ]
        #expect(
            try JSONWriter().string(json)
                == "[-9223372036854775808,9223372036854775807,18446744073709551615,0,-1,10,9,100]")
    }

    @Test func writesDoublesInShortestForm() throws {
        let json: JSON = [3.0, 0.1, -0.0, 1e-7, 5e300, 1.5, -2.25e-300]
        #expect(try JSONWriter().string(json) == "[3.0,0.1,-0.0,1e-07,5e+300,1.5,-2.25e-300]")
    }

    @Test(arguments: [Double.nan, .infinity, -.infinity])
    func nonFiniteNumbersThrowWithPath(value: Double) {
        let json: JSON = ["ok": 1, "list": [1, .number(.init(value))]]
        for options: JSONWriter.Options in [[], [.sortedKeys], [.prettyPrinted]] {
            #expect {
                try JSONWriter(options: options).string(json)
            } throws: { error in
                guard let error = error as? JSONError else { return false }
                return error.code == .invalidValue && error.path == [.key("list"), .index(1)]
            }
        }
        #expect(throws: JSONError.self) { try JSON.number(.init(value)).text() }
    }

    @Test func descriptionNeverThrows() {
        let json: JSON = [
            "a": [.number(.init(Double.nan)), .number(.init(Double.infinity)), .number(.init(-Double.infinity))]
        ]
        #expect(json.description == #"{"a":[NaN,Infinity,-Infinity]}"#)
        #expect(JSON.string("x/y").description == #""x\/y""#)
        #expect(JSON.array([1, "a"]).debugDescription == #"JSON([1,"a"])"#)
        #expect("\(JSON.object(["k": true]))" == #"{"k":true}"#)
    }

    // MARK: Round trips

    @Test(arguments: [
        #"{"a":[1,-2,3.5,12345678901234567890123,-12345678901234567890123,-0.0,1e-07,5e+300,true,false,null,"x"]}"#,
        #"[[],{},[[]],{"":{"":[]}},"\u0000\"\\\/\b\f\n\r\t",18446744073709551615,-9223372036854775808]"#,
        #"{"name":"緑茶","emoji":"😀","nested":{"deep":[{"k":0.30000000000000004}]}}"#,
        "1e+400",
        #""just a string""#,
    ])
    func compactTextRoundTripsExactly(text: String) throws {
        let json = try JSON(parsing: text)
        let written = try JSONWriter().string(json)
        #expect(written == text)
        #expect(try JSON(parsing: written) == json)
    }

    @Test(arguments: [
        "[12345678901234567890123, -0.0, 1e-7, 5e300, 1E2, 0.5e-3, 100000000000000000000.0]",
        #"{"z": 1, "a": {"y": [true, null, "\ud83d\ude00"]}, "m": "\u00e9"}"#,
    ])
    func parseWriteParseIsIdentity(text: String) throws {
        let json = try JSON(parsing: text)
        for options: JSONWriter.Options in [[], [.prettyPrinted], [.sortedKeys, .withoutEscapingSlashes]] {
            let reparsed = try JSON(parsing: JSONWriter(options: options).bytes(json))
            if options.contains(.sortedKeys) {
                #expect(try reparsed.text(.sortedKeys) == json.text(.sortedKeys))
            } else {
                #expect(reparsed == json)
            }
        }
    }

    @Test func bigNumbersAndNegativeZeroSurvive() throws {
        let json = try JSON(parsing: "[12345678901234567890123, -0.0, 1e-7, 5e300]")
        let again = try JSON(parsing: json.text())
        #expect(again[0].number?.description == "12345678901234567890123")
        #expect(again[1].double?.sign == .minus)
        #expect(again[1].number?.isInteger == false)
        #expect(again[2].double == 1e-7)
        #expect(again[3].double == 5e300)
    }

    @Test func randomDoublesRoundTripBitForBit() throws {
        var generator = SeededRandom(seed: 0x7E7E_E7E7)
        var values: [Double] = [
            .leastNonzeroMagnitude, .leastNormalMagnitude, .greatestFiniteMagnitude, -.greatestFiniteMagnitude,
            0.1 + 0.2, 1 / 3, 2e-308, 9_007_199_254_740_992, 123_456.789e-3,
        ]
        while values.count < 2000 {
            let value = Double(bitPattern: generator.next())
            if value.isFinite { values.append(value) }
        }
        let json = JSON.array(values.map { .number(.init($0)) })
        let reparsed = try JSON(parsing: JSONWriter().bytes(json))
        let doubles = try #require(reparsed.array).map { $0.double?.bitPattern }
        #expect(doubles == values.map(\.bitPattern))
    }

    @Test func writesVeryDeepNestingWithoutRecursion() throws {
        var json: JSON = 1
        for depth in 0..<10_000 { json = depth.isMultiple(of: 2) ? [json] : ["k": json] }
        let bytes = try JSONWriter().bytes(json)
        #expect(bytes.count == 5_000 * 2 + 5_000 * 6 + 1)
        #expect(bytes.prefix(6) == Array(#"{"k":["#.utf8)[...])
        // Pretty text grows with the square of the depth, so check it on a shallower value.
        var shallow: JSON = 1
        for _ in 0..<500 { shallow = [shallow] }
        let pretty = try JSONWriter(options: .prettyPrinted).bytes(shallow)
        let spaces = 2 * (0..<500).reduce(0) { $0 + 2 * $1 } + 2 * 500
        #expect(pretty.count == spaces + 1_000 + 1_000 + 1)  // spaces, brackets, newlines, the 1
    }

    @Test func appendsToExistingBytes() throws {
        var bytes = Array("prefix:".utf8)
        try JSONWriter().write(["a": [1, 2]], into: &bytes)
        #expect(String(decoding: bytes, as: UTF8.self) == #"prefix:{"a":[1,2]}"#)
    }

    @Test func convenienceMethodsMatchTheWriter() throws {
        let json = Self.sample
        #expect(try json.text() == JSONWriter().string(json))
        #expect(try json.bytes([.sortedKeys]) == JSONWriter(options: .sortedKeys).bytes(json))
        #expect(try json.text([.prettyPrinted]) == JSONWriter(options: .prettyPrinted).string(json))
    }
}
