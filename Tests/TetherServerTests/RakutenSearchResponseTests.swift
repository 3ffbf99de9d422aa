import Testing
import TetherHTTP1
import TetherJSON

@testable import TetherServer

/// The shape, paging, sorting and filters of search answers.
@Suite struct RakutenSearchResponseTests {
    let base = [("applicationId", "1")]

    /// The item objects of an answer, unwrapped from `{"Item": …}` in fv1.
    private func items(_ body: JSON) -> [JSON] {
        (body["Items"].array ?? []).map { $0["Item"] ?? $0 }
    }

    @Test(
        .enabled(if: RakutenFixtures.isAvailable),
        arguments: [
            ("20170706", 1, "rakuten/search-20170706-fv1.json"), ("20170706", 2, "rakuten/search-20170706-fv2.json"),
            ("20220601", 1, "rakuten/search-20220601-fv1.json"), ("20220601", 2, "rakuten/search-20220601-fv2.json"),
        ])
    func shapeMatchesTheSamples(version: String, formatVersion: Int, fixture: String) async throws {
        let sample = try RakutenFixtures.json(fixture)
        let answer = try await rakutenSearch(
            base + [("keyword", "緑茶"), ("hits", "3"), ("formatVersion", "\(formatVersion)")], version: version)
        #expect(answer.status == 200)
        #expect(answer.body.orderedKeys == sample.orderedKeys)
        let sampleEntry = try #require(sample["Items"][0])
        let entry = try #require(answer.body["Items"][0])
        #expect(entry.orderedKeys == sampleEntry.orderedKeys)  // ["Item"] in fv1, the fields in fv2
        let sampleItem = sampleEntry["Item"] ?? sampleEntry
        let item = entry["Item"] ?? entry
        #expect(item.orderedKeys == sampleItem.orderedKeys)
        // Every field has the sample's JSON kind (genreId a string, tagIds numbers, images objects or strings).
        for key in sampleItem.orderedKeys {
            #expect(item[key]?.kind == sampleItem[key]?.kind, "\(key)")
        }
        let image = try #require(item["mediumImageUrls"][0])
        #expect(image.kind == sampleItem["mediumImageUrls"][0]?.kind)
        let url = try #require(image["imageUrl"].string ?? image.string)
        #expect(url.hasPrefix("http://127.0.0.1:3000/images/"))
        #expect(url.hasSuffix("?_ex=128x128"))
        let small = try #require(item["smallImageUrls"][0])
        #expect((small["imageUrl"].string ?? small.string)?.hasSuffix("?_ex=64x64") == true)
    }

    @Test(.enabled(if: RakutenFixtures.isAvailable))
    func noResultsIsTheEmptyBody() async throws {
        let answer = try await rakutenSearch(base + [("keyword", "存在しない商品名")])
        #expect(answer.status == 200)
        #expect(answer.body == (try RakutenFixtures.json("rakuten/search-empty.json")))
        #expect(String(decoding: answer.bytes, as: UTF8.self).hasPrefix(#"{"count":0,"page":1,"first":0,"#))
    }

    @Test func pagingFields() async throws {
        let first = try await rakutenSearch(base + [("keyword", "コーヒー"), ("hits", "30")])
        let count = try #require(first.body["count"].int)
        #expect(count > 60)
        #expect(first.body["page"].int == 1)
        #expect(first.body["first"].int == 1)
        #expect(first.body["last"].int == 30)
        #expect(first.body["hits"].int == 30)
        #expect(first.body["pageCount"].int == (count + 29) / 30)

        let second = try await rakutenSearch(base + [("keyword", "コーヒー"), ("hits", "30"), ("page", "2")])
        #expect(second.body["first"].int == 31)
        #expect(second.body["last"].int == 60)
        let firstCodes = Set(items(first.body).compactMap { $0["itemCode"].string })
        let secondCodes = Set(items(second.body).compactMap { $0["itemCode"].string })
        #expect(firstCodes.count == 30 && secondCodes.count == 30 && firstCodes.isDisjoint(with: secondCodes))

        let lastPage = (count + 9) / 10
        let tail = try await rakutenSearch(base + [("keyword", "コーヒー"), ("hits", "10"), ("page", "\(lastPage)")])
        #expect(tail.body["hits"].int == count - (lastPage - 1) * 10)
        #expect(tail.body["last"].int == count)
        let beyond = try await rakutenSearch(base + [("keyword", "コーヒー"), ("hits", "10"), ("page", "\(lastPage + 1)")])
        #expect(beyond.body["count"].int == count)
        #expect(beyond.body["hits"].int == 0)
        #expect(beyond.body["first"].int == 0)
        #expect(beyond.body["Items"].array?.isEmpty == true)
    }

    @Test func pageCountIsCappedAt100() async throws {
        let answer = try await rakutenSearch(base + [("genreId", "100026"), ("hits", "1"), ("availability", "0")])
        #expect(try #require(answer.body["count"].int) > 100)
        #expect(answer.body["pageCount"].int == 100)
    }

    @Test(arguments: RakutenSearchOrder.allCases.filter { $0 != .standard })
    func sortOrdersAreSorted(sort: RakutenSearchOrder) async throws {
        // Pages 1 and 5 together: in order, and past the ties at the low end (many items have 0 reviews).
        var list: [JSON] = []
        for page in ["1", "5"] {
            let answer = try await rakutenSearch(
                base + [("keyword", "camera"), ("sort", sort.parameter), ("page", page)])
            let pageItems = items(answer.body)
            #expect(pageItems.count == 30)
            list += pageItems
        }
        let field = String(sort.parameter.dropFirst())
        let ascending = sort.parameter.hasPrefix("+")
        let values: [Double]
        if field == "updateTimestamp" {
            // Not an output field: check against the catalog.
            let byCode = Dictionary(
                uniqueKeysWithValues: RakutenTestCatalog.shared.items.map { ($0.code, Double($0.updateTimestamp)) })
            values = list.compactMap { $0["itemCode"].string.flatMap { byCode[$0] } }
        } else {
            values = list.compactMap { $0[field].double }
        }
        #expect(values.count == 60)
        #expect(values == values.sorted(by: ascending ? (<) : (>)))
        #expect(Set(values).count > 1)
    }

    @Test func standardSortPutsNameMatchesFirst() async throws {
        let answer = try await rakutenSearch(base + [("keyword", "コーヒー")])
        for item in items(answer.body) {
            #expect(item["itemName"].string?.contains("コーヒー") == true)
        }
    }

    @Test func priceFilters() async throws {
        let answer = try await rakutenSearch(
            base + [("keyword", "coffee"), ("minPrice", "2000"), ("maxPrice", "3000"), ("sort", "+itemPrice")])
        let prices = items(answer.body).compactMap { $0["itemPrice"].int }
        #expect(!prices.isEmpty)
        #expect(prices.allSatisfy { (2000...3000).contains($0) })
        let all = try await rakutenSearch(base + [("keyword", "coffee")])
        #expect(try #require(answer.body["count"].int) < (try #require(all.body["count"].int)))
    }

    @Test func keywordsAreANDedORedAndExcluded() async throws {
        func count(_ extra: [(String, String)]) async throws -> Int {
            try #require(try await rakutenSearch(base + extra).body["count"].int)
        }
        let coffee = try await count([("keyword", "コーヒー")])
        let camera = try await count([("keyword", "カメラ")])
        let both = try await count([("keyword", "コーヒー カメラ")])
        let either = try await count([("keyword", "コーヒー カメラ"), ("orFlag", "1")])
        #expect(both < coffee)
        #expect(either >= max(coffee, camera))
        let notDecaf = try await count([("keyword", "コーヒー"), ("NGKeyword", "カフェインレス")])
        #expect(notDecaf < coffee)
        let decaf = try await rakutenSearch(base + [("keyword", "コーヒー"), ("NGKeyword", "カフェインレス")])
        for item in items(decaf.body) {
            #expect(item["itemName"].string?.contains("カフェインレス") == false)
            #expect(item["itemCaption"].string?.contains("カフェインレス") == false)
        }
        // ASCII is case-insensitive and full-width ASCII matches half-width.
        #expect(try await count([("keyword", "CAMERA")]) == (try await count([("keyword", "camera")])))
        #expect(try await count([("keyword", "ｃａｍｅｒａ")]) == (try await count([("keyword", "camera")])))
    }

    @Test func availabilityImageGenreShopAndItemCode() async throws {
        let inStock = try await rakutenSearch(base + [("genreId", "100040")])
        let everything = try await rakutenSearch(base + [("genreId", "100040"), ("availability", "0")])
        #expect(items(inStock.body).allSatisfy { $0["availability"].int == 1 })
        #expect(try #require(inStock.body["count"].int) < (try #require(everything.body["count"].int)))
        #expect(items(everything.body).allSatisfy { $0["genreId"].string == "100040" })

        let withImages = try await rakutenSearch(base + [("genreId", "100026"), ("imageFlag", "1")])
        #expect(items(withImages.body).allSatisfy { $0["imageFlag"].int == 1 })

        let shop = try await rakutenSearch(base + [("shopCode", "sample-ocha-shop")])
        #expect(items(shop.body).allSatisfy { $0["shopCode"].string == "sample-ocha-shop" })
        #expect(try #require(shop.body["count"].int) > 0)

        let code = try #require(items(shop.body).first?["itemCode"].string)
        let one = try await rakutenSearch(base + [("itemCode", code)])
        #expect(one.body["count"].int == 1)
        #expect(items(one.body).first?["itemCode"].string == code)
    }

    @Test func tagAndPropertyFlags() async throws {
        let genre = ("genreId", "201242")
        let all = try #require(try await rakutenSearch(base + [genre]).body["count"].int)
        let filters: [((String, String), (JSON) -> Bool)] = [
            (("tagId", "1000880"), { $0["tagIds"].array?.contains(JSON(1_000_880)) == true }),
            (("postageFlag", "1"), { $0["postageFlag"].int == 0 }),
            (("giftFlag", "1"), { $0["giftFlag"].int == 1 }),
            (("hasReviewFlag", "1"), { ($0["reviewCount"].int ?? 0) > 0 }),
            (("shipOverseasFlag", "1"), { $0["shipOverseasFlag"].int == 1 }),
        ]
        for (parameter, holds) in filters {
            let answer = try await rakutenSearch(base + [genre, parameter])
            let count = try #require(answer.body["count"].int)
            #expect(count > 0 && count < all, "\(parameter)")
            #expect(items(answer.body).allSatisfy(holds), "\(parameter)")
        }
        let points = try await rakutenSearch(base + [genre, ("pointRateFlag", "1"), ("pointRate", "5")])
        #expect(items(points.body).allSatisfy { ($0["pointRate"].int ?? 0) >= 5 })
        #expect(try #require(points.body["count"].int) > 0)
    }

    @Test func elementsFilterItemFields() async throws {
        let answer = try await rakutenSearch(
            base + [("keyword", "camera"), ("elements", "itemName,itemPrice,reviewAverage"), ("formatVersion", "2")])
        #expect(answer.body.orderedKeys.first == "count")
        for item in items(answer.body) {
            #expect(item.orderedKeys == ["itemName", "itemPrice", "reviewAverage"])
        }
    }

    @Test func callbackGivesJSONP() async throws {
        let request = HTTPRequest(
            method: .get,
            target: "/services/api/IchibaItem/Search/20220601?applicationId=1&keyword=camera&hits=1&callback=app.cb_1",
            headers: ["Host": "localhost"])
        let response = try #require(await RakutenTestCatalog.responder.respond(to: request))
        let text = String(decoding: try #require(response.bodyBytes), as: UTF8.self)
        #expect(response.headers["Content-Type"] == "text/javascript; charset=utf-8")
        #expect(text.hasPrefix("app.cb_1({\"count\":"))
        #expect(text.hasSuffix("});"))
    }

    @Test func affiliateIDFillsAffiliateURLs() async throws {
        let answer = try await rakutenSearch(base + [("keyword", "camera"), ("affiliateId", "abc.123"), ("hits", "1")])
        let item = try #require(items(answer.body).first)
        let affiliate = try #require(item["affiliateUrl"].string)
        #expect(affiliate.hasPrefix("https://hb.afl.rakuten.co.jp/hgc/abc.123/?pc=https%3A%2F%2Fitem.rakuten.co.jp%2F"))
        #expect(item["itemUrl"].string == affiliate)
        #expect(item["shopAffiliateUrl"].string?.isEmpty == false)
    }

    @Test func carrierIsEchoedAndHostComesFromTheRequest() async throws {
        let answer = try await rakutenSearch(
            base + [("keyword", "camera"), ("carrier", "2"), ("formatVersion", "2")], host: "example.test:8080")
        #expect(answer.body["carrier"].int == 2)
        let url = try #require(items(answer.body).first?["mediumImageUrls"][0].string)
        #expect(url.hasPrefix("http://example.test:8080/images/"))
    }
}
