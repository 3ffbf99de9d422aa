import Foundation
import Testing
import TetherAPIs
import TetherHTTPTesting

/// Items Rakuten sends that cannot be read are left out of a search's results and counted on the query.
@MainActor
@Suite struct RakutenSkippedItemsTests {
    /// A page of `good` readable items and `broken` ones without an item code.
    nonisolated private static func page(_ number: Int, of pages: Int, good: Int, broken: Int) -> StubResponse {
        var items: [String] = []
        for index in 0..<good {
            items.append(
                #"{"itemCode": "shop:\#(number)-\#(index)", "itemName": "item \#(index)", "itemPrice": 1200}"#)
        }
        for _ in 0..<broken { items.append(#"{"itemName": "no code", "itemPrice": "n/a"}"#) }
        return .json(
            """
            {"count": \(pages * 3), "page": \(number), "first": 1, "last": 3, "hits": 3, "pageCount": \(pages),
             "Items": [\(items.joined(separator: ","))]}
            """)
    }

    @Test func skippedItemsAddUpAcrossPagesAndARefreshCountsAgain() async throws {
        let stub = StubTransport(script: [
            Self.page(1, of: 2, good: 2, broken: 1),
            Self.page(2, of: 2, good: 1, broken: 2),
            Self.page(1, of: 2, good: 3, broken: 0),
        ])
        let client = HTTPClient.rakuten(applicationID: "1234567890123456789") { $0.transport = stub }
        var configuration = EntityStore.Configuration()
        configuration.collectionInterval = nil
        let store = EntityStore(client: client, configuration: configuration)
        let results = store.query(.itemSearch(RakutenItemSearch(keyword: "お茶")))
        await results.load()
        #expect(results.status == .loaded, "\(String(describing: results.error))")
        #expect(results.items.count == 2)
        #expect(results.skippedItems == 1)
        await results.loadMore()
        #expect(results.items.count == 3)
        #expect(results.skippedItems == 3)
        #expect(!results.hasMore)
        await results.refresh()
        #expect(results.items.count == 3)
        #expect(results.skippedItems == 0)
        #expect(stub.requests.count == 3)
    }

    @Test func aLiveQueryPassesTheCountOn() async throws {
        let stub = StubTransport(script: [Self.page(1, of: 1, good: 1, broken: 4)])
        let client = HTTPClient.rakuten(applicationID: "1234567890123456789") { $0.transport = stub }
        var configuration = EntityStore.Configuration()
        configuration.collectionInterval = nil
        let store = EntityStore(client: client, configuration: configuration)
        let search = store.liveQuery(of: RakutenItem.self)
        #expect(search.skippedItems == 0)
        search.select(.itemSearch(RakutenItemSearch(keyword: "コーヒー")))
        await search.settle()
        #expect(search.items.count == 1)
        #expect(search.skippedItems == 4)
    }
}
