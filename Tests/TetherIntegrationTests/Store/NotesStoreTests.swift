import Foundation
import Testing
import TetherStore
import TetherStoreTestSupport
import TetherTestSupport

@MainActor
@Suite struct NotesStoreTests {
    @Test func aListAndADetailShowTheSameNoteAndAnEditShowsInBothBeforeTheServerAnswers() async throws {
        let harness = try await StoreHarness.start()
        defer { Task { await harness.stop() } }
        let store = harness.store
        let list = store.query(Query<Note>.list("/notes"))
        await list.load()
        #expect(list.status == .loaded)
        #expect(list.items.count > 3)
        let detail = store.entity(Note.self, id: 3)
        #expect(detail.value == list.items.first { $0.id == 3 })
        await detail.load()
        #expect(detail.status == .synced)

        var seen: [(title: String?, status: EntityState<Note>.Status)] = []
        let token = list.observe { list in
            seen.append((list.items.first { $0.id == 3 }?.title, list.entities.first { $0.id == 3 }!.status))
        }
        var edited = try #require(detail.value)
        edited.title = "Groceries ✓ 買い物"
        harness.faults.set("latency=150ms", for: .patch)
        let saved = try await store.update(edited)
        token.cancel()

        // The first change the list saw was the local edit, still syncing; then the server's version, synced.
        let firstEdited = try #require(seen.firstIndex { $0.title == "Groceries ✓ 買い物" })
        #expect(seen[firstEdited].status == .syncing)
        #expect(seen.last?.status == .synced)
        #expect(saved.title == "Groceries ✓ 買い物")
        #expect(list.items.first { $0.id == 3 }?.title == "Groceries ✓ 買い物")
        #expect(detail.status == .synced)
        #expect(try await harness.serverNote(3).title == "Groceries ✓ 買い物")
    }

    /// A store without a database keeps a refused edit as a draft with its error, as one with a database does:
    /// nothing the user typed is lost until the user discards it.
    @Test func aRefusedEditIsKeptAsADraftUntilTheUserDiscardsIt() async throws {
        let harness = try await StoreHarness.start()
        defer { Task { await harness.stop() } }
        let store = harness.store
        let list = store.query(Query<Note>.list("/notes"))
        await list.load()
        let detail = store.entity(Note.self, id: 2)
        let original = try #require(detail.value)
        var edited = original
        edited.body = "this edit will be refused"
        harness.faults.set("status=422", for: .patch)
        let error = await #expect(throws: StoreError.self) { try await store.update(edited) }
        #expect(error?.isPending == false)
        #expect(detail.value == edited)
        #expect(list.items.first { $0.id == 2 } == edited)
        #expect(detail.status == .failed)
        #expect(detail.writeStatus == .failed)
        #expect(detail.error?.httpError?.status?.code == 422)
        #expect(store.outboxStatus.failedCount == 1)
        #expect(try await harness.serverNote(2) == original)
        // The user takes the server's version back.
        harness.faults.clear()
        try await store.discardWrites(of: detail)
        #expect(detail.value == original)
        #expect(list.items.first { $0.id == 2 } == original)
        #expect(detail.writeStatus == nil)
    }

    /// A transient failure (500) keeps the edit waiting, and the store's outbox sends it once the server answers.
    @Test func aServerErrorLeavesTheEditWaitingAndItIsSentLater() async throws {
        let harness = try await StoreHarness.start()
        defer { Task { await harness.stop() } }
        let store = harness.store
        let detail = store.entity(Note.self, id: 3)
        await detail.load()
        var edited = try #require(detail.value)
        edited.title = "sent later"
        harness.faults.set("status=500", for: .patch)
        let error = await #expect(throws: StoreError.self) { try await store.update(edited) }
        #expect(error?.isPending == true)
        #expect(detail.value?.title == "sent later")
        // Waiting, or already being sent again by the store's background loop.
        #expect(detail.writeStatus == .waitingForNetwork || detail.writeStatus == .sending)
        harness.faults.clear()
        let drain = await store.sendWaitingWrites(timeout: .seconds(60))
        #expect(drain.isDrained)
        #expect(try await harness.serverNote(3).title == "sent later")
        #expect(detail.writeStatus == nil)
    }

    @Test func aConflictingEditKeepsBothVersions() async throws {
        let harness = try await StoreHarness.start()
        defer { Task { await harness.stop() } }
        let store = harness.store
        let detail = store.entity(Note.self, id: 4)
        await detail.load()
        let loaded = try #require(detail.value)
        // Someone else edits the note on the server meanwhile.
        _ = try await harness.client.send(
            Request<Note>(path: "/notes/4", method: .patch, body: .json(["title": "changed elsewhere"])))
        var mine = loaded
        mine.title = "my change"
        let error = await #expect(throws: StoreError.self) { try await store.update(mine) }
        guard case .conflict = error?.kind else {
            Issue.record("expected a conflict, got \(String(describing: error))")
            return
        }
        #expect(detail.writeStatus == .conflict)
        // The server's version is fetched for the conflict.
        #expect(await eventually { detail.conflict?.server != nil })
        let conflict = try #require(detail.conflict)
        #expect(conflict.local.title == "my change")
        #expect(conflict.server?.title == "changed elsewhere")
        #expect(detail.value?.title == "my change")

        try await store.resolveConflict(detail, keeping: .local)
        #expect(detail.conflict == nil)
        #expect(detail.value?.title == "my change")
        #expect(try await harness.serverNote(4).title == "my change")
    }

    @Test func editsToOneNoteGoOutInOrderAndTheLastWins() async throws {
        let harness = try await StoreHarness.start()
        defer { Task { await harness.stop() } }
        let store = harness.store
        let detail = store.entity(Note.self, id: 5)
        await detail.load()
        var first = try #require(detail.value)
        first.title = "first"
        var second = first
        second.title = "second"
        harness.faults.set("latency=100ms", for: .patch)
        // The second edit is made once the first shows (two `async let`s may reach the main actor in either order:
        // seen under ThreadSanitizer).
        let a = Task { try await store.update(first) }
        #expect(await eventually { detail.value?.title == "first" })
        let b = Task { try await store.update(second) }
        let (savedA, savedB) = try await (a.value, b.value)
        #expect(savedA.title == "first")
        #expect(savedB.title == "second")
        #expect(detail.value?.title == "second")
        #expect(detail.status == .synced)
        #expect(try await harness.serverNote(5).title == "second")
    }

    @Test func aCreatedNoteShowsAtOnceThenTakesTheServersId() async throws {
        let harness = try await StoreHarness.start()
        defer { Task { await harness.stop() } }
        let store = harness.store
        let list = store.query(Query<Note>.list("/notes"))
        await list.load()
        let before = list.ids.count
        let draft = Note(id: Note.temporaryID(), title: "New", body: "written offline", updatedAt: nil)
        #expect(draft.id < 0)
        var sawDraft = false
        let token = list.observe { list in if list.ids.contains(draft.id) { sawDraft = true } }
        let created = try await store.create(draft)
        token.cancel()
        #expect(sawDraft)
        #expect(created.id > 0)
        #expect(list.ids.count == before + 1)
        #expect(list.ids.last == created.id)
        #expect(!list.ids.contains(draft.id))
        #expect(store.entity(Note.self, id: created.id).value?.body == "written offline")
        #expect(try await harness.serverNote(created.id).title == "New")
    }

    @Test func aRefusedCreateKeepsTheDraftInTheListWithItsError() async throws {
        let harness = try await StoreHarness.start()
        defer { Task { await harness.stop() } }
        let store = harness.store
        let list = store.query(Query<Note>.list("/notes"))
        await list.load()
        let before = list.ids
        let draft = Note(id: Note.temporaryID(), title: "Lost?", body: "no", updatedAt: nil)
        harness.faults.set("status=422", for: .post)
        await #expect(throws: StoreError.self) { try await store.create(draft) }
        #expect(list.ids == before + [draft.id])
        let state = store.entity(Note.self, id: draft.id)
        #expect(state.value == draft)
        #expect(state.status == .failed)
        #expect(state.writeStatus == .failed)
        // Discarded, it leaves the list.
        try await store.discardWrites(of: state)
        #expect(list.ids == before)
    }

    @Test func aDeleteLeavesEveryListAndARefusedOneComesBack() async throws {
        let harness = try await StoreHarness.start()
        defer { Task { await harness.stop() } }
        let store = harness.store
        let list = store.query(Query<Note>.list("/notes"))
        await list.load()
        let order = list.ids
        harness.faults.set("status=422", for: .delete)
        await #expect(throws: StoreError.self) { try await store.delete(Note.self, id: order[1]) }
        #expect(list.ids == order)
        #expect(store.entity(Note.self, id: order[1]).writeStatus == .failed)

        harness.faults.clear()
        try await store.retryWrites(of: store.entity(Note.self, id: order[1]))
        #expect(list.ids == order.filter { $0 != order[1] })
        let gone = await #expect(throws: HTTPError.self) { try await harness.serverNote(order[1]) }
        #expect(gone?.status?.code == 404)
    }
}
