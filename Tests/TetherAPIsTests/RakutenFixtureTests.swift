import Foundation
import Testing
import TetherAPIs
import TetherJSON
import TetherTestSupport

/// The shared Rakuten samples (`shared/fixtures/rakuten`) through the module's own types.
@Suite(.enabled(if: SharedFixtures.isAvailable))
struct RakutenFixtureTests {
    static let samples = [
        "search-sample.json", "search-sample-fv1.json", "search-sample-fv2.json", "search-20170706-fv1.json",
        "search-20170706-fv2.json", "search-20220601-fv1.json", "search-20220601-fv2.json",
    ]

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

    private func response(_ file: String) throws -> RakutenSearchResponse {
        try TetherJSONDecoder().decode(RakutenSearchResponse.self, from: SharedFixtures.data("rakuten/\(file)"))
    }

    @Test(arguments: samples)
    func everySampleDecodesWithTheTrapsHandled(file: String) throws {
        let page = try response(file)
        #expect(page.count == 2847 && page.hits == 3 && page.pageCount == 100 && page.page == 1)
        #expect(page.skippedItems == 0)
        try #require(page.items.count == 3)
        let (tea, earphones, rice) = (page.items[0], page.items[1], page.items[2])
        #expect(tea.id == "sample-ocha-shop:10000123")
        #expect(page.items.map(\.itemPrice) == [3240, 4980, 3980])
        #expect(page.items.map(\.price.description) == ["3,240円", "4,980円", "3,980円"])
        // genreId is a string; reviewAverage may be an integer literal; availability is 0/1
        #expect(page.items.map(\.genreId) == ["100316", "564500", "201184"])
        #expect(page.items.map(\.reviewAverage) == [4.56, 4.12, 0])
        #expect(page.items.map(\.reviewCount) == [1284, 356, 0])
        #expect(page.items.map(\.availability) == [true, true, true])
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
    }

    @Test(arguments: [
        ("search-sample-fv1.json", "search-sample-fv2.json"),
        ("search-20170706-fv1.json", "search-20170706-fv2.json"),
        ("search-20220601-fv1.json", "search-20220601-fv2.json"),
    ])
    func formatVersionsOneAndTwoGiveEqualResponses(files: (fv1: String, fv2: String)) throws {
        let one = try response(files.fv1)
        let two = try response(files.fv2)
        #expect(one.items.count == 3)
        #expect(one == two)
    }

    @Test func thePriceRangeIsThereOnlyIn2022() throws {
        let new = try response("search-20220601-fv2.json")
        let old = try response("search-20170706-fv2.json")
        #expect(new.items.map(\.itemPriceMin1) == [3240, 4980, 3980])
        #expect(new.items.map(\.itemPriceMax1) == [3240, 5980, 7480])
        #expect(old.items.allSatisfy { $0.itemPriceMin1 == nil && $0.itemPriceMax1 == nil })
        #expect(old.items.map(\.itemName) == new.items.map(\.itemName))
    }

    @Test func anEmptySearchHasNoItemsAndNoPages() throws {
        let page = try response("search-empty.json")
        #expect(page.items.isEmpty && page.count == 0 && page.pageCount == 0 && page.skippedItems == 0)
    }

    @Test(arguments: errors)
    func everyErrorBodyDecodes(error: (file: String, code: String, message: String)) throws {
        let decoded = try TetherJSONDecoder().decode(
            RakutenAPIError.self, from: SharedFixtures.data("rakuten/errors/\(error.file)"))
        #expect(decoded.code == error.code)
        #expect(decoded.message == error.message)
        #expect(decoded.errorDescription == error.message)
    }
}
