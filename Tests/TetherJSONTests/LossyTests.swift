import Foundation
import Testing
import TetherTestSupport

@testable import TetherJSON

/// The kind and path of a `DecodingError`, to compare in one `#expect`.
struct DecodingErrorSummary: Equatable, CustomStringConvertible {
    enum Kind: String {
        case typeMismatch, valueNotFound, keyNotFound, dataCorrupted, notADecodingError
    }

    var kind: Kind
    /// The coding path as `items[1].itemPrice`; for `keyNotFound` it ends with the missing key.
    var path: String

    init(_ kind: Kind, _ path: String) {
        self.kind = kind
        self.path = path
    }

    init(_ error: any Error) {
        switch error as? DecodingError {
        case .typeMismatch(_, let context)?: self.init(.typeMismatch, LossyFailureText.path(context.codingPath))
        case .valueNotFound(_, let context)?: self.init(.valueNotFound, LossyFailureText.path(context.codingPath))
        case .keyNotFound(let key, let context)?:
            self.init(.keyNotFound, LossyFailureText.path(context.codingPath + [key]))
        case .dataCorrupted(let context)?: self.init(.dataCorrupted, LossyFailureText.path(context.codingPath))
        default: self.init(.notADecodingError, "\(error)")
        }
    }

    var description: String { "\(kind)(\(path))" }

    /// The summary of what `body` throws, or `nil` when it returns.
    static func of(_ body: () throws -> Any) -> DecodingErrorSummary? {
        do {
            _ = try body()
            return nil
        } catch {
            return DecodingErrorSummary(error)
        }
    }
}

// MARK: - Models

private struct Row: Codable, Hashable, Sendable {
    var id: Int
    var name: String
}

private struct Box<Value: Decodable>: Decodable {
    var value: Value
}

private struct Page: Codable, Equatable {
    @Lossy var items: [Row]
    var page: Int
}

private struct LossyBox: Decodable {
    var items: LossyArray<Int>
}

private struct OptionalLossyBox: Decodable {
    var items: LossyArray<Int>?
}

private struct FlexibleBox<Value: FlexibleDecodable & Codable>: Codable {
    @Flexible var value: Value
}

/// `@Flexible var value: Int?` in a concrete type, where the missing-key overload applies.
private struct OptionalFlexibleIntBox: Codable {
    @Flexible var value: Int?
}

private struct EmptyAsNilBox<Value: Codable>: Codable {
    @EmptyAsNil var value: Value?
}

/// A Rakuten-like page whose `Items` key may come in any case.
private struct AnyCaseItems: Decodable {
    var count: Int
    var items: [Int]

    enum CodingKeys: String, CodingKey {
        case count
        case items = "Items"
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        count = try container.decode(Int.self, forKey: .count)
        items = try decoder.decode([Int].self, forKeyIgnoringCase: CodingKeys.items)
    }
}

private struct OptionalAnyCaseItems: Decodable {
    var items: [Int]?

    init(from decoder: any Decoder) throws {
        items = try decoder.decodeIfPresent([Int].self, forKeyIgnoringCase: AnyCaseItems.CodingKeys.items)
    }
}

/// A key for any string, to use the `KeyedDecodingContainer` form of the case-insensitive lookup.
private struct DynamicKey: CodingKey {
    var stringValue: String
    var intValue: Int? { nil }
    init(_ stringValue: String) { self.stringValue = stringValue }
    init?(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
}

private struct DynamicItems: Decodable {
    var items: [Int]
    var extra: String?

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: DynamicKey.self)
        items = try container.decode([Int].self, forKeyIgnoringCase: DynamicKey("Items"))
        extra = try container.decodeIfPresent(String.self, forKeyIgnoringCase: DynamicKey("Extra"))
    }
}

private func encodedText(_ value: some Encodable) throws -> String {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys]
    return String(decoding: try encoder.encode(value), as: UTF8.self)
}

// MARK: - LossyArray

@Suite struct LossyArrayTests {
    @Test(arguments: TestDecoder.allCases)
    func keepsGoodElementsAndRecordsEachBadOne(decoder: TestDecoder) throws {
        // Given an array where three of six elements are not Ints
        let box = try decoder.decode(LossyBox.self, from: #"{"items": [1, "x", 3, null, {"a": [1]}, 6]}"#)

        // Then the good ones decode in order, and each bad one is a failure with its original index and path
        #expect(box.items.elements == [1, 3, 6])
        #expect(box.items.failures.map(\.index) == [1, 3, 4])
        #expect(box.items.failures.map(\.codingPathDescription) == ["items[1]", "items[3]", "items[4]"])
        #expect(
            box.items.failures.map { DecodingErrorSummary($0.error).kind } == [
                .typeMismatch, .valueNotFound, .typeMismatch,
            ])
        #expect(box.items.failures[0].reason.hasPrefix("type mismatch, expected Int"))
        #expect(box.items.failures[1].reason.hasPrefix("value not found, expected Int"))
        #expect(box.items.failures[0].description.hasPrefix("items[1]: type mismatch, expected Int"))
    }

    @Test(arguments: TestDecoder.allCases)
    func failurePathGoesDownToTheBadValue(decoder: TestDecoder) throws {
        // Given objects where one has a bad field and one lacks a field
        let rows = try decoder.decode(
            LossyArray<Row>.self,
            from: #"[{"id": 1, "name": "a"}, {"id": "x", "name": "b"}, {"id": 3}, {"id": 4, "name": "d"}]"#)

        #expect(rows.elements == [Row(id: 1, name: "a"), Row(id: 4, name: "d")])
        #expect(rows.failures.map(\.index) == [1, 2])
        // The path includes the field, and for a missing key ends with that key
        #expect(rows.failures.map(\.codingPathDescription) == ["[1].id", "[2].name"])
        #expect(rows.failures[1].reason == #"key not found: "name""#)
        #expect(rows.failures[1].codingPath.last?.stringValue == "name")
    }

    @Test(arguments: TestDecoder.allCases)
    func skipsBadElementsOfAnyShape(decoder: TestDecoder) throws {
        let values = try decoder.decode(
            LossyArray<Int>.self, from: #"[{"deep": [1, {"x": null}]}, [[], [2]], "s", true, 1.5, null, 7]"#)
        #expect(values.elements == [7])
        #expect(values.failures.map(\.index) == [0, 1, 2, 3, 4, 5])
    }

    @Test(arguments: TestDecoder.allCases)
    func allBadGivesNoElements(decoder: TestDecoder) throws {
        let values = try decoder.decode(LossyArray<Int>.self, from: #"["a", "b"]"#)
        #expect(values.isEmpty)
        #expect(values.failures.map(\.index) == [0, 1])
    }

    @Test(arguments: TestDecoder.allCases)
    func emptyArrayGivesNothing(decoder: TestDecoder) throws {
        let values = try decoder.decode(LossyArray<Int>.self, from: "[]")
        #expect(values.isEmpty)
        #expect(values.failures.isEmpty)
    }

    @Test(arguments: TestDecoder.allCases)
    func nestedLossyArraysRecordFailuresAtEachLevel(decoder: TestDecoder) throws {
        let grid = try decoder.decode(LossyArray<LossyArray<Int>>.self, from: #"[[1, "x", 2], "bad", [3]]"#)

        #expect(grid.map(\.elements) == [[1, 2], [3]])
        #expect(grid.failures.map(\.index) == [1])
        #expect(grid.failures.map(\.codingPathDescription) == ["[1]"])
        #expect(grid[0].failures.map(\.index) == [1])
        #expect(grid[0].failures.map(\.codingPathDescription) == ["[0][1]"])
        #expect(grid[1].failures.isEmpty)
    }

    @Test(arguments: TestDecoder.allCases)
    func theArrayItselfFollowsCodableRules(decoder: TestDecoder) throws {
        // A missing key is an error for a non-optional property…
        #expect(
            DecodingErrorSummary.of { try decoder.decode(LossyBox.self, from: "{}") } == .init(.keyNotFound, "items"))
        // …and nil for an optional one, as is null
        #expect(try decoder.decode(OptionalLossyBox.self, from: "{}").items == nil)
        #expect(try decoder.decode(OptionalLossyBox.self, from: #"{"items": null}"#).items == nil)
        #expect(try decoder.decode(OptionalLossyBox.self, from: #"{"items": [1, "x"]}"#).items == [1])
        // A value that is not an array is not lossy
        #expect(
            DecodingErrorSummary.of { try decoder.decode(LossyBox.self, from: #"{"items": {"a": 1}}"#) }
                == .init(.typeMismatch, "items"))
        #expect(
            DecodingErrorSummary.of { try decoder.decode(LossyBox.self, from: #"{"items": "1,2"}"#) }?.kind
                == .typeMismatch)
        #expect(DecodingErrorSummary.of { try decoder.decode(LossyBox.self, from: #"{"items": null}"#) } != nil)
    }

    @Test(arguments: TestDecoder.allCases)
    func encodesTheGoodElementsAndDecodesBackEqual(decoder: TestDecoder) throws {
        let rows = try decoder.decode(
            LossyArray<Row>.self, from: #"[{"id": 1, "name": "a"}, {"id": "x"}, {"id": 3, "name": "c"}]"#)
        let text = try encodedText(rows)
        #expect(text == #"[{"id":1,"name":"a"},{"id":3,"name":"c"}]"#)

        let again = try decoder.decode(LossyArray<Row>.self, from: text)
        #expect(again == rows)
        #expect(again.failures.isEmpty)
    }

    @Test func equalityAndHashingIgnoreFailures() throws {
        let failure = LossyArray<Int>.Failure(
            index: 1, codingPath: [LossyIndexKey(1)],
            error: DecodingError.dataCorrupted(.init(codingPath: [], debugDescription: "bad")))
        let withFailure = LossyArray([1, 2], failures: [failure])
        let without: LossyArray<Int> = [1, 2]

        #expect(withFailure == without)
        #expect(withFailure.hashValue == without.hashValue)
        #expect(withFailure != [1, 2, 3])
        #expect(failure.codingPathDescription == "[1]")
        #expect(failure.reason == "data corrupted: bad")
        #expect(withFailure.description == "[1, 2] (1 failed)")
    }

    @Test func isARandomAccessCollectionOfTheElements() {
        let values: LossyArray<Int> = [3, 1, 2]
        #expect(values.count == 3)
        #expect(values[1] == 1)
        #expect(Array(values.reversed()) == [2, 1, 3])
        #expect(values.sorted() == [1, 2, 3])
        #expect(values.map { $0 * 2 } == [6, 2, 4])
        #expect(values.index(after: values.startIndex) == 1)
    }
}

// MARK: - @Lossy

@Suite struct LossyWrapperTests {
    @Test(arguments: TestDecoder.allCases)
    func wrapsAPlainArrayAndProjectsTheFailures(decoder: TestDecoder) throws {
        let page = try decoder.decode(
            Page.self, from: #"{"page": 2, "items": [{"id": 1, "name": "a"}, {"id": 2, "name": 5}]}"#)

        #expect(page.items == [Row(id: 1, name: "a")])
        #expect(page.$items.map(\.index) == [1])
        #expect(page.$items.map(\.codingPathDescription) == ["items[1].name"])
        #expect(page.page == 2)
        // Equality ignores failures, as LossyArray's does
        #expect(page == Page(items: [Row(id: 1, name: "a")], page: 2))
    }

    @Test(arguments: TestDecoder.allCases)
    func missingKeyIsAnError(decoder: TestDecoder) {
        #expect(
            DecodingErrorSummary.of { try decoder.decode(Page.self, from: #"{"page": 1}"#) }
                == .init(.keyNotFound, "items"))
    }

    @Test(arguments: TestDecoder.allCases)
    func encodesAsAPlainArray(decoder: TestDecoder) throws {
        let page = try decoder.decode(Page.self, from: #"{"page": 1, "items": [{"id": 1, "name": "a"}, 7]}"#)
        #expect(try encodedText(page) == #"{"items":[{"id":1,"name":"a"}],"page":1}"#)
    }
}

// MARK: - @Flexible

@Suite struct FlexibleTests {
    private static let ints: [(String, Int)] = [
        ("205275", 205275), (#""205275""#, 205275), (#"" 42 ""#, 42), (#""-3""#, -3), (#""+7""#, 7), ("0", 0),
        ("-12", -12),
    ]
    private static let intRejections: [(String, DecodingErrorSummary.Kind)] = [
        ("4.5", .dataCorrupted), ("1e30", .dataCorrupted), (#""abc""#, .dataCorrupted), (#""""#, .dataCorrupted),
        (#""4.5""#, .dataCorrupted), (#""12abc""#, .dataCorrupted), (#""0x10""#, .dataCorrupted),
        ("true", .typeMismatch), ("[1]", .typeMismatch), ("{}", .typeMismatch), ("null", .valueNotFound),
    ]

    @Test(arguments: TestDecoder.allCases, ints)
    func intAcceptsIntegersAndIntegerStrings(decoder: TestDecoder, sample: (json: String, value: Int)) throws {
        #expect(try decoder.decode(FlexibleBox<Int>.self, from: #"{"value": \#(sample.json)}"#).value == sample.value)
    }

    @Test(arguments: TestDecoder.allCases, intRejections)
    func intRejectsEverythingElse(decoder: TestDecoder, sample: (json: String, kind: DecodingErrorSummary.Kind)) {
        let summary = DecodingErrorSummary.of {
            try decoder.decode(FlexibleBox<Int>.self, from: #"{"value": \#(sample.json)}"#)
        }
        #expect(summary == .init(sample.kind, "value"))
    }

    private static let doubles: [(String, Double)] = [
        ("4", 4), ("4.5", 4.5), ("0", 0), ("5", 5), (#""4.5""#, 4.5), (#"" 4.5 ""#, 4.5), (#""4""#, 4),
        (#""-1e3""#, -1000), ("-2.25", -2.25),
    ]
    private static let doubleRejections: [(String, DecodingErrorSummary.Kind)] = [
        (#""abc""#, .dataCorrupted), (#""""#, .dataCorrupted), (#""nan""#, .dataCorrupted),
        (#""inf""#, .dataCorrupted), (#""0x10""#, .dataCorrupted), (#""4.5.1""#, .dataCorrupted),
        ("true", .typeMismatch), ("[4.5]", .typeMismatch), ("{}", .typeMismatch), ("null", .valueNotFound),
    ]

    @Test(arguments: TestDecoder.allCases, doubles)
    func doubleAcceptsNumbersAndNumericStrings(decoder: TestDecoder, sample: (json: String, value: Double)) throws {
        #expect(
            try decoder.decode(FlexibleBox<Double>.self, from: #"{"value": \#(sample.json)}"#).value == sample.value)
    }

    @Test(arguments: TestDecoder.allCases, doubleRejections)
    func doubleRejectsEverythingElse(decoder: TestDecoder, sample: (json: String, kind: DecodingErrorSummary.Kind)) {
        let summary = DecodingErrorSummary.of {
            try decoder.decode(FlexibleBox<Double>.self, from: #"{"value": \#(sample.json)}"#)
        }
        #expect(summary == .init(sample.kind, "value"))
    }

    private static let strings: [(String, String)] = [
        (#""x""#, "x"), (#""100316""#, "100316"), ("123", "123"), ("-5", "-5"), ("4.5", "4.5"), ("true", "true"),
        ("false", "false"), (#""""#, ""),
    ]
    private static let stringRejections: [(String, DecodingErrorSummary.Kind)] = [
        ("[1]", .typeMismatch), (#"{"a": "b"}"#, .typeMismatch), ("null", .valueNotFound),
    ]

    @Test(arguments: TestDecoder.allCases, strings)
    func stringAcceptsStringsNumbersAndBooleans(decoder: TestDecoder, sample: (json: String, value: String)) throws {
        #expect(
            try decoder.decode(FlexibleBox<String>.self, from: #"{"value": \#(sample.json)}"#).value == sample.value)
    }

    @Test(arguments: TestDecoder.allCases, stringRejections)
    func stringRejectsContainersAndNull(
        decoder: TestDecoder, sample: (json: String, kind: DecodingErrorSummary.Kind)
    ) {
        let summary = DecodingErrorSummary.of {
            try decoder.decode(FlexibleBox<String>.self, from: #"{"value": \#(sample.json)}"#)
        }
        #expect(summary == .init(sample.kind, "value"))
    }

    private static let bools: [(String, Bool)] = [
        ("true", true), ("false", false), ("1", true), ("0", false), (#""true""#, true), (#""false""#, false),
        (#""1""#, true), (#""0""#, false), (#""TRUE""#, true), (#"" False ""#, false),
    ]
    private static let boolRejections: [(String, DecodingErrorSummary.Kind)] = [
        ("2", .dataCorrupted), ("-1", .dataCorrupted), ("0.5", .dataCorrupted), (#""yes""#, .dataCorrupted),
        (#""""#, .dataCorrupted), (#""2""#, .dataCorrupted), ("[true]", .typeMismatch), ("{}", .typeMismatch),
        ("null", .valueNotFound),
    ]

    @Test(arguments: TestDecoder.allCases, bools)
    func boolAcceptsBooleansZeroOneAndTheirStrings(decoder: TestDecoder, sample: (json: String, value: Bool))
        throws
    {
        #expect(try decoder.decode(FlexibleBox<Bool>.self, from: #"{"value": \#(sample.json)}"#).value == sample.value)
    }

    @Test(arguments: TestDecoder.allCases, boolRejections)
    func boolRejectsEverythingElse(decoder: TestDecoder, sample: (json: String, kind: DecodingErrorSummary.Kind)) {
        let summary = DecodingErrorSummary.of {
            try decoder.decode(FlexibleBox<Bool>.self, from: #"{"value": \#(sample.json)}"#)
        }
        #expect(summary == .init(sample.kind, "value"))
    }

    @Test(arguments: TestDecoder.allCases)
    func nonOptionalMissingKeyIsKeyNotFound(decoder: TestDecoder) {
        #expect(
            DecodingErrorSummary.of { try decoder.decode(FlexibleBox<Int>.self, from: "{}") }
                == .init(.keyNotFound, "value"))
    }

    @Test(arguments: TestDecoder.allCases)
    func optionalTreatsNullAndMissingAsNil(decoder: TestDecoder) throws {
        #expect(try decoder.decode(OptionalFlexibleIntBox.self, from: "{}").value == nil)
        #expect(try decoder.decode(OptionalFlexibleIntBox.self, from: #"{"value": null}"#).value == nil)
        #expect(try decoder.decode(OptionalFlexibleIntBox.self, from: #"{"value": "5"}"#).value == 5)
        #expect(
            DecodingErrorSummary.of { try decoder.decode(OptionalFlexibleIntBox.self, from: #"{"value": "abc"}"#) }
                == .init(.dataCorrupted, "value"))
    }

    @Test(arguments: TestDecoder.allCases)
    func errorPathIsTheFullPath(decoder: TestDecoder) {
        let summary = DecodingErrorSummary.of {
            try decoder.decode(Box<[FlexibleBox<Int>]>.self, from: #"{"value": [{"value": 1}, {"value": "x"}]}"#)
        }
        #expect(summary == .init(.dataCorrupted, "value[1].value"))
    }

    @Test(arguments: TestDecoder.allCases)
    func encodesThePlainValue(decoder: TestDecoder) throws {
        #expect(try encodedText(decoder.decode(FlexibleBox<Int>.self, from: #"{"value": "5"}"#)) == #"{"value":5}"#)
        #expect(try encodedText(decoder.decode(FlexibleBox<String>.self, from: #"{"value": 5}"#)) == #"{"value":"5"}"#)
        #expect(try encodedText(decoder.decode(FlexibleBox<Bool>.self, from: #"{"value": 1}"#)) == #"{"value":true}"#)
        #expect(try encodedText(decoder.decode(OptionalFlexibleIntBox.self, from: "{}")) == "{}")
        #expect(try encodedText([Flexible<Int?>(wrappedValue: nil)]) == "[null]")
    }

    @Test func isEquatableAndHashableByValue() {
        #expect(Flexible(wrappedValue: 4.5) == Flexible(wrappedValue: 4.5))
        #expect(Flexible(wrappedValue: "a") != Flexible(wrappedValue: "b"))
        #expect(Set([Flexible(wrappedValue: 1), Flexible(wrappedValue: 1)]).count == 1)
    }
}

// MARK: - @EmptyAsNil

@Suite struct EmptyAsNilTests {
    @Test(arguments: TestDecoder.allCases)
    func emptyNullAndMissingAreNil(decoder: TestDecoder) throws {
        #expect(try decoder.decode(EmptyAsNilBox<String>.self, from: #"{"value": ""}"#).value == nil)
        #expect(try decoder.decode(EmptyAsNilBox<String>.self, from: #"{"value": null}"#).value == nil)
        #expect(try decoder.decode(EmptyAsNilBox<String>.self, from: "{}").value == nil)
    }

    @Test(arguments: TestDecoder.allCases)
    func anythingElseDecodesAsWrapped(decoder: TestDecoder) throws {
        #expect(
            try decoder.decode(EmptyAsNilBox<String>.self, from: #"{"value": "2026-12-01 10:00"}"#).value
                == "2026-12-01 10:00")
        #expect(try decoder.decode(EmptyAsNilBox<String>.self, from: #"{"value": " "}"#).value == " ")
        #expect(try decoder.decode(EmptyAsNilBox<Int>.self, from: #"{"value": 5}"#).value == 5)
        #expect(try decoder.decode(EmptyAsNilBox<Int>.self, from: #"{"value": ""}"#).value == nil)
    }

    @Test(arguments: TestDecoder.allCases)
    func aValueWrappedCannotReadIsTheDecodersError(decoder: TestDecoder) {
        #expect(
            DecodingErrorSummary.of { try decoder.decode(EmptyAsNilBox<Int>.self, from: #"{"value": "x"}"#) }
                == .init(.typeMismatch, "value"))
        #expect(
            DecodingErrorSummary.of { try decoder.decode(EmptyAsNilBox<String>.self, from: #"{"value": 5}"#) }
                == .init(.typeMismatch, "value"))
    }

    @Test(arguments: TestDecoder.allCases)
    func usesTheDecodersStrategiesForWrapped(kind: TestDecoder) throws {
        // Given each decoder's date strategy for Rakuten's "YYYY-MM-DD HH:MM" times (Japan time)
        let tokyo = TimeZone(identifier: "Asia/Tokyo")!
        let decode: (String) throws -> Date? = { text in
            switch kind {
            case .foundation:
                let formatter = DateFormatter()
                formatter.locale = Locale(identifier: "en_US_POSIX")
                formatter.timeZone = tokyo
                formatter.dateFormat = "yyyy-MM-dd HH:mm"
                let decoder = JSONDecoder()
                decoder.dateDecodingStrategy = .formatted(formatter)
                return try decoder.decode(EmptyAsNilBox<Date>.self, from: Data(text.utf8)).value
            case .tether:
                var decoder = TetherJSONDecoder()
                decoder.dateDecodingStrategy = .formatted(pattern: "yyyy-MM-dd HH:mm", timeZone: tokyo)
                return try decoder.decode(EmptyAsNilBox<Date>.self, from: text).value
            }
        }

        // Then a time decodes as that Date, and "" as nil
        #expect(try decode(#"{"value": "2026-12-01 10:00"}"#) == Date(timeIntervalSince1970: 1_796_086_800))
        #expect(try decode(#"{"value": ""}"#) == nil)
    }

    @Test(arguments: TestDecoder.allCases)
    func encodesThePlainValueAndOmitsNil(decoder: TestDecoder) throws {
        #expect(try encodedText(decoder.decode(EmptyAsNilBox<String>.self, from: #"{"value": ""}"#)) == "{}")
        #expect(
            try encodedText(decoder.decode(EmptyAsNilBox<String>.self, from: #"{"value": "a"}"#)) == #"{"value":"a"}"#)
        #expect(try encodedText([EmptyAsNil<Int>(wrappedValue: nil), EmptyAsNil(wrappedValue: 2)]) == "[null,2]")
    }
}

// MARK: - Case-insensitive keys

@Suite struct IgnoringCaseTests {
    @Test(arguments: TestDecoder.allCases, [#""Items""#, #""items""#, #""ITEMS""#])
    func decoderFindsTheKeyInAnyCase(decoder: TestDecoder, key: String) throws {
        let page = try decoder.decode(AnyCaseItems.self, from: #"{"count": 2, \#(key): [1, 2]}"#)
        #expect(page.items == [1, 2])
        #expect(page.count == 2)
    }

    @Test(arguments: TestDecoder.allCases)
    func exactSpellingWins(decoder: TestDecoder) throws {
        let page = try decoder.decode(AnyCaseItems.self, from: #"{"count": 0, "items": [1], "Items": [2]}"#)
        #expect(page.items == [2])
    }

    @Test(arguments: TestDecoder.allCases)
    func severalOtherSpellingsAreAmbiguous(decoder: TestDecoder) {
        let summary = DecodingErrorSummary.of {
            try decoder.decode(AnyCaseItems.self, from: #"{"count": 0, "items": [1], "ITEMS": [2]}"#)
        }
        #expect(summary == .init(.dataCorrupted, "Items"))
    }

    @Test(arguments: TestDecoder.allCases)
    func missingKeyIsKeyNotFoundOrNil(decoder: TestDecoder) throws {
        #expect(
            DecodingErrorSummary.of { try decoder.decode(AnyCaseItems.self, from: #"{"count": 0}"#) }
                == .init(.keyNotFound, "Items"))
        #expect(try decoder.decode(OptionalAnyCaseItems.self, from: #"{"count": 0}"#).items == nil)
        #expect(try decoder.decode(OptionalAnyCaseItems.self, from: #"{"iTeMs": null}"#).items == nil)
        #expect(try decoder.decode(OptionalAnyCaseItems.self, from: #"{"iTeMs": [3]}"#).items == [3])
    }

    @Test(arguments: TestDecoder.allCases)
    func errorsInsideKeepTheRealKeyInThePath(decoder: TestDecoder) {
        let summary = DecodingErrorSummary.of {
            try decoder.decode(AnyCaseItems.self, from: #"{"count": 0, "items": [1, "x"]}"#)
        }
        #expect(summary == .init(.typeMismatch, "items[1]"))
    }

    @Test(arguments: TestDecoder.allCases)
    func keyedContainerFormWorksWithKeysForAnyString(decoder: TestDecoder) throws {
        let value = try decoder.decode(DynamicItems.self, from: #"{"items": [1], "EXTRA": "e"}"#)
        #expect(value.items == [1])
        #expect(value.extra == "e")
        #expect(try decoder.decode(DynamicItems.self, from: #"{"Items": [2]}"#).extra == nil)
        #expect(
            DecodingErrorSummary.of { try decoder.decode(DynamicItems.self, from: "{}") }
                == .init(.keyNotFound, "Items"))
    }
}
