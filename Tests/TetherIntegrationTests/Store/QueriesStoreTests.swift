import Foundation
import Testing
import TetherStore
import TetherStoreTestSupport

@MainActor
@Suite struct QueriesStoreTests {
    @Test func twoQueriesShareTheirEntities() async throws {
        let harness = try await StoreHarness.start()
        defer { Task { await harness.stop() } }
        let store = harness.store
        let byUser = store.query(Query<Post>.list("/posts", query: [("userId", "1")]))
        let firstPage = store.query(Query<Post>.list("/posts", pageSize: 5))
        await byUser.load()
        await firstPage.load()
        #expect(byUser.items.count == 10)
        #expect(firstPage.items.count == 5)
        #expect(store.count(of: Post.self) == 10)
        var post = try #require(firstPage.items.first)
        post.title = "shared title"
        try await store.update(post)
        #expect(byUser.items.first?.title == "shared title")
        #expect(firstPage.items.first?.title == "shared title")
        #expect(store.query(Query<Post>.list("/posts", query: [("userId", "1")])) === byUser)
    }

    @Test func paginationWithLinkHeadersReachesTheEndWithoutRepeats() async throws {
        let harness = try await StoreHarness.start()
        defer { Task { await harness.stop() } }
        let posts = harness.store.query(Query<Post>.list("/posts", pageSize: 30))
        await posts.load()
        #expect(posts.ids.count == 30)
        #expect(posts.hasMore)
        #expect(posts.totalCount == 100)
        var rounds = 0
        while posts.hasMore && rounds < 10 {
            await posts.loadMore()
            rounds += 1
        }
        #expect(!posts.hasMore)
        #expect(posts.ids == Array(1...100))
        #expect(rounds == 3)
        await posts.loadMore()
        #expect(posts.ids.count == 100)
    }

    @Test func numberedPagesReachTheEnd() async throws {
        let harness = try await StoreHarness.start()
        defer { Task { await harness.stop() } }
        let search = harness.store.query(.search("camera"))
        await search.load()
        #expect(search.status == .loaded, "\(String(describing: search.error))")
        #expect(!search.items.isEmpty)
        var pages = 1
        while search.hasMore && pages < 120 {
            await search.loadMore()
            pages += 1
        }
        #expect(!search.hasMore)
        #expect(search.error == nil)
        #expect(Set(search.ids).count == search.ids.count)
        #expect(search.ids.count > 30)
    }

    @Test func aNewKeywordCancelsTheSlowOldOneWhoseAnswerNeverLands() async throws {
        let harness = try await StoreHarness.start()
        defer { Task { await harness.stop() } }
        let search = harness.store.liveQuery(of: Item.self)
        search.select(.search("コーヒー", fault: "latency=400ms"))
        try await Task.sleep(for: .milliseconds(50))
        search.select(.search("ノートパソコン"))
        await search.settle()
        #expect(search.current?.key == "search?ノートパソコン")
        #expect(search.status == .loaded)
        let laptops = search.items
        #expect(!laptops.isEmpty)
        try await Task.sleep(for: .milliseconds(500))
        #expect(search.items == laptops)
        let coffee = harness.store.query(.search("コーヒー", fault: "latency=400ms"))
        #expect(coffee.items.isEmpty)
        #expect(coffee.status == .idle)
    }

    @Test func concurrentLoadsShareOneRequest() async throws {
        let harness = try await StoreHarness.start(coalescing: false)
        defer { Task { await harness.stop() } }
        let store = harness.store
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<10 {
                group.addTask { await store.query(Query<Todo>.list("/todos", query: [("userId", "2")])).load() }
            }
        }
        #expect(await harness.log.settledCount(prefix: "GET /todos?userId=2 ", atLeast: 1) == 1)
        #expect(store.query(Query<Todo>.list("/todos", query: [("userId", "2")])).items.count == 20)
        // Fresh results are not loaded again.
        await store.query(Query<Todo>.list("/todos", query: [("userId", "2")])).load()
        #expect(await harness.log.settledCount(prefix: "GET /todos?userId=2 ", atLeast: 1) == 1)
    }

    @Test func unusedQueriesAndEntitiesAreReleasedAfterTheirCacheTime() async throws {
        let harness = try await StoreHarness.start { $0.entityCacheTime = .zero }
        defer { Task { await harness.stop() } }
        let store = harness.store
        var users: QueryState<Post>? = store.query(
            Query<Post>.list("/posts", query: [("userId", "3")], cacheTime: .zero))
        await users?.load()
        let kept = store.entity(Post.self, id: 21)
        #expect(store.count(of: Post.self) == 10)
        _ = store.collectGarbage()
        #expect(store.count(of: Post.self) == 10)  // the query is still held
        users = nil
        _ = store.collectGarbage()
        #expect(store.queryCount(of: Post.self) == 0)
        #expect(store.count(of: Post.self) == 1)  // only the entity someone holds
        #expect(kept.value?.id == 21)
    }

    @Test func aFailedLoadKeepsItsResultsAndSaysWhy() async throws {
        let harness = try await StoreHarness.start()
        defer { Task { await harness.stop() } }
        let notes = harness.store.query(Query<Note>.list("/notes"))
        await notes.load()
        let shown = notes.ids
        harness.faults.set("status=503", for: .get)
        await notes.refresh()
        #expect(notes.status == .failed)
        #expect(notes.error?.httpError?.status?.code == 503)
        #expect(notes.ids == shown)
        harness.faults.clear()
        await notes.refresh()
        #expect(notes.status == .loaded)
        #expect(notes.error == nil)
    }

    @Test func invalidationReloadsAQueryInUse() async throws {
        let harness = try await StoreHarness.start()
        defer { Task { await harness.stop() } }
        let notes = harness.store.query(Query<Note>.list("/notes", tags: ["notes"]))
        await notes.load()
        #expect(!notes.isStale)
        _ = try await harness.client.send(
            Request<Note>(path: "/notes", method: .post, body: .json(["title": "from elsewhere", "body": ""])))
        harness.store.invalidate(tag: "notes")
        #expect(notes.isStale)
        while notes.status != .loaded || notes.isStale { try await Task.sleep(for: .milliseconds(10)) }
        #expect(notes.items.last?.title == "from elsewhere")
    }

    @Test func snapshotsFollowAQuery() async throws {
        let harness = try await StoreHarness.start()
        defer { Task { await harness.stop() } }
        let notes = harness.store.query(Query<Note>.list("/notes"))
        var iterator = notes.snapshots.makeAsyncIterator()
        let first = await iterator.next()
        #expect(first?.status == .idle)
        Task { await notes.load() }
        var statuses: [QueryState<Note>.Status] = []
        while let snapshot = await iterator.next() {
            statuses.append(snapshot.status)
            if snapshot.status == .loaded {
                #expect(!snapshot.items.isEmpty)
                break
            }
        }
        #expect(statuses.first == .loading)
        #expect(statuses.last == .loaded)
    }
}
