import Foundation
import Testing
import TetherAPIs

/// Item searches through the store against the local server's Rakuten API.
@MainActor
@Suite struct RakutenSearchOverSocketsTests {
    /// Loads every page of `state` (at most `limit` pages), returning how many were loaded.
    private func loadAllPages(_ state: QueryState<RakutenItem>, limit: Int = 120) async -> Int {
        var pages = 1
        while state.hasMore && pages < limit {
            await state.loadMore()
            pages += 1
        }
        return pages
    }

    @Test func aSearchForNotebookComputersShowsYenPrices() async throws {
        let server = try await APIServer.start()
        defer { Task { await server.stop() } }
        let store = server.rakutenStore()
        let results = store.query(.itemSearch(RakutenItemSearch(keyword: "ノートパソコン")))
        await results.load()
        #expect(results.status == .loaded, "\(String(describing: results.error))")
        #expect(results.items.count == 30)
        #expect(results.hasMore)
        let direct = try await server.rakutenClient().send(RakutenItemSearch(keyword: "ノートパソコン").request()).value
        #expect(results.totalCount == direct.count)
        #expect(direct.count > 30)
        let yen = /^[1-9][0-9]{0,2}(,[0-9]{3})*円$/
        for item in results.items {
            #expect(item.itemPrice > 0)
            #expect(item.price.description.wholeMatch(of: yen) != nil, "\(item.price)")
            #expect(!item.itemName.isEmpty && !item.shopCode.isEmpty && item.id.hasPrefix(item.shopCode + ":"))
            #expect(item.thumbnailURL != nil || item.mediumImageUrls.isEmpty)
        }
        #expect(results.items.contains { $0.thumbnailURL?.query == "_ex=128x128" })
        #expect(results.items.contains { $0.itemName.contains("ノート") })
        // The same item is one entity in the store
        let first = try #require(results.items.first)
        #expect(store.entity(RakutenItem.self, id: first.id).value == first)
    }

    @Test func aNarrowSearchPagesToItsEndWithoutRepeats() async throws {
        let server = try await APIServer.start()
        defer { Task { await server.stop() } }
        var search = RakutenItemSearch(keyword: "カフェインレスコーヒー")
        search.hits = 10
        let expected = try await server.rakutenClient().send(search.request()).value
        try #require(expected.count > 10, "the keyword should need several pages")
        try #require(expected.count <= 1000, "the keyword should fit in 100 pages")

        let store = server.rakutenStore()
        let results = store.query(.itemSearch(search))
        await results.load()
        let pages = await loadAllPages(results)
        #expect(!results.hasMore)
        #expect(results.error == nil)
        #expect(pages == expected.pageCount)
        #expect(results.ids.count == expected.count)
        #expect(Set(results.ids).count == results.ids.count)
        await results.loadMore()
        #expect(results.ids.count == expected.count)
    }

    @Test func pagingStopsAtTheHundredthPage() async throws {
        let server = try await APIServer.start()
        defer { Task { await server.stop() } }
        var search = RakutenItemSearch(keyword: "ノートパソコン")
        search.hits = 1
        search.availability = .all
        let first = try await server.rakutenClient().send(search.request(page: 99)).value
        try #require(first.count > 100)
        #expect(first.pageCount == 100)
        // Page 100 of the query knows it is the last one.
        let store = server.rakutenStore()
        let results = store.query(.itemSearch(search))
        await results.load()
        let pages = await loadAllPages(results)
        #expect(pages == 100)
        #expect(!results.hasMore)
        #expect(results.ids.count == 100)
    }

    @Test func sortOrdersChangeTheOrder() async throws {
        let server = try await APIServer.start()
        defer { Task { await server.stop() } }
        let store = server.rakutenStore()
        func search(_ sort: RakutenSort) async -> [RakutenItem] {
            let state = store.query(.itemSearch(RakutenItemSearch(keyword: "ノートパソコン", sort: sort)))
            await state.load()
            #expect(state.status == .loaded, "\(sort): \(String(describing: state.error))")
            return state.items
        }
        let standard = await search(.standard)
        let cheapest = await search(.itemPriceAscending)
        let dearest = await search(.itemPriceDescending)
        let mostReviewed = await search(.reviewCountDescending)
        let bestReviewed = await search(.reviewAverageDescending)
        #expect(cheapest.count == 30 && dearest.count == 30)
        #expect(cheapest.map(\.itemPrice) == cheapest.map(\.itemPrice).sorted())
        #expect(dearest.map(\.itemPrice) == dearest.map(\.itemPrice).sorted(by: >))
        #expect(mostReviewed.map(\.reviewCount) == mostReviewed.map(\.reviewCount).sorted(by: >))
        #expect(bestReviewed.map(\.reviewAverage) == bestReviewed.map(\.reviewAverage).sorted(by: >))
        #expect(cheapest.first!.itemPrice < dearest.first!.itemPrice)
        #expect(standard.map(\.id) != cheapest.map(\.id))
    }

    @Test func formatVersionsOneAndTwoGiveTheSameItems() async throws {
        let server = try await APIServer.start()
        defer { Task { await server.stop() } }
        let client = server.rakutenClient()
        var search = RakutenItemSearch(keyword: "コーヒー", hits: 5)
        let two = try await client.send(search.request()).value
        search.formatVersion = .one
        let one = try await client.send(search.request()).value
        #expect(two.items.count == 5)
        #expect(one == two)
    }

    @Test func aMissingApplicationIDGivesRakutensMessage() async throws {
        let server = try await APIServer.start()
        defer { Task { await server.stop() } }
        let store = server.rakutenStore(applicationID: nil)
        let results = store.query(.itemSearch(RakutenItemSearch(keyword: "ノートパソコン")))
        await results.load()
        #expect(results.status == .failed)
        let error = try #require(results.error?.httpError)
        #expect(error.status?.code == 400)
        #expect(error.message == "specify valid applicationId (400)")
        #expect(results.error?.message == "specify valid applicationId (400)")
        guard case .status(let failure) = error.kind else {
            Issue.record("expected a status failure, got \(error)")
            return
        }
        #expect(
            failure.apiError as? RakutenAPIError
                == RakutenAPIError(
                    code: "wrong_parameter", message: "specify valid applicationId"))
        #expect(results.items.isEmpty)
    }

    @Test func aSearchWithoutConditionOrWithABadKeywordGivesRakutensMessage() async throws {
        let server = try await APIServer.start()
        defer { Task { await server.stop() } }
        let client = server.rakutenClient()
        do {
            _ = try await client.send(RakutenItemSearch().request())
            Issue.record("a search without a condition succeeded")
        } catch {
            #expect(error.status?.code == 400)
            #expect(error.message.hasPrefix("keyword or itemCode is essential parameter"))
        }
        let store = server.rakutenStore()
        let bad = store.query(.itemSearch(RakutenItemSearch(keyword: "a")))
        await bad.load()
        #expect(bad.status == .failed)
        #expect(bad.error?.message == "keyword is not valid (400)")
    }

    @Test func theSecondImmediateSearchWaitsForTheRateLimitInsteadOfFailing() async throws {
        let server = try await APIServer.start(rakutenRateLimit: true)
        defer { Task { await server.stop() } }

        // Without the client's limit, requests close together are refused by the server.
        let hasty = server.rakutenClient(applicationID: "hasty-app", rateLimited: false)
        let outcomes = await withTaskGroup(of: HTTPError?.self) { group in
            for keyword in ["ノートパソコン", "コーヒー", "camera"] {
                group.addTask {
                    do throws(HTTPError) {
                        _ = try await hasty.send(RakutenItemSearch(keyword: keyword).request())
                        return nil
                    } catch { return error }
                }
            }
            var outcomes: [HTTPError?] = []
            for await outcome in group { outcomes.append(outcome) }
            return outcomes
        }
        let refused = outcomes.compactMap { $0 }
        #expect(!refused.isEmpty)
        for error in refused {
            #expect(error.status?.code == 429)
            #expect(
                error.message
                    == "number of allowed requests has been exceeded for this API. please try again soon. (429)")
        }

        // With it, the same searches wait for their turn and all succeed (the client does not retry).
        let store = server.rakutenStore(rateLimited: true)
        let laptops = store.query(.itemSearch(RakutenItemSearch(keyword: "ノートパソコン")))
        let coffee = store.query(.itemSearch(RakutenItemSearch(keyword: "コーヒー")))
        await laptops.load()
        await coffee.load()
        #expect(laptops.status == .loaded, "\(String(describing: laptops.error))")
        #expect(coffee.status == .loaded, "\(String(describing: coffee.error))")
        #expect(!laptops.items.isEmpty && !coffee.items.isEmpty)
    }

    @Test func aLiveSearchFollowsTheLatestKeyword() async throws {
        let server = try await APIServer.start()
        defer { Task { await server.stop() } }
        let store = server.rakutenStore()
        let search = store.liveQuery(of: RakutenItem.self)
        search.select(.itemSearch(RakutenItemSearch(keyword: "コーヒー")))
        search.select(.itemSearch(RakutenItemSearch(keyword: "ノートパソコン")))
        await search.settle()
        #expect(search.current?.key == RakutenItemSearch(keyword: "ノートパソコン").key)
        #expect(search.status == .loaded)
        #expect(search.items.count == 30)
    }

    @Test func theApplicationIDGoesOnlyToRakutenPathsAndNeverIntoErrors() async throws {
        let server = try await APIServer.start()
        defer { Task { await server.stop() } }
        let client = server.rakutenClient(applicationID: "secret-app-id-42")
        // json-server would filter by an applicationId query item and find nothing.
        let posts = try await client.send(Request<[Post]>(path: "/posts", query: [("userId", "1")])).value
        #expect(posts.count == 10)
        do {
            _ = try await client.send(RakutenItemSearch(keyword: "a").request())
            Issue.record("an invalid keyword was accepted")
        } catch {
            #expect(error.status?.code == 400)
            #expect(!error.description.contains("secret-app-id-42"))
            // Rakuten checks the id first: this message means it was sent.
            #expect(error.message == "keyword is not valid (400)")
        }
    }
}
