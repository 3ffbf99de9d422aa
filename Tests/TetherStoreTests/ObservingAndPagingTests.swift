import Foundation
import Testing
import TetherHTTP
import TetherStore
import TetherStoreTestSupport
import TetherSync

/// Store behaviour that needs no server: a query whose fetch is a closure.
@MainActor
@Suite struct ObservingAndPagingTests {
    private func offlineStore() -> EntityStore {
        var configuration = EntityStore.Configuration()
        configuration.collectionInterval = nil
        return EntityStore(
            client: HTTPClient(baseURL: URL(string: "http://offline.invalid")!), configuration: configuration)
    }

    nonisolated private static func notes(_ range: ClosedRange<Int>) -> [Note] {
        range.map { Note(id: $0, title: "n\($0)", body: "", updatedAt: nil) }
    }

    @Test func cursorPagesAreFollowedToTheEndWithoutRepeats() async {
        let store = offlineStore()
        let seen = Locked<[String?]>([])
        let query = store.query(
            Query<Note>.cursorPages(key: "cursor") { _, cursor throws(HTTPError) in
                seen.withLock { $0.append(cursor) }
                switch cursor {
                case nil: return (Self.notes(1...3), "b")
                case "b": return (Self.notes(3...5), "c")  // 3 again: dropped
                default: return (Self.notes(6...6), nil)
                }
            })
        await query.load()
        #expect(query.hasMore)
        await query.loadMore()
        await query.loadMore()
        #expect(!query.hasMore)
        #expect(query.ids == [1, 2, 3, 4, 5, 6])
        #expect(seen.withLock { $0 } == [nil, "b", "c"])
        await query.loadMore()
        #expect(seen.withLock { $0 }.count == 3)
    }

    @Test func aQueryRefetchesOnItsInterval() async throws {
        let store = offlineStore()
        let fetches = Locked(0)
        let query = store.query(
            Query<Note>(key: "interval", refetchInterval: .milliseconds(50)) { _, _ throws(HTTPError) in
                let count = fetches.withLock { value -> Int in
                    value += 1
                    return value
                }
                return Page(items: Self.notes(1...count), next: nil)
            })
        await query.load()
        #expect(query.ids == [1])
        var waited = 0
        while query.ids.count < 3 && waited < 400 {
            try await Task.sleep(for: .milliseconds(25))
            waited += 1
        }
        #expect(query.ids.count >= 3)
    }

    @Test func entityObserversSeeEditsFromAnyQueryAndStopWhenCancelled() async throws {
        let store = offlineStore()
        let query = store.query(
            Query<Note>(key: "all") { _, _ throws(HTTPError) in Page(items: Self.notes(1...2), next: nil) })
        await query.load()
        let note = store.entity(Note.self, id: 2)
        var titles: [String?] = []
        let token = note.observe { titles.append($0.value?.title) }
        store.insert([Note(id: 2, title: "changed", body: "", updatedAt: nil)])
        token.cancel()
        store.insert([Note(id: 2, title: "unseen", body: "", updatedAt: nil)])
        #expect(titles == ["n2", "changed"])
        #expect(query.items.last?.title == "unseen")

        var iterator = note.snapshots.makeAsyncIterator()
        #expect(await iterator.next()?.value?.title == "unseen")
        store.insert([Note(id: 2, title: "streamed", body: "", updatedAt: nil)])
        #expect(await iterator.next()?.value?.title == "streamed")
    }

    @Test func aFailedPageKeepsThePagesBeforeIt() async {
        let store = offlineStore()
        let query = store.query(
            Query<Note>.numberedPages(key: "failing") { _, page throws(HTTPError) in
                if page == 2 {
                    throw HTTPError(
                        .timeout(.request(.seconds(1))), request: RequestSummary(method: .get, url: "/notes?page=2"))
                }
                return (Self.notes(1...3), 3)
            })
        await query.load()
        await query.loadMore()
        #expect(query.ids == [1, 2, 3])
        #expect(query.error?.message == "The server took too long to answer.")
        #expect(query.hasMore)
    }
}
