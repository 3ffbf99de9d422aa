import Foundation
import Testing
import TetherAPIs

/// The README's examples of the typed APIs, as written there (but against the local server), so they compile
/// and do what the README says.
@MainActor
@Suite struct ReadmeExampleTests {
    @Test func rakutenItemSearch() async throws {
        let server = try await APIServer.start()
        defer { Task { await server.stop() } }
        let rakuten = EntityStore(
            client: .rakuten(applicationID: "1234567890123456789", baseURL: server.app.baseURL) {
                $0.rateLimits = [:]
            })

        var search = RakutenItemSearch(keyword: "ノートパソコン")
        search.sort = .itemPriceAscending
        search.maxPrice = 100_000

        let results = rakuten.query(.itemSearch(search))
        await results.load()
        var lines: [String] = []
        for item in results.items {
            lines.append("\(item.itemName) \(item.price)")
        }
        await results.loadMore()
        #expect(results.error == nil)
        #expect(lines.count == 30 && lines.allSatisfy { $0.hasSuffix("円") })
        #expect(results.items.count == 60)
        #expect(results.items.allSatisfy { $0.itemPrice <= 100_000 })

        let live = rakuten.liveQuery(of: RakutenItem.self)
        live.select(.itemSearch(.init(keyword: "a")))
        await live.settle()
        #expect(live.current?.error?.message == "keyword is not valid (400)")
    }

    @Test func postsCommentsUsersAndNotes() async throws {
        let server = try await APIServer.start()
        defer { Task { await server.stop() } }
        let store = EntityStore(client: HTTPClient(baseURL: server.app.baseURL))

        let posts = store.query(.posts(userId: 1))
        let feed = store.query(.posts(pageSize: 20))
        let comments = store.query(.comments(postId: 1))
        let users = store.query(.users)
        await posts.load()
        await feed.load()
        await comments.load()
        await users.load()
        #expect(posts.items.count == 10 && feed.items.count == 20 && feed.hasMore)
        #expect(comments.items.count == 5 && users.items.count == 10)

        let notes = store.query(.notes)
        await notes.load()
        let saved = try await store.create(Note.draft(title: "買い物", body: "牛乳"))
        try await store.update(saved.edited(body: "牛乳、卵"))
        #expect(notes.items.last?.body == "牛乳、卵")
        try await store.delete(Note.self, id: saved.id)
        #expect(!notes.ids.contains(saved.id))
    }
}
