import Foundation
import Testing
import TetherAPIs
import TetherTestSupport

/// The shared Rakuten samples (`shared/fixtures/rakuten`) through the module's own types, with either decoder.
@Suite(.enabled(if: SharedFixtures.contains("rakuten")))
struct RakutenFixtureTests {
    /// A search sample, and whether it has the 2022-06-01 price range (`itemPriceMin1`, `itemPriceMax1`…).
    struct Sample: Sendable, CustomTestStringConvertible {
        var file: String
        var hasPriceRange: Bool

        var testDescription: String { file }
    }

    static let samples = [
        Sample(file: "search-sample.json", hasPriceRange: true),
        Sample(file: "search-sample-fv1.json", hasPriceRange: true),
        Sample(file: "search-sample-fv2.json", hasPriceRange: true),
        Sample(file: "search-20170706-fv1.json", hasPriceRange: false),
        Sample(file: "search-20170706-fv2.json", hasPriceRange: false),
        Sample(file: "search-20220601-fv1.json", hasPriceRange: true),
        Sample(file: "search-20220601-fv2.json", hasPriceRange: true),
    ]

    static let sampleCases = TestDecoder.allCases.flatMap { decoder in samples.map { (decoder, $0) } }

    static let errors: [(file: String, code: String, message: String)] = [
        ("2026-gateway-400-accessKey.json", "400", "accessKey must be present as a query parameter or in the header"),
        ("2026-gateway-403-referrer.json", "403", "REQUEST_CONTEXT_BODY_HTTP_REFERRER_MISSING"),
        ("400-keyword-not-valid.json", "wrong_parameter", "keyword is not valid"),
        ("400-keyword-too-long.json", "wrong_parameter", "keyword must be under 128 length"),
        ("400-missing-applicationId.json", "wrong_parameter", "specify valid applicationId"),
        (
            "400-no-search-condition.json", "wrong_parameter",
            "keyword or itemCode is essential parameter, or set genreId value except 0. To search for items in shop, "
                + "please give your shopCode and set genreId to 0"
        ),
        ("404-not-found.json", "not_found", "not found"),
        (
            "429-too-many-requests.json", "too_many_requests",
            "number of allowed requests has been exceeded for this API. please try again soon."
        ),
        ("500-system-error.json", "system_error", "api logic error"),
        ("503-service-unavailable.json", "service_unavailable", "IchibaItem/Search is under maintenance"),
    ]

    private static func response(_ file: String, _ decoder: TestDecoder) throws -> RakutenSearchResponse {
        try decoder.decode(RakutenSearchResponse.self, from: SharedFixtures.data("rakuten/\(file)"))
    }

    @Test func everyFileIsCovered() throws {
        let files = try FileManager.default.contentsOfDirectory(atPath: SharedFixtures.url("rakuten").path)
            .filter { $0.hasSuffix(".json") }
        #expect(Set(files) == Set(Self.samples.map(\.file) + ["search-empty.json"]))
        let errorFiles = try FileManager.default.contentsOfDirectory(atPath: SharedFixtures.url("rakuten/errors").path)
        #expect(Set(errorFiles) == Set(Self.errors.map(\.file)))
    }

    @Test(arguments: sampleCases)
    func everySampleDecodesWithTheTrapsHandled(decoder: TestDecoder, sample: Sample) throws {
        let page = try Self.response(sample.file, decoder)
        #expect(page.count == 2847 && page.hits == 3 && page.pageCount == 100 && page.page == 1)
        #expect(page.skippedItems == 0)
        try #require(page.items.count == 3)
        let (tea, earphones, rice) = (page.items[0], page.items[1], page.items[2])
        #expect(tea.id == "sample-ocha-shop:10000123")
        #expect(tea.itemName == "【送料無料】静岡県産 深蒸し煎茶 100g×3袋セット 一番摘み 日本茶 緑茶 お茶 ギフト")
        #expect(rice.catchcopy == "")
        #expect(page.items.map(\.itemPrice) == [3240, 4980, 3980])
        #expect(page.items.map(\.price.description) == ["3,240円", "4,980円", "3,980円"])
        // genreId is a string; reviewAverage and affiliateRate may be integer literals; availability is 0/1
        #expect(page.items.map(\.genreId) == ["100316", "564500", "201184"])
        #expect(page.items.map(\.reviewAverage) == [4.56, 4.12, 0])
        #expect(page.items.map(\.affiliateRate) == [4, 8, 2.5])
        #expect(page.items.map(\.reviewCount) == [1284, 356, 0])
        #expect(page.items.map(\.availability) == [true, true, true])
        #expect(page.items.map(\.postageFlag) == [0, 0, 1])
        #expect(page.items.map(\.tagIds) == [[1_000_886, 1_007_547], [1_000_901], []])
        #expect(earphones.shopName == "ガジェット見本市場 楽天市場店")
        #expect(page.items.map(\.shopCode) == ["sample-ocha-shop", "sample-gadget-store", "sample-kome-ya"])
        // Empty times are nil
        #expect(tea.startTime == nil && tea.endTime == nil)
        #expect(rice.startTime == "2026-12-01 10:00" && rice.endTime == "2026-12-05 09:59")
        // Image URLs, whether objects (fv1) or strings (fv2)
        #expect(page.items.map(\.mediumImageUrls.count) == [3, 3, 1])
        #expect(tea.smallImageUrls.allSatisfy { $0.hasSuffix("?_ex=64x64") })
        #expect(
            rice.thumbnailURL?.absoluteString
                == "https://thumbnail.image.rakuten.co.jp/@0_mall/sample-kome-ya/cabinet/yumepirika-5kg_01.jpg?_ex=128x128"
        )
        #expect(tea.itemURL?.scheme == "https")
        // The price range of 2022-06-01 only
        if sample.hasPriceRange {
            #expect(page.items.map(\.itemPriceMin1) == [3240, 4980, 3980])
            #expect(page.items.map(\.itemPriceMax1) == [3240, 5980, 7480])
        } else {
            #expect(page.items.allSatisfy { $0.itemPriceMin1 == nil && $0.itemPriceMax1 == nil })
        }
    }

    @Test(
        arguments: TestDecoder.allCases,
        [
            ("search-sample-fv1.json", "search-sample-fv2.json"),
            ("search-sample.json", "search-sample-fv2.json"),
            ("search-20170706-fv1.json", "search-20170706-fv2.json"),
            ("search-20220601-fv1.json", "search-20220601-fv2.json"),
        ])
    func formatVersionsOneAndTwoGiveEqualResponses(decoder: TestDecoder, files: (fv1: String, fv2: String)) throws {
        let one = try Self.response(files.fv1, decoder)
        let two = try Self.response(files.fv2, decoder)
        #expect(one.items.count == 3)
        #expect(one == two)
    }

    @Test(arguments: TestDecoder.allCases)
    func thePriceRangeIsAllThatDiffersBetween2017And2022(decoder: TestDecoder) throws {
        let new = try Self.response("search-20220601-fv2.json", decoder)
        let old = try Self.response("search-20170706-fv2.json", decoder)
        #expect(new.items != old.items)
        var withoutRange = new.items
        for index in withoutRange.indices {
            withoutRange[index].itemPriceMin1 = nil
            withoutRange[index].itemPriceMax1 = nil
        }
        #expect(withoutRange == old.items)
    }

    @Test(arguments: sampleCases)
    func theItemsKeyMatchesInAnyCase(decoder: TestDecoder, sample: Sample) throws {
        let original = try Self.response(sample.file, decoder)
        #expect(original.items.count == 3)
        for spelling in [#""items":"#, #""ITEMS":"#] {
            let respelled = try SharedFixtures.text("rakuten/\(sample.file)", replacingOnce: [(#""Items":"#, spelling)])
            #expect(try decoder.decode(RakutenSearchResponse.self, from: respelled) == original)
        }
    }

    @Test(arguments: TestDecoder.allCases, ["Items", "items"])
    func aCorruptedItemIsSkippedAndAMissingFieldTakesItsDefault(decoder: TestDecoder, itemsKey: String) throws {
        // Given the fv1 sample with the second item's price not a number and the third item's genreId removed
        let text = try SharedFixtures.rakutenSampleWithBrokenItems(itemsKey: itemsKey)

        // When the app's model decodes it
        let page = try decoder.decode(RakutenSearchResponse.self, from: text)

        // Then the second item is skipped and counted, and the third has the default genre
        #expect(page.items.map(\.id) == ["sample-ocha-shop:10000123", "sample-kome-ya:10000042"])
        #expect(page.skippedItems == 1)
        #expect(page.items.map(\.genreId) == ["100316", "0"])
    }

    @Test(arguments: TestDecoder.allCases)
    func anEmptySearchHasNoItemsAndNoPages(decoder: TestDecoder) throws {
        let page = try Self.response("search-empty.json", decoder)
        #expect(page.items.isEmpty && page.count == 0 && page.first == 0 && page.last == 0)
        #expect(page.pageCount == 0 && page.skippedItems == 0)
    }

    @Test(arguments: TestDecoder.allCases, errors.map(\.file))
    func everyErrorBodyDecodes(decoder: TestDecoder, file: String) throws {
        let expected = try #require(Self.errors.first { $0.file == file })
        let decoded = try decoder.decode(RakutenAPIError.self, from: SharedFixtures.data("rakuten/errors/\(file)"))
        #expect(decoded.code == expected.code)
        #expect(decoded.message == expected.message)
        #expect(decoded.errorDescription == expected.message)
    }

    @Test(arguments: TestDecoder.allCases)
    func classicErrorKeysMayComeInEitherOrder(decoder: TestDecoder) throws {
        let descriptionFirst = #"{"error_description": "not found", "error": "not_found"}"#
        let a = try decoder.decode(RakutenAPIError.self, from: descriptionFirst)
        let b = try decoder.decode(RakutenAPIError.self, from: SharedFixtures.data("rakuten/errors/404-not-found.json"))
        #expect(a == b)
        #expect(a.code == "not_found")
    }

    @Test(arguments: TestDecoder.allCases)
    func aSearchBodyIsNotAnError(decoder: TestDecoder) throws {
        #expect(throws: DecodingError.self) {
            try decoder.decode(RakutenAPIError.self, from: SharedFixtures.data("rakuten/search-sample.json"))
        }
    }
}
