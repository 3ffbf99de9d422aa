import Foundation
import Testing
import TetherAPIs
import TetherJSON
import TetherTestSupport

/// The Rakuten types on their own: decoding edge cases, the sort orders, the yen format, the search's parameters.
@Suite struct RakutenModelTests {
    private func decode<T: Decodable>(_ type: T.Type, _ text: String) throws -> T {
        try TetherJSONDecoder().decode(type, from: Data(text.utf8))
    }

    @Test(arguments: TestDecoder.allCases)
    func aBrokenItemIsSkippedAndCountedWhileTheOthersDecode(decoder: TestDecoder) throws {
        let page = try decoder.decode(
            RakutenSearchResponse.self,
            from: """
                {"count": 2, "page": 1, "pageCount": 1, "Items": [
                  {"Item": {"itemName": "no code"}},
                  {"Item": {"itemCode": "shop:1", "itemName": "ok", "itemPrice": "1200", "genreId": 100316,
                            "reviewAverage": 5, "availability": 0, "startTime": "", "tagIds": [1, "2"]}}
                ]}
                """)
        #expect(page.skippedItems == 1)
        let item = try #require(page.items.first)
        #expect(page.items.count == 1)
        #expect(item.id == "shop:1" && item.itemPrice == 1200 && item.genreId == "100316")
        #expect(item.reviewAverage == 5 && !item.availability && item.startTime == nil && item.tagIds == [1, 2])
        #expect(item.shopName == "" && item.mediumImageUrls.isEmpty)
    }

    @Test func theItemsKeyIsMatchedIgnoringCase() throws {
        let page = try decode(
            RakutenSearchResponse.self,
            #"{"count": 1, "pageCount": 1, "items": [{"itemCode": "a:1", "itemName": "x", "itemPrice": 1}]}"#)
        #expect(page.items.map(\.id) == ["a:1"])
    }

    @Test func aValueOfTheWrongShapeIsADecodingError() {
        #expect(throws: DecodingError.self) {
            try decode(RakutenSearchResponse.self, #"{"count": "many", "Items": []}"#)
        }
        #expect(throws: DecodingError.self) { try decode(RakutenAPIError.self, #"{"message": "not rakuten"}"#) }
    }

    @Test func anItemSurvivesEncodingAndDecoding() throws {
        let item = RakutenItem(
            itemCode: "shop:9", itemName: "見本", itemPrice: 54_800, reviewAverage: 4.5,
            smallImageUrls: ["https://x/a.jpg?_ex=64x64"], startTime: "2026-12-01 10:00")
        let data = try TetherJSONEncoder().encode(item)
        #expect(try TetherJSONDecoder().decode(RakutenItem.self, from: data) == item)
    }

    @Test func yenPricesAreGroupedByThousands() {
        #expect(Yen(0).description == "0円")
        #expect(Yen(999).description == "999円")
        #expect(Yen(1000).description == "1,000円")
        #expect(Yen(1234).description == "1,234円")
        #expect(Yen(54_800).description == "54,800円")
        #expect(Yen(1_234_567).description == "1,234,567円")
        #expect(Yen(-5000).description == "-5,000円")
        #expect(Yen(100) < Yen(101))
    }

    @Test func thereAreElevenSortOrdersSpelledAsTheAPIWantsThem() {
        #expect(RakutenSort.allCases.count == 11)
        #expect(
            Set(RakutenSort.allCases.map(\.rawValue)) == [
                "standard", "+affiliateRate", "-affiliateRate", "+reviewCount", "-reviewCount", "+reviewAverage",
                "-reviewAverage", "+itemPrice", "-itemPrice", "+updateTimestamp", "-updateTimestamp",
            ])
    }

    @Test func aSearchSendsOnlyWhatDiffersFromTheDefaults() {
        let plain = RakutenItemSearch(keyword: "ノートパソコン")
        #expect(plain.path == "/services/api/IchibaItem/Search/20220601")
        #expect(
            plain.queryItems(page: 2).map { "\($0.name)=\($0.value ?? "")" } == [
                "format=json", "formatVersion=2", "keyword=ノートパソコン", "page=2",
            ])
        var full = plain
        full.sort = .itemPriceAscending
        full.minPrice = 1000
        full.maxPrice = 90_000
        full.hits = 10
        full.genreId = 100040
        full.availability = .all
        full.matchesAnyWord = true
        full.excludedKeyword = "中古"
        full.requiresImages = true
        full.shopCode = "shop"
        full.formatVersion = .one
        full.version = .v20170706
        let names = full.queryItems().map(\.name)
        #expect(
            names == [
                "format", "keyword", "shopCode", "genreId", "hits", "sort", "minPrice", "maxPrice", "availability",
                "orFlag", "NGKeyword", "imageFlag", "page",
            ])
        #expect(full.queryItems().first { $0.name == "sort" }?.value == "+itemPrice")
        #expect(full.path.hasSuffix("/20170706"))
        #expect(!names.contains("applicationId"))
    }

    @Test func theKeyNamesTheSearchWhateverThePage() {
        let laptops = RakutenItemSearch(keyword: "ノートパソコン")
        var cheapest = laptops
        cheapest.sort = .itemPriceAscending
        #expect(laptops.key == RakutenItemSearch(keyword: "ノートパソコン").key)
        #expect(laptops.key != cheapest.key)
        #expect(!laptops.key.contains("page="))
        #expect(Query<RakutenItem>.itemSearch(laptops).key == laptops.key)
    }

    @Test func theRakutenClientIsConfiguredForTheAPI() {
        let client = HTTPClient.rakuten(applicationID: "abc") { $0.timeout = .seconds(3) }
        #expect(client.baseURL?.absoluteString == "https://app.rakuten.co.jp")
        #expect(client.configuration.rateLimits["app.rakuten.co.jp"] == .rakuten)
        #expect(client.configuration.apiErrorDecoder != nil)
        #expect(client.configuration.interceptors.count == 1)
        #expect(client.configuration.redactedQueryItems.contains("applicationId"))
        #expect(client.configuration.timeout == .seconds(3))
        #expect(RateLimit.rakuten.requests == 1 && RateLimit.rakuten.interval >= .seconds(1))
    }
}
