import Testing
import TetherHTTP1
import TetherJSON

@testable import TetherServer

/// The generated catalog: size, determinism, believable and distinct content.
@Suite struct RakutenCatalogTests {
    @Test func hasTenThousandItemsWithUniqueCodes() {
        let catalog = RakutenTestCatalog.shared
        #expect(catalog.count == 10_000)
        #expect(Set(catalog.items.map(\.code)).count == catalog.count)
        #expect(catalog.items.map(\.id) == Array(1...10_000))
        #expect(Set(catalog.items.map(\.genreID)).count >= 20)
        #expect(Set(catalog.items.map(\.shopCode)).count >= 20)
    }

    @Test func sameSeedSameCatalogOtherSeedOtherCatalog() {
        let again = RakutenCatalog(seed: 1, count: 500)
        #expect(again.items == Array(RakutenTestCatalog.shared.items.prefix(500)))
        let other = RakutenCatalog(seed: 2, count: 500)
        #expect(other.items.map(\.name) != again.items.map(\.name))
        #expect(RakutenCatalog(seed: 7, count: 0).count == 0)
    }

    @Test func fieldsLookLikeTheRealAPI() {
        let items = RakutenTestCatalog.shared.items
        for item in items.prefix(2000) {
            #expect(item.code.hasPrefix(item.shopCode + ":1000"))
            #expect(item.url.hasPrefix("https://item.rakuten.co.jp/\(item.shopCode)/"))
            #expect(item.shopURL == "https://www.rakuten.co.jp/\(item.shopCode)/")
            #expect(item.priceMax >= item.price && item.price > 0)
            #expect(item.caption.contains("\n"))
            #expect((0...3).contains(item.imageCount))
            #expect(item.reviewCount > 0 || item.reviewAverage == 0)
            #expect((0...5).contains(item.reviewAverage))
            for time in [item.startTime, item.endTime, item.pointRateStartTime, item.pointRateEndTime] {
                #expect(time.isEmpty || time.utf8.count == 16)
            }
        }
        #expect(items.contains { $0.reviewCount == 0 })
        #expect(items.contains { $0.reviewAverage > 0 && $0.reviewAverage == $0.reviewAverage.rounded() })
        #expect(items.contains { $0.priceMax > $0.price })
        #expect(items.contains { !$0.startTime.isEmpty })
        #expect(items.contains { $0.availability == 0 })
        #expect(items.contains { $0.imageCount == 0 })
    }

    @Test(arguments: [("ノートパソコン", 100040), ("コーヒー", 201242), ("camera", 110041)])
    func searchesReturnTheirGenre(keyword: String, genre: Int) async throws {
        let answer = try await rakutenSearch([("applicationId", "1"), ("keyword", keyword)])
        let items = try #require(answer.body["Items"].array)
        #expect(items.count == 30)
        let genres = items.compactMap { $0["Item"]["genreId"].string }
        #expect(genres.allSatisfy { $0 == String(genre) })
        let names = items.compactMap { $0["Item"]["itemName"].string }
        #expect(Set(names).count > 20)
    }

    @Test func pagesForDifferentKeywordsAreDistinct() async throws {
        var pages: [Set<String>] = []
        for keyword in ["ノートパソコン", "コーヒー", "camera"] {
            let answer = try await rakutenSearch([("applicationId", "1"), ("keyword", keyword)])
            pages.append(Set((answer.body["Items"].array ?? []).compactMap { $0["Item"]["itemCode"].string }))
        }
        #expect(pages.allSatisfy { $0.count == 30 })
        #expect(pages[0].isDisjoint(with: pages[1]) && pages[1].isDisjoint(with: pages[2]))
        #expect(pages[0].isDisjoint(with: pages[2]))
    }
}
