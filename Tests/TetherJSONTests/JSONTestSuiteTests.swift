import Foundation
import Testing
import TetherTestSupport

@testable import TetherJSON

/// Runs every file of Nicolas Seriot's JSONTestSuite (`shared/JSONTestSuite/test_parsing`) through the parser.
///
/// `y_` files must parse, `n_` files must be rejected with a ``JSONError``, and each `i_` file (where RFC 8259
/// lets parsers choose) must have the outcome recorded in ``JSONTestSuiteTests/implementationDefined``; the
/// reasons are in `Docs/JSONTestSuite.md`.
@Suite(.timeLimit(.minutes(5)))
struct JSONTestSuiteTests {
    enum Outcome: Equatable, CustomStringConvertible {
        case accept
        case reject(JSONError.Code)

        var description: String {
            switch self {
            case .accept: "accept"
            case .reject(let code): "reject (\(code))"
            }
        }
    }

    /// The documented outcome of every `i_` file with the default options (keep in step with
    /// `Docs/JSONTestSuite.md`).
    static let implementationDefined: [String: Outcome] = [
        // Numbers beyond Double or 64-bit integers: accepted, kept as their text; underflow gives 0.
        "i_number_double_huge_neg_exp.json": .accept,
        "i_number_huge_exp.json": .accept,
        "i_number_neg_int_huge_exp.json": .accept,
        "i_number_pos_double_huge_exp.json": .accept,
        "i_number_real_neg_overflow.json": .accept,
        "i_number_real_pos_overflow.json": .accept,
        "i_number_real_underflow.json": .accept,
        "i_number_too_big_neg_int.json": .accept,
        "i_number_too_big_pos_int.json": .accept,
        "i_number_very_big_negative_int.json": .accept,
        // Lone surrogate escapes: decoded as U+FFFD by default (rejected with `.reject`, tested below).
        "i_object_key_lone_2nd_surrogate.json": .accept,
        "i_string_1st_surrogate_but_2nd_missing.json": .accept,
        "i_string_1st_valid_surrogate_2nd_invalid.json": .accept,
        "i_string_incomplete_surrogate_and_escape_valid.json": .accept,
        "i_string_incomplete_surrogate_pair.json": .accept,
        "i_string_incomplete_surrogates_escape_valid.json": .accept,
        "i_string_invalid_lonely_surrogate.json": .accept,
        "i_string_invalid_surrogate.json": .accept,
        "i_string_inverted_surrogates_U+1D11E.json": .accept,
        "i_string_lone_second_surrogate.json": .accept,
        // Invalid UTF-8 inside strings: always rejected.
        "i_string_UTF-8_invalid_sequence.json": .reject(.invalidUTF8),
        "i_string_UTF8_surrogate_U+D800.json": .reject(.invalidUTF8),
        "i_string_invalid_utf-8.json": .reject(.invalidUTF8),
        "i_string_iso_latin_1.json": .reject(.invalidUTF8),
        "i_string_lone_utf8_continuation_byte.json": .reject(.invalidUTF8),
        "i_string_not_in_unicode_range.json": .reject(.invalidUTF8),
        "i_string_overlong_sequence_2_bytes.json": .reject(.invalidUTF8),
        "i_string_overlong_sequence_6_bytes.json": .reject(.invalidUTF8),
        "i_string_overlong_sequence_6_bytes_null.json": .reject(.invalidUTF8),
        "i_string_truncated-utf-8.json": .reject(.invalidUTF8),
        // UTF-16 input: only UTF-8 is read, so the first byte (0xFF or 0x00) is not a JSON value.
        "i_string_UTF-16LE_with_BOM.json": .reject(.syntax),
        "i_string_utf16BE_no_BOM.json": .reject(.syntax),
        "i_string_utf16LE_no_BOM.json": .reject(.syntax),
        // Structure: 500 levels are within the default depth of 512; a BOM needs `allowsByteOrderMark`.
        "i_structure_500_nested_arrays.json": .accept,
        "i_structure_UTF-8_BOM_empty_object.json": .reject(.syntax),
    ]

    /// What the lone surrogate files decode to by default: each lone surrogate becomes U+FFFD.
    static let surrogateDecodings: [String: JSON] = [
        "i_object_key_lone_2nd_surrogate.json": ["\u{FFFD}": 0],
        "i_string_1st_surrogate_but_2nd_missing.json": ["\u{FFFD}"],
        "i_string_1st_valid_surrogate_2nd_invalid.json": ["\u{FFFD}\u{1234}"],
        "i_string_incomplete_surrogate_and_escape_valid.json": ["\u{FFFD}\n"],
        "i_string_incomplete_surrogate_pair.json": ["\u{FFFD}a"],
        "i_string_incomplete_surrogates_escape_valid.json": ["\u{FFFD}\u{FFFD}\n"],
        "i_string_invalid_lonely_surrogate.json": ["\u{FFFD}"],
        "i_string_invalid_surrogate.json": ["\u{FFFD}abc"],
        "i_string_inverted_surrogates_U+1D11E.json": ["\u{FFFD}\u{FFFD}"],
        "i_string_lone_second_surrogate.json": ["\u{FFFD}"],
    ]

    /// What the out-of-range number files hold: their text when beyond `Double` or 64 bits, else the value.
    static let numberValues: [String: Storage] = [
        "i_number_double_huge_neg_exp.json": .double(0),
        "i_number_real_underflow.json": .double(0),
        "i_number_neg_int_huge_exp.json": .text("-1e+9999"),
        "i_number_pos_double_huge_exp.json": .text("1.5e+9999"),
        "i_number_real_neg_overflow.json": .text("-123123e100000"),
        "i_number_real_pos_overflow.json": .text("123123e100000"),
        "i_number_too_big_neg_int.json": .text("-123123123123123123123123123123"),
        "i_number_too_big_pos_int.json": .text("100000000000000000000"),
        "i_number_very_big_negative_int.json": .text("-237462374673276894279832749832423479823246327846"),
    ]
    typealias Storage = JSON.Number.Storage

    /// The test files, sorted; empty when the suite is not checked out.
    static let files: [String] = {
        guard SharedFixtures.hasJSONTestSuite,
            let names = try? FileManager.default.contentsOfDirectory(atPath: SharedFixtures.testSuiteDirectory.path)
        else { return [] }
        return names.filter { $0.hasSuffix(".json") }.sorted()
    }()

    static func bytes(_ name: String) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: SharedFixtures.testSuiteDirectory.appendingPathComponent(name)))
    }

    // MARK: - Every file

    @Test(.enabled(if: SharedFixtures.hasJSONTestSuite), arguments: files)
    func fileHasItsExpectedOutcome(_ name: String) throws {
        let input = try Self.bytes(name)
        let outcome: Outcome
        do {
            let json = try JSONParser().parse(input)
            // Validation and parsing agree, and the value does not depend on how the bytes are held.
            #expect(throws: Never.self) { try JSONParser().validate(input) }
            #expect(try JSONParser().parse(Data(input)) == json)
            outcome = .accept
        } catch {
            #expect(throws: JSONError.self) { try JSONParser().validate(input) }
            let location = try #require(error.location, "a parse error has a location: \(error)")
            #expect((0...input.count).contains(location.offset))
            #expect(!error.message.isEmpty)
            outcome = .reject(error.code)
        }

        // With lone surrogates rejected, only the lone surrogate files change their outcome.
        let strictOutcome: Outcome
        do {
            _ = try JSONParser(options: .init(loneSurrogates: .reject)).parse(input)
            strictOutcome = .accept
        } catch {
            strictOutcome = .reject(error.code)
        }
        if name.hasPrefix("n_") {
            // A lone surrogate before the mistake may now be reported first; rejected either way.
            #expect(strictOutcome != .accept, "\(name)")
        } else {
            let hasLoneSurrogate = Self.surrogateDecodings[name] != nil
            #expect(strictOutcome == (hasLoneSurrogate ? .reject(.invalidUnicodeEscape) : outcome), "\(name)")
        }

        switch name.prefix(2) {
        case "y_":
            #expect(outcome == .accept, "\(name) must be accepted")
        case "n_":
            #expect(outcome != .accept, "\(name) must be rejected")
        case "i_":
            let expected = try #require(Self.implementationDefined[name], "\(name) is missing from the table")
            #expect(outcome == expected, "\(name)")
        default:
            Issue.record("unexpected file name \(name)")
        }
    }

    /// `n_` files stay rejected under the most permissive options.
    @Test(.enabled(if: SharedFixtures.hasJSONTestSuite), arguments: files.filter { $0.hasPrefix("n_") })
    func invalidFileIsRejectedWithPermissiveOptions(_ name: String) throws {
        let options = JSONParser.Options(
            maximumDepth: JSONParser.Options.maximumAllowedDepth, allowsByteOrderMark: true, loneSurrogates: .replace)
        #expect(throws: JSONError.self) { try JSONParser(options: options).parse(try Self.bytes(name)) }
    }

    @Test(.enabled(if: SharedFixtures.hasJSONTestSuite))
    func directoryHoldsTheWholeSuite() {
        let prefixes = Dictionary(grouping: Self.files) { String($0.prefix(2)) }.mapValues(\.count)
        #expect(Self.files.count == 318)
        #expect(prefixes["y_"] == 95)
        #expect(prefixes["n_"] == 188)
        #expect(prefixes["i_"] == 35)
        // The expectation table names exactly the i_ files there are.
        #expect(Set(Self.files.filter { $0.hasPrefix("i_") }) == Set(Self.implementationDefined.keys))
    }

    /// `Docs/JSONTestSuite.md` lists every `i_` file with the outcome in ``implementationDefined``.
    @Test func documentationMatchesTheTable() throws {
        let docs = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Docs/JSONTestSuite.md")
        let text = try String(contentsOf: docs, encoding: .utf8)
        var documented: [String: Outcome] = [:]
        for line in text.split(separator: "\n") where line.hasPrefix("| `i_") {
            let columns = line.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
            let name = columns[0].trimmingCharacters(in: CharacterSet(charactersIn: "`"))
            guard name.hasSuffix(".json") else { continue }
            let outcome = columns[2]
            if outcome.hasPrefix("accept") {
                documented[name] = .accept
            } else {
                let code = outcome.split(separator: "`").dropFirst().first.map(String.init) ?? outcome
                documented[name] = .reject(JSONError.Code(name: code))
            }
        }
        #expect(documented == Self.implementationDefined)
    }

    // MARK: - Implementation-defined details

    @Test(.enabled(if: SharedFixtures.hasJSONTestSuite), arguments: surrogateDecodings.keys.sorted())
    func loneSurrogateIsReplacedByDefault(_ name: String) throws {
        let json = try JSONParser().parse(try Self.bytes(name))
        #expect(json == Self.surrogateDecodings[name])
    }

    @Test(.enabled(if: SharedFixtures.hasJSONTestSuite), arguments: surrogateDecodings.keys.sorted())
    func loneSurrogateIsRejectedWithRejectPolicy(_ name: String) throws {
        let input = try Self.bytes(name)
        let parser = JSONParser(options: .init(loneSurrogates: .reject))
        let error = try #require(throws: JSONError.self) { try parser.parse(input) }
        #expect(error.code == .invalidUnicodeEscape)
        // The error points at the backslash of the offending escape.
        let offset = try #require(error.location?.offset)
        #expect(input[offset] == UInt8(ascii: "\\"))
        #expect(input[offset + 1] == UInt8(ascii: "u"))
        #expect(error.message.contains("lone UTF-16 surrogate"))
    }

    @Test(.enabled(if: SharedFixtures.hasJSONTestSuite), arguments: numberValues.keys.sorted())
    func outOfRangeNumberIsKept(_ name: String) throws {
        let json = try JSONParser().parse(try Self.bytes(name))
        let number = try #require(json[0].number)
        #expect(number.storage == Self.numberValues[name])
    }

    @Test(.enabled(if: SharedFixtures.hasJSONTestSuite))
    func hugeExponentIsKeptAsText() throws {
        let input = try Self.bytes("i_number_huge_exp.json")
        let json = try JSONParser().parse(input)
        let text = String(decoding: input.dropFirst().dropLast(), as: UTF8.self)
        #expect(json[0].number?.storage == .text(text))
        #expect(json[0].double == .infinity)
    }

    @Test(.enabled(if: SharedFixtures.hasJSONTestSuite))
    func byteOrderMarkIsSkippedWhenAllowed() throws {
        let input = try Self.bytes("i_structure_UTF-8_BOM_empty_object.json")
        let json = try JSONParser(options: .init(allowsByteOrderMark: true)).parse(input)
        #expect(json == .object([:]))
    }

    @Test(.enabled(if: SharedFixtures.hasJSONTestSuite))
    func fiveHundredNestedArraysKeepTheirDepth() throws {
        var json = try JSONParser().parse(try Self.bytes("i_structure_500_nested_arrays.json"))
        var depth = 0
        while let array = json.array {
            depth += 1
            guard let first = array.first else { break }
            #expect(array.count == 1)
            json = first
        }
        #expect(depth == 500)
        // One level below the file's depth is too shallow.
        #expect(throws: JSONError.self) {
            try JSONParser(options: .init(maximumDepth: 499)).parse(
                try Self.bytes("i_structure_500_nested_arrays.json"))
        }
    }
}
