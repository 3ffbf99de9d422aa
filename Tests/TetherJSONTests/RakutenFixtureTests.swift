import Foundation
import Testing
import TetherTestSupport

@testable import TetherJSON

/// The Rakuten samples in `shared/fixtures/rakuten`, decoded with the lossy helpers by every decoder.
@Suite(.enabled(if: SharedFixtures.isAvailable))
struct RakutenFixtureTests {
    /// A search sample and what distinguishes it.
    struct Sample: Sendable, CustomTestStringConvertible {
        var file: String
        var formatVersion: Int
        /// Whether it has the 2022-06-01 fields (`itemPriceBaseField`, `itemPriceMax1`…`itemPriceMin3`).
        var hasPriceRange: Bool

        var testDescription: String { file }
    }

    static let samples = [
        Sample(file: "search-sample.json", formatVersion: 1, hasPriceRange: true),
        Sample(file: "search-sample-fv1.json", formatVersion: 1, hasPriceRange: true),
        Sample(file: "search-sample-fv2.json", formatVersion: 2, hasPriceRange: true),
        Sample(file: "search-20170706-fv1.json", formatVersion: 1, hasPriceRange: false),
        Sample(file: "search-20170706-fv2.json", formatVersion: 2, hasPriceRange: false),
        Sample(file: "search-20220601-fv1.json", formatVersion: 1, hasPriceRange: true),
        Sample(file: "search-20220601-fv2.json", formatVersion: 2, hasPriceRange: true),
    ]

    /// Each error file, with the code, message and gateway status it must decode to.
    static let errors: [(file: String, code: String, message: String, status: Int?)] = [
        (
            "2026-gateway-400-accessKey.json", "400", "accessKey must be present as a query parameter or in the header",
            400
        ),
        ("2026-gateway-403-referrer.json", "403", "REQUEST_CONTEXT_BODY_HTTP_REFERRER_MISSING", 403),
        ("400-keyword-not-valid.json", "wrong_parameter", "keyword is not valid", nil),
        ("400-keyword-too-long.json", "wrong_parameter", "keyword must be under 128 length", nil),
        ("400-missing-applicationId.json", "wrong_parameter", "specify valid applicationId", nil),
        (
            "400-no-search-condition.json", "wrong_parameter",
            "keyword or itemCode is essential parameter, or set genreId value except 0. To search for items in shop, "
                + "please give your shopCode and set genreId to 0", nil
        ),
        ("404-not-found.json", "not_found", "not found", nil),
        (
            "429-too-many-requests.json", "too_many_requests",
            "number of allowed requests has been exceeded for this API. please try again soon.", nil
        ),
        ("500-system-error.json", "system_error", "api logic error", nil),
        ("503-service-unavailable.json", "service_unavailable", "IchibaItem/Search is under maintenance", nil),
    ]

    static let sampleCases = LossyTestDecoder.allCases.flatMap { decoder in samples.map { (decoder, $0) } }

    // MARK: Helpers

    private static func text(_ file: String) throws -> String {
        String(decoding: try SharedFixtures.data("rakuten/\(file)"), as: UTF8.self)
    }

    /// The items of a sample, as formatVersion 2 spells them, checking that none failed.
    private static func items(
        _ sample: Sample, text: String, decoder: LossyTestDecoder
    ) throws -> (page: (count: Int, hits: Int, pageCount: Int), items: [RakutenItemV2]) {
        if sample.formatVersion == 1 {
            let response = try decoder.decode(RakutenSearchV1.self, from: text)
            #expect(response.items.failures.isEmpty, "\(response.items.failures)")
            return ((response.count, response.hits, response.pageCount), response.items.map(\.item.flattened))
        } else {
            let response = try decoder.decode(RakutenSearchV2.self, from: text)
            #expect(response.items.failures.isEmpty, "\(response.items.failures)")
            return ((response.count, response.hits, response.pageCount), response.items.elements)
        }
    }

    /// Replaces the one occurrence of `target` in `text`, failing the test if it is not there exactly once.
    private static func replacingOnce(_ target: String, with replacement: String, in text: String) -> String {
        let parts = text.components(separatedBy: target)
        #expect(parts.count == 2, "expected one \(target.debugDescription)")
        return parts.joined(separator: replacement)
    }

    // MARK: The directory

    @Test func everyFileIsCovered() throws {
        let directory = SharedFixtures.sharedDirectory.appendingPathComponent("fixtures/rakuten")
        let files = try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0.hasSuffix(".json") }
        #expect(Set(files) == Set(Self.samples.map(\.file) + ["search-empty.json"]))
        let errorFiles = try FileManager.default.contentsOfDirectory(
            atPath: directory.appendingPathComponent("errors").path)
        #expect(Set(errorFiles) == Set(Self.errors.map(\.file)))
    }

    // MARK: Search samples

    @Test(arguments: sampleCases)
    func decodesEverySample(decoder: LossyTestDecoder, sample: Sample) throws {
        let (page, items) = try Self.items(sample, text: Self.text(sample.file), decoder: decoder)

        #expect(page.count == 2847)
        #expect(page.hits == 3)
        #expect(page.pageCount == 100)
        try #require(items.count == 3)
        let (tea, earphones, rice) = (items[0], items[1], items[2])

        // Strings, ints and the genreId string
        #expect(tea.itemName == "【送料無料】静岡県産 深蒸し煎茶 100g×3袋セット 一番摘み 日本茶 緑茶 お茶 ギフト")
        #expect(tea.itemCode == "sample-ocha-shop:10000123")
        #expect(items.map(\.itemPrice) == [3240, 4980, 3980])
        #expect(items.map(\.genreId) == ["100316", "564500", "201184"])
        #expect(items.map(\.tagIds) == [[1_000_886, 1_007_547], [1_000_901], []])
        #expect(items.map(\.shopCode) == ["sample-ocha-shop", "sample-gadget-store", "sample-kome-ya"])
        #expect(earphones.shopName == "ガジェット見本市場 楽天市場店")
        #expect(rice.catchcopy == "")

        // Numbers that need Double even when written as integers
        #expect(items.map(\.reviewAverage) == [4.56, 4.12, 0])
        #expect(items.map(\.affiliateRate) == [4, 8, 2.5])
        #expect(items.map(\.reviewCount) == [1284, 356, 0])

        // Flags as Bools, codes as Ints
        #expect(items.map(\.availability) == [true, true, true])
        #expect(items.map(\.giftFlag) == [true, false, false])
        #expect(items.map(\.shipOverseasFlag) == [false, true, false])
        #expect(items.map(\.postageFlag) == [0, 0, 1])
        #expect(earphones.shipOverseasAreas == ["アメリカ", "カナダ", "台湾"])

        // Empty strings as nil
        #expect(tea.startTime == nil)
        #expect(tea.endTime == nil)
        #expect(tea.affiliateUrl == nil)
        #expect(tea.asurakuClosingTime == nil)
        #expect(rice.startTime == "2026-12-01 10:00")
        #expect(rice.endTime == "2026-12-05 09:59")
        #expect(earphones.pointRateStartTime == "2026-12-01 00:00")
        #expect(earphones.pointRateEndTime == "2026-12-07 23:59")
        #expect(rice.pointRateStartTime == nil)

        // Images, whichever way they were spelled
        #expect(items.map(\.mediumImageUrls.count) == [3, 3, 1])
        #expect(
            rice.mediumImageUrls == [
                "https://thumbnail.image.rakuten.co.jp/@0_mall/sample-kome-ya/cabinet/yumepirika-5kg_01.jpg?_ex=128x128"
            ])
        #expect(tea.smallImageUrls.allSatisfy { $0.hasSuffix("?_ex=64x64") })

        // The price range of 2022-06-01 only
        if sample.hasPriceRange {
            #expect(items.map(\.itemPriceBaseField) == ["item_price_min3", "item_price_min3", "item_price_min3"])
            #expect(items.map(\.itemPriceMax1) == [3240, 5980, 7480])
            #expect(items.map(\.itemPriceMin1) == [3240, 4980, 3980])
            #expect(earphones.itemPriceMax3 == 5980)
            #expect(rice.itemPriceMin3 == 3980)
        } else {
            #expect(items.allSatisfy { $0.itemPriceBaseField == nil && $0.itemPriceMax1 == nil })
            #expect(items.allSatisfy { $0.itemPriceMin3 == nil && $0.itemPriceMax3 == nil })
        }
    }

    @Test(
        arguments: LossyTestDecoder.allCases,
        [
            ("search-sample-fv1.json", "search-sample-fv2.json"),
            ("search-sample.json", "search-sample-fv2.json"),
            ("search-20170706-fv1.json", "search-20170706-fv2.json"),
            ("search-20220601-fv1.json", "search-20220601-fv2.json"),
        ])
    func formatVersionsOneAndTwoDecodeToEqualItems(decoder: LossyTestDecoder, files: (fv1: String, fv2: String)) throws
    {
        let v1 = try decoder.decode(RakutenSearchV1.self, from: Self.text(files.fv1))
        let v2 = try decoder.decode(RakutenSearchV2.self, from: Self.text(files.fv2))
        #expect(v1.items.count == 3)
        #expect(v1.items.map(\.item.flattened) == v2.items.elements)
        #expect(v1.count == v2.count && v1.page == v2.page && v1.last == v2.last)
    }

    @Test(arguments: LossyTestDecoder.allCases)
    func theVersionsDifferInTheirItems(decoder: LossyTestDecoder) throws {
        // The 2017 and 2022 samples hold the same items apart from the price range
        let old = try decoder.decode(RakutenSearchV2.self, from: Self.text("search-20170706-fv2.json"))
        let new = try decoder.decode(RakutenSearchV2.self, from: Self.text("search-20220601-fv2.json"))
        #expect(old.items != new.items)
        #expect(old.items.map(\.itemName) == new.items.map(\.itemName))
    }

    @Test(arguments: LossyTestDecoder.allCases)
    func aModelForTheOtherVersionFailsEveryItem(decoder: LossyTestDecoder) throws {
        // fv2 items have no {"Item": …} wrapper
        let v1OfV2 = try decoder.decode(RakutenSearchV1.self, from: Self.text("search-sample-fv2.json"))
        #expect(v1OfV2.items.isEmpty)
        #expect(
            v1OfV2.items.failures.map(\.codingPathDescription) == ["Items[0].Item", "Items[1].Item", "Items[2].Item"])
        #expect(v1OfV2.items.failures.allSatisfy { DecodingErrorSummary($0.error).kind == .keyNotFound })

        // fv1 entries are wrappers, without the item's fields at their top
        let v2OfV1 = try decoder.decode(RakutenSearchV2.self, from: Self.text("search-sample-fv1.json"))
        #expect(v2OfV1.items.isEmpty)
        #expect(v2OfV1.items.failures.map(\.index) == [0, 1, 2])
    }

    @Test(arguments: LossyTestDecoder.allCases)
    func emptySearchHasNoItems(decoder: LossyTestDecoder) throws {
        let text = try Self.text("search-empty.json")
        for response in [
            try decoder.decode(RakutenSearchV1.self, from: text).items.count,
            try decoder.decode(RakutenSearchV2.self, from: text).items.count,
        ] {
            #expect(response == 0)
        }
        let page = try decoder.decode(RakutenSearchV1.self, from: text)
        #expect(page.count == 0 && page.first == 0 && page.last == 0 && page.pageCount == 0)
        #expect(page.items.failures.isEmpty && page.genreInformation.isEmpty && page.tagInformation.isEmpty)
    }

    @Test(arguments: sampleCases)
    func itemsKeyMatchesInAnyCase(decoder: LossyTestDecoder, sample: Sample) throws {
        let text = try Self.text(sample.file)
        let original = try Self.items(sample, text: text, decoder: decoder).items
        for spelling in [#""items":"#, #""ITEMS":"#] {
            let respelled = Self.replacingOnce(#""Items":"#, with: spelling, in: text)
            #expect(try Self.items(sample, text: respelled, decoder: decoder).items == original)
        }
    }

    // MARK: A corrupted page

    @Test(arguments: LossyTestDecoder.allCases, ["Items", "items"])
    func aCorruptedItemIsAFailureAndTheOthersDecode(decoder: LossyTestDecoder, itemsKey: String) throws {
        // Given the fv1 sample with the second item's price not a number and the third item's genreId removed
        var text = try Self.text("search-sample.json")
        text = Self.replacingOnce(#""itemPrice": 4980,"#, with: #""itemPrice": "abc","#, in: text)
        text = Self.replacingOnce(#""genreId": "201184","#, with: "", in: text)
        text = Self.replacingOnce(#""Items":"#, with: #""\#(itemsKey)":"#, in: text)

        // When it is decoded
        let page = try decoder.decode(RakutenSearchV1.self, from: text)

        // Then the first item decodes, and the other two are failures that say where and why
        #expect(page.items.map(\.item.itemCode) == ["sample-ocha-shop:10000123"])
        try #require(page.items.failures.count == 2)
        let (price, genre) = (page.items.failures[0], page.items.failures[1])
        #expect(price.index == 1)
        #expect(price.codingPathDescription == "\(itemsKey)[1].Item.itemPrice")
        #expect(DecodingErrorSummary(price.error) == .init(.dataCorrupted, "\(itemsKey)[1].Item.itemPrice"))
        #expect(price.reason.contains("abc"))
        #expect(genre.index == 2)
        #expect(genre.codingPathDescription == "\(itemsKey)[2].Item.genreId")
        #expect(genre.reason == #"key not found: "genreId""#)
    }

    @Test(arguments: LossyTestDecoder.allCases)
    func aCorruptedFormatVersionTwoItemHasAFlatPath(decoder: LossyTestDecoder) throws {
        let text = Self.replacingOnce(
            #""reviewAverage": 4.12,"#, with: #""reviewAverage": "n/a","#, in: try Self.text("search-sample-fv2.json"))
        let page = try decoder.decode(RakutenSearchV2.self, from: text)
        #expect(page.items.map(\.genreId) == ["100316", "201184"])
        #expect(page.items.failures.map(\.index) == [1])
        #expect(page.items.failures.map(\.codingPathDescription) == ["Items[1].reviewAverage"])
    }

    // MARK: Errors

    @Test(arguments: LossyTestDecoder.allCases, errors.map(\.file))
    func decodesEveryErrorFile(decoder: LossyTestDecoder, file: String) throws {
        let expected = try #require(Self.errors.first { $0.file == file })
        let error = try decoder.decode(RakutenErrorResponse.self, from: Self.text("errors/\(file)"))
        #expect(error.code == expected.code)
        #expect(error.message == expected.message)
        #expect(error.statusCode == expected.status)
        #expect(error.shape == (expected.status == nil ? .classic : .gateway))
    }

    @Test(arguments: LossyTestDecoder.allCases)
    func classicErrorKeysMayComeInEitherOrder(decoder: LossyTestDecoder) throws {
        let descriptionFirst = #"{"error_description": "not found", "error": "not_found"}"#
        let errorFirst = try Self.text("errors/404-not-found.json")
        let a = try decoder.decode(RakutenErrorResponse.self, from: descriptionFirst)
        let b = try decoder.decode(RakutenErrorResponse.self, from: errorFirst)
        #expect(a == b)
        #expect(a.code == "not_found")
    }

    @Test(arguments: LossyTestDecoder.allCases)
    func errorAndSearchBodiesAreNotMistakenForEachOther(decoder: LossyTestDecoder) throws {
        let errorText = try Self.text("errors/429-too-many-requests.json")
        #expect(
            DecodingErrorSummary.of { try decoder.decode(RakutenSearchV1.self, from: errorText) }
                == .init(.keyNotFound, "count"))
        #expect(
            DecodingErrorSummary.of {
                try decoder.decode(RakutenErrorResponse.self, from: Self.text("search-empty.json"))
            }
                == .init(.keyNotFound, "error"))
    }
}
