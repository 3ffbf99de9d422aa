import Foundation
import Testing

@testable import TetherJSON

/// The parser's error reports, limits, input types, strings, whitespace and duplicate keys.
@Suite(.timeLimit(.minutes(5)))
struct ParserTests {
    // MARK: - Error positions and messages

    /// A typical mistake and exactly where and how it must be reported.
    struct ErrorCase: Sendable, CustomTestStringConvertible {
        var name: String
        var input: [UInt8]
        var code: JSONError.Code = .syntax
        var offset: Int
        var line = 1
        var column: Int
        var excerpt: String
        var excerptColumn: Int
        /// Pieces the message must contain: what was expected and what was found.
        var message: [String]

        var testDescription: String { name }

        init(
            _ name: String, _ input: String, code: JSONError.Code = .syntax, offset: Int, line: Int = 1, column: Int,
            excerpt: String, excerptColumn: Int, message: [String]
        ) {
            self.init(
                name, Array(input.utf8), code: code, offset: offset, line: line, column: column, excerpt: excerpt,
                excerptColumn: excerptColumn, message: message)
        }

        init(
            _ name: String, _ input: [UInt8], code: JSONError.Code = .syntax, offset: Int, line: Int = 1, column: Int,
            excerpt: String, excerptColumn: Int, message: [String]
        ) {
            self.name = name
            self.input = input
            self.code = code
            self.offset = offset
            self.line = line
            self.column = column
            self.excerpt = excerpt
            self.excerptColumn = excerptColumn
            self.message = message
        }
    }

    static let errorCases: [ErrorCase] = [
        ErrorCase(
            "trailing comma in an array", "[1, 2,]", offset: 6, column: 7, excerpt: "[1, 2,]", excerptColumn: 6,
            message: ["expected a JSON value", "found ']'"]),
        ErrorCase(
            "trailing comma in an object", #"{"a": 1,}"#, offset: 8, column: 9, excerpt: #"{"a": 1,}"#,
            excerptColumn: 8, message: ["expected a string key", "found '}'"]),
        ErrorCase(
            "missing colon", #"{"a" 1}"#, offset: 5, column: 6, excerpt: #"{"a" 1}"#, excerptColumn: 5,
            message: ["expected ':' after an object key", "found '1'"]),
        ErrorCase(
            "missing comma between members", "{\"a\": 1\n  \"b\": 2}", offset: 10, line: 2, column: 3,
            excerpt: #"  "b": 2}"#, excerptColumn: 2,
            message: ["expected ',' or '}' after an object member", #"found '"'"#]
        ),
        ErrorCase(
            "single-quoted string on the second line", "{\n  \"a\": 'x'\n}", offset: 9, line: 2, column: 8,
            excerpt: #"  "a": 'x'"#, excerptColumn: 7, message: ["expected a JSON value", "found a single quote"]),
        ErrorCase(
            "single-quoted key", "{'a': 1}", offset: 1, column: 2, excerpt: "{'a': 1}", excerptColumn: 1,
            message: ["expected a string key", "found a single quote"]),
        ErrorCase(
            "unterminated string", #"{"name": "abc"#, offset: 9, column: 10, excerpt: #"{"name": "abc"#,
            excerptColumn: 9, message: [#"expected '"' to end the string"#, "found the end of the input"]),
        ErrorCase(
            "string cut off after a backslash", #"["ab\"#, offset: 1, column: 2, excerpt: #"["ab\"#, excerptColumn: 1,
            message: [#"expected '"'"#, "found the end of the input"]),
        ErrorCase(
            "string cut off inside a \\u escape", #"["\u00"#, offset: 1, column: 2, excerpt: #"["\u00"#,
            excerptColumn: 1, message: [#"expected '"'"#, "found the end of the input"]),
        ErrorCase(
            "tab in a string", "[\"a\tb\"]", offset: 3, column: 4, excerpt: "[\"a·b\"]", excerptColumn: 3,
            message: ["unescaped control character (U+0009)", #"\u0009"#]),
        ErrorCase(
            "line feed in a string", "[\"a\nb\"]", offset: 3, column: 4, excerpt: "[\"a", excerptColumn: 3,
            message: ["unescaped control character (U+000A)", #"\n"#]),
        ErrorCase(
            "bad escape", #"["a\x"]"#, offset: 4, column: 5, excerpt: #"["a\x"]"#, excerptColumn: 4,
            message: [#"expected one of \" \\ \/ \b \f \n \r \t \u after a backslash"#, "found 'x'"]),
        ErrorCase(
            "bad hex digit in a \\u escape", #"["\u12G4"]"#, offset: 6, column: 7, excerpt: #"["\u12G4"]"#,
            excerptColumn: 6, message: [#"expected four hex digits after \u"#, "found 'G'"]),
        ErrorCase(
            "leading zero", "[01]", offset: 2, column: 3, excerpt: "[01]", excerptColumn: 2,
            message: ["expected '.', 'e' or the end of the number after a leading 0", "found '1'"]),
        ErrorCase(
            "lone minus", "[-]", offset: 2, column: 3, excerpt: "[-]", excerptColumn: 2,
            message: ["expected a digit after '-'", "found ']'"]),
        ErrorCase(
            "minus at the end", "-", offset: 1, column: 2, excerpt: "-", excerptColumn: 1,
            message: ["expected a digit after '-'", "found the end of the input"]),
        ErrorCase(
            "missing fraction digits", "[1.]", offset: 3, column: 4, excerpt: "[1.]", excerptColumn: 3,
            message: ["expected a digit after the decimal point", "found ']'"]),
        ErrorCase(
            "missing exponent digits", "[1e+]", offset: 4, column: 5, excerpt: "[1e+]", excerptColumn: 4,
            message: ["expected a digit in the exponent", "found ']'"]),
        ErrorCase(
            "truncated input", #"{"a": [1, 2"#, offset: 11, column: 12, excerpt: #"{"a": [1, 2"#, excerptColumn: 11,
            message: ["expected ',' or ']' after an array element", "found the end of the input"]),
        ErrorCase(
            "truncated literal", "[tru", offset: 4, column: 5, excerpt: "[tru", excerptColumn: 4,
            message: ["expected 'true'", "found the end of the input"]),
        ErrorCase(
            "misspelled literal", "[nulL]", offset: 4, column: 5, excerpt: "[nulL]", excerptColumn: 4,
            message: ["expected 'null'", "found 'L'"]),
        ErrorCase(
            "garbage after the value", #"{"a": 1} x"#, offset: 9, column: 10, excerpt: #"{"a": 1} x"#,
            excerptColumn: 9, message: ["expected the end of the input after the JSON value", "found 'x'"]),
        ErrorCase(
            "empty input", "", offset: 0, column: 1, excerpt: "", excerptColumn: 0,
            message: ["expected a JSON value", "found the end of the input"]),
        ErrorCase(
            "only whitespace", " \n\t ", offset: 4, line: 2, column: 3, excerpt: "· ", excerptColumn: 2,
            message: ["expected a JSON value", "found the end of the input"]),
        ErrorCase(
            "invalid UTF-8 byte in a string", [0x5B, 0x22, 0x61, 0xFF, 0x62, 0x22, 0x5D], code: .invalidUTF8, offset: 3,
            column: 4, excerpt: "[\"a\u{FFFD}b\"]", excerptColumn: 3,
            message: ["invalid UTF-8: expected the first byte of a character", "found byte 0xFF"]),
        ErrorCase(
            "broken UTF-8 sequence in a string", [0x22, 0xE6, 0x97, 0x41, 0x22], code: .invalidUTF8, offset: 3,
            column: 3, excerpt: "\"\u{FFFD}A\"", excerptColumn: 2,
            message: ["invalid UTF-8: expected a continuation byte (0x80 to 0xBF)", "byte 0xE6", "found 'A'"]),
        ErrorCase(
            "invalid UTF-8 byte in a string with escapes", [0x5B, 0x22, 0x5C, 0x6E, 0xFF, 0x22, 0x5D],
            code: .invalidUTF8, offset: 4, column: 5, excerpt: "[\"\\n\u{FFFD}\"]", excerptColumn: 4,
            message: ["invalid UTF-8: expected the first byte of a character", "found byte 0xFF"]),
        ErrorCase(
            "overlong UTF-8 form", [0x22, 0xE0, 0x80, 0x80, 0x22], code: .invalidUTF8, offset: 2, column: 3,
            excerpt: "\"\u{FFFD}\u{FFFD}\u{FFFD}\"", excerptColumn: 2,
            message: ["expected a continuation byte (0xA0 to 0xBF)", "byte 0xE0", "found byte 0x80"]),
        ErrorCase(
            "UTF-8 character cut off by the end of the input", [0x22, 0xE6, 0x97], code: .invalidUTF8, offset: 1,
            column: 2, excerpt: "\"\u{FFFD}", excerptColumn: 1,
            message: ["invalid UTF-8: expected 2 more bytes after byte 0xE6", "found the end of the input"]),
        ErrorCase(
            "invalid UTF-8 byte outside a string", [0x5B, 0xC0, 0x5D], offset: 1, column: 2,
            excerpt: "[\u{FFFD}]", excerptColumn: 1, message: ["expected a JSON value", "found byte 0xC0"]),
        ErrorCase(
            "byte order mark", [0xEF, 0xBB, 0xBF, 0x7B, 0x7D], offset: 0, column: 1, excerpt: "\u{FEFF}{}",
            excerptColumn: 0,
            message: ["expected a JSON value", "found a UTF-8 byte order mark", "allowsByteOrderMark"]),
        ErrorCase(
            "Japanese text before the mistake", #"{"名前": "緑茶",}"#, offset: 20, column: 13,
            excerpt: #"{"名前": "緑茶",}"#, excerptColumn: 12, message: ["expected a string key", "found '}'"]),
        ErrorCase(
            "non-ASCII character where a value belongs", "[é]", offset: 1, column: 2, excerpt: "[é]", excerptColumn: 1,
            message: ["expected a JSON value", "found 'é'"]),
        ErrorCase(
            "CRLF line endings", "{\r\n\"a\": 1\r\n\"b\": 2}", offset: 11, line: 3, column: 1, excerpt: #""b": 2}"#,
            excerptColumn: 0, message: ["expected ',' or '}' after an object member"]),
        ErrorCase(
            "long line is cut to the excerpt radius", "[" + String(repeating: "1, ", count: 40) + "x]", offset: 121,
            column: 122, excerpt: String(repeating: "1, ", count: 10) + "x]", excerptColumn: 30,
            message: ["expected a JSON value", "found 'x'"]),
    ]

    @Test(arguments: errorCases)
    func errorIsReportedPrecisely(_ example: ErrorCase) throws {
        let error = try #require(throws: JSONError.self) { try JSONParser().parse(example.input) }
        #expect(error.code == example.code)
        let location = try #require(error.location)
        #expect(location.offset == example.offset)
        #expect(location.line == example.line)
        #expect(location.column == example.column)
        #expect(location.excerpt == example.excerpt)
        #expect(location.excerptColumn == example.excerptColumn)
        for piece in example.message {
            #expect(error.message.contains(piece), "\(error.message)")
        }
        // `validate` reports the same error as `parse`, and so does the `Data` overload.
        #expect(throws: error) { try JSONParser().validate(example.input) }
        #expect(throws: error) { try JSONParser().parse(Data(example.input)) }
        #expect(throws: error) { try JSON(parsing: Data(example.input)) }
    }

    /// `Data` takes its own overload (no generic dispatch): same values, same checks, as bytes in an array or a
    /// sequence that is not contiguous.
    @Test func dataArraysAndSequencesParseAlike() throws {
        let texts = [
            #"{"緑": ["緑茶", "a\"é\u00e9"], "n": [-0, 1e3, 12345678901234567890], "t": true, "z": null}"#, "[]", "\"x\"",
        ]
        for text in texts {
            let bytes = Array(text.utf8)
            let expected = try JSONParser().parse(bytes)
            #expect(try JSONParser().parse(Data(bytes)) == expected)
            #expect(try JSON(parsing: Data(bytes)) == expected)
            #expect(try JSONParser().parse(bytes.lazy.map { $0 }) == expected)
        }
        // Invalid UTF-8 inside a string is found through `Data` too.
        let invalid = Data([0x5B, 0x22, 0xC3, 0x28, 0x22, 0x5D])
        let error = try #require(throws: JSONError.self) { try JSONParser().parse(invalid) }
        #expect(error.code == .invalidUTF8)
        // An empty `Data` is an error, not a crash.
        #expect(throws: JSONError.self) { try JSONParser().parse(Data()) }
    }

    /// With and without escapes, in values and keys, multi-byte characters come through whole.
    @Test func nonASCIIStringValuesAreReadWhole() throws {
        let json = try JSONParser().parse(#"{"緑": ["緑茶", "a\"é\u00e9", "\u2605 ★", "😀"], "k\né": "é"}"#)
        #expect(json["緑"] == ["緑茶", "a\"éé", "★ ★", "😀"])
        #expect(json["k\né"] == "é")
    }

    /// The scanner checks every string's UTF-8 and their `String`s are made without a second check, told whether
    /// the bytes are all ASCII. A string wrongly told so counts its bytes as characters and hashes apart from the
    /// same text made by Swift: every form (short and long, ASCII or not, key or value) must be the same `String`.
    @Test(arguments: [
        "", "a", "abc", "fifteen bytes!!", "sixteen bytes!!!", String(repeating: "long ASCII text ", count: 8),
        "é", "緑茶", "a😀b", "short é", "ASCII first, then one é at the end of a long string",
        "é at the start of a string long enough to be stored on the heap",
        String(repeating: "緑茶と抹茶", count: 20), "mixed 緑 and 😀 and e\u{301} in a longer string",
    ])
    func stringsMadeWithoutASecondCheckAreTheSameStrings(text: String) throws {
        // As written, and with every non-ASCII character escaped (the unescaper's path).
        let written = try JSONWriter().string(JSON.object(JSON.Object([(text, .string(text))])))
        var escaped = ""
        for unit in written.utf16 {
            if unit < 0x80 {
                escaped.unicodeScalars.append(Unicode.Scalar(UInt8(unit)))
            } else {
                let hex = String(unit, radix: 16)
                escaped += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            }
        }
        for output in [written, escaped] {
            let json = try JSONParser().parse(output)
            let value = try #require(json[text]?.string, "key or value lost: \(output)")
            let key = try #require(json.object?.keys.first)
            for made in [value, key] {
                #expect(made == text)
                #expect(made.count == text.count)
                #expect(made.utf16.count == text.utf16.count)
                #expect(made.unicodeScalars.elementsEqual(text.unicodeScalars))
                #expect(made.hashValue == text.hashValue)
                #expect(Set([text]).contains(made))
                #expect(made.reversed().elementsEqual(text.reversed()))
            }
        }
    }

    @Test func descriptionDrawsACaretUnderTheMistake() throws {
        let error = try #require(throws: JSONError.self) { try JSON(parsing: #"{"a": 1 "b": 2}"#) }
        #expect(
            error.description == """
                expected ',' or '}' after an object member, found '"' at line 1, column 9 (byte 8)
                  {"a": 1 "b": 2}
                          ^
                """)
    }

    @Test func byteOrderMarkIsSkippedWhenAllowed() throws {
        let options = JSONParser.Options(allowsByteOrderMark: true)
        let json = try JSON(parsing: [0xEF, 0xBB, 0xBF, 0x5B, 0x31, 0x5D], options: options)
        #expect(json == [1])
        // Only the BOM is skipped: nothing after it is still an error, and offsets count from the first byte.
        let empty = try #require(throws: JSONError.self) { try JSON(parsing: [0xEF, 0xBB, 0xBF], options: options) }
        #expect(empty.location?.offset == 3)
        #expect(empty.message.contains("found the end of the input"))
        // A BOM anywhere else is not whitespace.
        #expect(throws: JSONError.self) { try JSON(parsing: "[1,\u{FEFF}2]", options: options) }
    }

    // MARK: - Depth limit

    static func nested(_ depth: Int, open: String = "[", close: String = "]", inner: String = "") -> String {
        String(repeating: open, count: depth) + inner + String(repeating: close, count: depth)
    }

    @Test func nestingUpToTheDefaultDepthIsAccepted() throws {
        #expect(JSONParser.Options().maximumDepth == 512)
        var json = try JSON(parsing: Self.nested(512))
        var depth = 0
        while let array = json.array {
            depth += 1
            guard let first = array.first else { break }
            json = first
        }
        #expect(depth == 512)

        let error = try #require(throws: JSONError.self) { try JSON(parsing: Self.nested(513)) }
        #expect(error.code == .depthLimitExceeded)
        #expect(error.location?.offset == 512)  // the bracket that goes one level too deep
        #expect(error.message.contains("512"))
    }

    @Test(arguments: [0, 1, 2, 3, 10])
    func nestingIsLimitedToMaximumDepth(_ limit: Int) throws {
        let parser = JSONParser(options: .init(maximumDepth: limit))
        // Arrays and objects both count, mixed.
        var text = "1"
        for level in 0..<limit { text = level.isMultiple(of: 2) ? "[\(text)]" : #"{"k": \#(text)}"# }
        #expect(throws: Never.self) { try parser.parse(text) }
        #expect(throws: Never.self) { try parser.parse("\"scalar\"") }

        let tooDeepText = "[" + text + "]"
        let tooDeep = try #require(throws: JSONError.self) { try parser.parse(tooDeepText) }
        #expect(tooDeep.code == .depthLimitExceeded)
        // Reported at the opening bracket or brace one level past the limit.
        let openers = tooDeepText.utf8.indices.filter { "[{".utf8.contains(tooDeepText.utf8[$0]) }
        #expect(tooDeep.location?.offset == tooDeepText.utf8.distance(from: tooDeepText.startIndex, to: openers[limit]))
        // Siblings do not add depth.
        if limit > 1 {
            #expect(throws: Never.self) { try parser.parse("[" + String(repeating: "[], ", count: 100) + "[]]") }
        }
    }

    @Test func depthOptionIsClamped() {
        #expect(JSONParser.Options(maximumDepth: -5).maximumDepth == 0)
        #expect(JSONParser.Options(maximumDepth: 1_000_000).maximumDepth == JSONParser.Options.maximumAllowedDepth)
        var options = JSONParser.Options()
        options.maximumDepth = 99_999
        #expect(options.maximumDepth == JSONParser.Options.maximumAllowedDepth)
        options.maximumDepth = -1
        #expect(options.maximumDepth == 0)
    }

    @Test func millionOpeningBracketsFailWithoutOverflowingTheStack() throws {
        let input = [UInt8](repeating: UInt8(ascii: "["), count: 1_000_000)
        let error = try #require(throws: JSONError.self) { try JSONParser().parse(input) }
        #expect(error.code == .depthLimitExceeded)
        #expect(error.location?.offset == 512)

        let deepest = JSONParser(options: .init(maximumDepth: JSONParser.Options.maximumAllowedDepth))
        let deepError = try #require(throws: JSONError.self) { try deepest.validate(input) }
        #expect(deepError.code == .depthLimitExceeded)
        #expect(deepError.location?.offset == JSONParser.Options.maximumAllowedDepth)

        // A million balanced brackets within a large limit are still only a depth error, never a crash.
        let balanced = Self.nested(500_000, open: "{\"a\":", close: "}", inner: "1")
        #expect(throws: JSONError.self) { try deepest.parse(balanced) }
    }

    @Test func deepestAllowedNestingBuildsAndDestroysAValue() throws {
        let depth = JSONParser.Options.maximumAllowedDepth
        let parser = JSONParser(options: .init(maximumDepth: depth))
        let json = try parser.parse(Self.nested(depth, inner: "null"))
        var current = json
        var levels = 0
        while case .array(let elements) = current, let first = elements.first {
            levels += 1
            current = first
        }
        #expect(levels == depth)
        #expect(current.isNull)
    }

    // MARK: - Input size

    @Test func inputLargerThanMaximumInputSizeIsRejected() throws {
        let text = #"{"a": [1, 2, 3]}"#  // 16 bytes
        #expect(throws: Never.self) { try JSON(parsing: text, options: .init(maximumInputSize: 16)) }
        let error = try #require(throws: JSONError.self) {
            try JSON(parsing: text, options: .init(maximumInputSize: 15))
        }
        #expect(error.code == .inputTooLarge)
        #expect(error.location == nil)
        #expect(error.message.contains("16") && error.message.contains("15"))
        // The limit is checked before anything else, even for input that would be invalid.
        let invalid = try #require(throws: JSONError.self) {
            try JSON(parsing: "[[[[[", options: .init(maximumInputSize: 4))
        }
        #expect(invalid.code == .inputTooLarge)
    }

    // MARK: - Input types

    static let sample = #"{"id": 7, "name": "緑茶", "tags": ["a", "b"], "ok": true}"#
    static let sampleValue: JSON = ["id": 7, "name": "緑茶", "tags": ["a", "b"], "ok": true]

    /// A sequence with no contiguous storage, so the parser has to copy it.
    struct ByteStream: Sequence {
        var bytes: [UInt8]
        func makeIterator() -> IndexingIterator<[UInt8]> { bytes.makeIterator() }
    }

    @Test func everyInputTypeGivesTheSameValue() throws {
        let bytes = Array(Self.sample.utf8)
        #expect(try JSON(parsing: Self.sample) == Self.sampleValue)
        #expect(try JSON(parsing: bytes) == Self.sampleValue)
        #expect(try JSON(parsing: Data(bytes)) == Self.sampleValue)
        #expect(try JSON(parsing: ByteStream(bytes: bytes)) == Self.sampleValue)
        #expect(try JSON(parsing: Self.sample.utf8) == Self.sampleValue)
        #expect(try JSONParser().parse(ContiguousArray(bytes)) == Self.sampleValue)
        #expect(try JSONParser().parse(bytes.lazy.map { $0 }) == Self.sampleValue)
    }

    @Test func slicesAreParsedFromTheirOwnStart() throws {
        let padded = Array("garbage".utf8) + Array(Self.sample.utf8) + Array("trailing".utf8)
        let slice = padded[7..<(padded.count - 8)]
        #expect(slice.startIndex == 7)
        #expect(try JSON(parsing: slice) == Self.sampleValue)

        let data = Data(padded)[7..<(padded.count - 8)]
        #expect(data.startIndex == 7)
        #expect(try JSON(parsing: data) == Self.sampleValue)

        let text = "xx" + Self.sample + "yy"
        let substring = text.dropFirst(2).dropLast(2)
        #expect(try JSON(parsing: substring.utf8) == Self.sampleValue)
        #expect(try JSON(parsing: String(substring)) == Self.sampleValue)

        // Error offsets count from the slice's first byte, not from its start index.
        let broken = Array("....[1,]".utf8)[4...]
        let error = try #require(throws: JSONError.self) { try JSON(parsing: broken) }
        #expect(error.location?.offset == 3)
        #expect(error.location?.excerpt == "[1,]")
    }

    @Test func smallAndBridgedStringsParse() throws {
        #expect(try JSON(parsing: "1") == 1)
        #expect(try JSON(parsing: #""short""#) == "short")
        #expect(try JSON(parsing: NSString(string: Self.sample) as String) == Self.sampleValue)
    }

    @Test func topLevelScalarsParse() throws {
        #expect(try JSON(parsing: "null") == .null)
        #expect(try JSON(parsing: " true ") == true)
        #expect(try JSON(parsing: "false") == false)
        #expect(try JSON(parsing: "-12") == -12)
        #expect(try JSON(parsing: "\n2.5\n") == 2.5)
        #expect(try JSON(parsing: #""x""#) == "x")
        #expect(try JSON(parsing: "[]") == [])
        #expect(try JSON(parsing: "{}") == [:])
    }

    // MARK: - Strings

    @Test func everyEscapeIsDecoded() throws {
        let json = try JSON(parsing: #"["\" \\ \/ \b \f \n \r \t", "\u0041\u00e9\u00E9\u65e5\u0000\u001f\u007F"]"#)
        #expect(json[0].string == "\" \\ / \u{08} \u{0C} \n \r \t")
        #expect(json[1].string == "Aéé日\u{0}\u{1F}\u{7F}")
    }

    @Test func surrogatePairsAreDecoded() throws {
        let json = try JSON(parsing: #"["\ud83d\ude00", "\uD834\uDD1E", "a\uD83D\uDE00b", "😀"]"#)
        #expect(json[0].string == "😀")
        #expect(json[1].string == "𝄞")
        #expect(json[2].string == "a😀b")
        #expect(json[3].string == "😀")
        #expect(json[0].string?.unicodeScalars.count == 1)
    }

    @Test func loneSurrogatesFollowThePolicy() throws {
        let text = #"["\ud800", "\udc00x", "\ud800\u0041", "\ud800\ud800\udc00"]"#
        let replaced = try JSON(parsing: text)
        #expect(replaced == ["\u{FFFD}", "\u{FFFD}x", "\u{FFFD}A", "\u{FFFD}\u{10000}"])

        let error = try #require(throws: JSONError.self) {
            try JSON(parsing: text, options: .init(loneSurrogates: .reject))
        }
        #expect(error.code == .invalidUnicodeEscape)
        #expect(error.location?.offset == 2)
        #expect(error.message.contains("D800"))
        #expect(throws: Never.self) {
            try JSON(parsing: #"["\ud83d\ude00"]"#, options: .init(loneSurrogates: .reject))
        }
    }

    @Test func japaneseTextIsKept() throws {
        let text = "東京都千代田区丸の内一丁目、ｶﾀｶﾅ、ひらがな、漢字🍵"
        let json = try JSON(parsing: #"{"住所": "\#(text)", "k": "\#(text)\n"}"#)
        #expect(json["住所"].string == text)
        #expect(json["k"].string == text + "\n")
        #expect(json.object?.keys == ["住所", "k"])
    }

    @Test func longStringsSurviveTheFastPath() throws {
        let long = String(repeating: "0123456789abcdef", count: 4096)
        #expect(try JSON(parsing: "\"\(long)\"").string == long)
        let escapedEvery100 = (0..<1000).map { _ in String(repeating: "x", count: 99) + #"\n"# }.joined()
        let expected = (0..<1000).map { _ in String(repeating: "x", count: 99) + "\n" }.joined()
        #expect(try JSON(parsing: "\"\(escapedEvery100)\"").string == expected)
    }

    /// A character placed inside a string body: its JSON spelling, what it decodes to, or the error it causes.
    struct Special: Sendable, CustomStringConvertible {
        var description: String
        var encoded: [UInt8]
        var decoded: String
        var error: JSONError.Code?
    }

    static let specials: [Special] = [
        Special(description: "escaped quote", encoded: Array(#"\""#.utf8), decoded: "\""),
        Special(description: "escaped backslash", encoded: Array(#"\\"#.utf8), decoded: "\\"),
        Special(description: "escaped line feed", encoded: Array(#"\n"#.utf8), decoded: "\n"),
        Special(description: "\\u escape", encoded: Array(#"\u00e9"#.utf8), decoded: "é"),
        Special(description: "surrogate pair", encoded: Array(#"\ud83d\ude00"#.utf8), decoded: "😀"),
        Special(description: "two-byte UTF-8", encoded: Array("é".utf8), decoded: "é"),
        Special(description: "three-byte UTF-8", encoded: Array("日".utf8), decoded: "日"),
        Special(description: "four-byte UTF-8", encoded: Array("😀".utf8), decoded: "😀"),
        Special(description: "DEL", encoded: [0x7F], decoded: "\u{7F}"),
        Special(description: "space", encoded: [0x20], decoded: " "),
        Special(description: "control character", encoded: [0x1F], decoded: "", error: .syntax),
        Special(description: "NUL", encoded: [0x00], decoded: "", error: .syntax),
        Special(description: "invalid byte", encoded: [0xFF], decoded: "", error: .invalidUTF8),
        Special(description: "stray continuation byte", encoded: [0x80], decoded: "", error: .invalidUTF8),
    ]

    /// Strings of 0 to 40 characters with a special character at every position, starting at every alignment,
    /// so the eight-byte scan meets each special byte in every lane and at every word boundary.
    @Test(arguments: specials)
    func specialCharacterIsFoundAtEveryPositionAndAlignment(_ special: Special) throws {
        let filler = Array("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ".utf8)
        for length in 0...40 {
            for position in 0...length {
                let before = Array(filler[0..<position])
                let after = Array(filler[position..<length])
                let body = before + special.encoded + after
                for alignment in 0..<8 {
                    let prefix = [UInt8](repeating: 0x20, count: alignment) + [UInt8(ascii: "[")]
                    // A second string after the first checks that the scan resumes at the right byte.
                    let input = prefix + [0x22] + body + Array(#"", "z"]"#.utf8)
                    if let code = special.error {
                        let error = try #require(throws: JSONError.self) { try JSONParser().parse(input) }
                        #expect(error.code == code)
                        #expect(error.location?.offset == prefix.count + 1 + position, "\(special) at \(position)")
                    } else {
                        let json = try JSONParser().parse(input)
                        let expected =
                            String(decoding: before, as: UTF8.self) + special.decoded
                            + String(decoding: after, as: UTF8.self)
                        #expect(json == [.string(expected), "z"], "\(special) at \(position) of \(length)")
                    }
                }
            }
        }
    }

    @Test func plainStringsOfEveryLengthAndAlignment() throws {
        let filler = Array("The quick brown fox jumps over the lazy dog, 0123456789!".utf8)
        for length in 0...48 {
            for alignment in 0..<8 {
                let body = Array(filler[0..<length])
                let input = [UInt8](repeating: 0x20, count: alignment) + [0x22] + body + [0x22]
                #expect(try JSONParser().parse(input) == .string(String(decoding: body, as: UTF8.self)))
                // Without the closing quote, the string is unterminated at its opening quote.
                let error = try #require(throws: JSONError.self) { try JSONParser().parse(input.dropLast()) }
                #expect(error.location?.offset == alignment)
            }
        }
    }

    // MARK: - Whitespace

    @Test func allFourWhitespaceCharactersAreAcceptedBetweenTokens() throws {
        let ws = " \t\n\r"
        let text = [
            "", "[", "1", ",", "{", #""a""#, ":", "null", ",", #""b""#, ":", "[", "]", "}", ",", "true", "]", "",
        ].joined(separator: ws)
        #expect(try JSON(parsing: text) == [1, ["a": nil, "b": []], true])
        #expect(try JSON(parsing: "\r\n[\r\n1\r\n]\r\n") == [1])
        #expect(try JSON(parsing: "\t\t{}\t") == [:])
    }

    @Test(arguments: [
        "\u{0C}", "\u{0B}", "\u{00A0}", "\u{FEFF}", "\u{2028}", "\u{3000}", "\u{00}",
    ])
    func otherWhitespaceIsRejected(_ space: String) throws {
        let error = try #require(throws: JSONError.self) { try JSON(parsing: "[1,\(space)2]") }
        #expect(error.location?.offset == 3)
        #expect(throws: JSONError.self) { try JSON(parsing: "\(space)1") }
    }

    // MARK: - Duplicate keys

    @Test func duplicateKeysAreKeptAndLookupReturnsTheLast() throws {
        let json = try JSON(parsing: #"{"a": 1, "b": 2, "a": 3}"#)
        let object = try #require(json.object)
        #expect(object.count == 3)
        #expect(object.keys == ["a", "b", "a"])
        #expect(object.values == [1, 2, 3])
        #expect(json["a"] == 3)
        #expect(try json.value(at: "a", as: Int.self) == 3)
    }

    @Test func duplicateKeysInLargeObjectsUseTheLastToo() throws {
        // Above JSON.Object.indexThreshold lookup goes through a hash index; it must agree with the scan.
        let distinct = JSON.Object.indexThreshold + 6
        let count = distinct + 10
        let members = (0..<count).map { #""k\#($0 % distinct)": \#($0)"# }.joined(separator: ", ")
        let json = try JSON(parsing: "{\(members)}")
        #expect(json.object?.count == count)
        for k in 0..<distinct {
            let last = k < 10 ? k + distinct : k
            #expect(json["k\(k)"].int == last, "k\(k)")
        }
    }

    @Test func repeatedKeysAcrossManyObjectsAreReadCorrectly() throws {
        // Keys repeat across the elements of a page; more distinct keys than any key cache has slots, of every
        // length up to past the cached length, escaped and not.
        let names = (0..<700).map { i in String(repeating: "k", count: i % 60) + "\(i)" }
        let spelled = names.enumerated().map { i, name in i.isMultiple(of: 7) ? name + #"\u00e9"# : name }
        let decoded = names.enumerated().map { i, name in i.isMultiple(of: 7) ? name + "é" : name }
        var elements: [String] = []
        for e in 0..<300 {
            let picks = (0..<5).map { (e * 37 + $0 * 101) % names.count }
            elements.append("{" + picks.map { #""\#(spelled[$0])": \#($0)"# }.joined(separator: ",") + "}")
        }
        let json = try JSON(parsing: "[" + elements.joined(separator: ",") + "]")
        for e in 0..<300 {
            let picks = (0..<5).map { (e * 37 + $0 * 101) % names.count }
            #expect(json[e].object?.keys == picks.map { decoded[$0] }, "element \(e)")
            #expect(json[e].object?.values == picks.map { JSON($0) })
        }
    }

    @Test func keysOfASmallDocumentThatShareCacheSetsAreReadCorrectly() throws {
        // A small document gets a small key cache (8 sets of two): 12 keys in changing orders must push one
        // another out and move between a set's two slots without ever coming back as another key.
        let names = ["a", "bb", "id", "id_str", "name", "user", "text", "lang", "type", "w", "h", "url"]
        var elements: [String] = []
        var expected: [[String]] = []
        for e in 0..<4 {
            let order = names.indices.map { names[($0 * (e + 1) * 5 + e) % names.count] }
            let unique = order.reduce(into: [String]()) { if !$0.contains($1) { $0.append($1) } }
            expected.append(unique)
            elements.append("{" + unique.map { #""\#($0)":1"# }.joined(separator: ",") + "}")
        }
        let json = try JSON(parsing: "[" + elements.joined(separator: ",") + "]")
        for e in 0..<4 {
            #expect(json[e].object?.keys == expected[e], "element \(e)")
        }
    }

    @Test func escapedAndPlainSpellingsOfAKeyAreTheSameKey() throws {
        let json = try JSON(parsing: #"{"é": 1, "\u00e9": 2}"#)
        #expect(json["é"] == 2)
        #expect(json.object?.keys == ["é", "é"])
    }
}
