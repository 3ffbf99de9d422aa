import Foundation
import Testing
import TetherAPIs

/// Notes listed, created, edited and deleted through the store against the local server.
@MainActor
@Suite struct NotesOverSocketsTests {
    private func serverNote(_ server: APIServer, _ id: Int) async throws(HTTPError) -> Note {
        try await server.client.send(Request<Note>(path: "/notes/\(id)")).value
    }

    @Test func theListLoadsEveryNoteWithItsDate() async throws {
        let server = try await APIServer.start()
        defer { Task { await server.stop() } }
        let store = server.store()
        let notes = store.query(.notes)
        await notes.load()
        #expect(notes.status == .loaded, "\(String(describing: notes.error))")
        #expect(notes.items.count == 20)
        #expect(notes.items.allSatisfy { $0.updatedDate != nil && !$0.title.isEmpty && !$0.isDraft })
    }

    @Test func aDraftShowsAtOnceThenTakesTheServersID() async throws {
        let server = try await APIServer.start()
        defer { Task { await server.stop() } }
        let store = server.store()
        let notes = store.query(.notes)
        await notes.load()
        let draft = Note.draft(title: "買い物", body: "牛乳、卵")
        #expect(draft.isDraft)
        var seen: [Int] = []
        let token = notes.observe { seen.append($0.items.last?.id ?? 0) }
        let saved = try await store.create(draft)
        token.cancel()
        #expect(seen.contains(draft.id))
        #expect(saved.id == 21 && !saved.isDraft)
        #expect(saved.title == "買い物" && saved.updatedAt == draft.updatedAt)
        #expect(notes.items.count == 21 && notes.items.last == saved)
        #expect(!notes.ids.contains(draft.id))
        #expect(try await serverNote(server, 21) == saved)
    }

    @Test func anEditShowsInTheListAndReachesTheServer() async throws {
        let server = try await APIServer.start()
        defer { Task { await server.stop() } }
        let store = server.store()
        let notes = store.query(.notes)
        await notes.load()
        let original = try #require(notes.items.first { $0.id == 5 })
        let later = try #require(original.updatedDate).addingTimeInterval(3600)
        let saved = try await store.update(original.edited(body: "edited ✓", now: later))
        #expect(saved.body == "edited ✓" && saved.title == original.title)
        #expect(saved.updatedDate == later)
        #expect(notes.items.first { $0.id == 5 } == saved)
        #expect(try await serverNote(server, 5) == saved)
    }

    @Test func aDeletedNoteLeavesTheList() async throws {
        let server = try await APIServer.start()
        defer { Task { await server.stop() } }
        let store = server.store()
        let notes = store.query(.notes)
        await notes.load()
        try await store.delete(Note.self, id: 7)
        #expect(!notes.ids.contains(7) && notes.items.count == 19)
        await #expect(throws: HTTPError.self) { try await serverNote(server, 7) }
    }

    /// A draft the server refuses stays in the list with its error (nothing the user typed is lost) until the user
    /// discards it; a server error (500) keeps it waiting to be sent again.
    @Test func aRefusedDraftStaysInTheListWithItsErrorUntilDiscarded() async throws {
        let server = try await APIServer.start()
        defer { Task { await server.stop() } }
        let store = server.store(interceptors: [RequestDecorator.fault("status=422", for: .post)])
        let notes = store.query(.notes)
        await notes.load()
        let draft = Note.draft(title: "lost?", body: "no")
        await #expect(throws: StoreError.self) { try await store.create(draft) }
        #expect(notes.items.count == 21 && notes.ids.contains(draft.id))
        let state = store.entity(Note.self, id: draft.id)
        #expect(state.value == draft)
        #expect(state.writeStatus == .failed)
        #expect(state.error?.httpError?.status?.code == 422)
        try await store.discardWrites(of: state)
        #expect(notes.items.count == 20 && !notes.ids.contains(draft.id))
    }

    @Test func aDraftAnsweredWithAServerErrorWaitsToBeSentAgain() async throws {
        let server = try await APIServer.start()
        defer { Task { await server.stop() } }
        let store = server.store(interceptors: [RequestDecorator.fault("status=500", for: .post)])
        let notes = store.query(.notes)
        await notes.load()
        let draft = Note.draft(title: "later", body: "no")
        let error = await #expect(throws: StoreError.self) { try await store.create(draft) }
        #expect(error?.isPending == true)
        #expect(notes.ids.contains(draft.id))
        // Waiting, or being sent again by the store's background loop already.
        let status = store.entity(Note.self, id: draft.id).writeStatus
        #expect(status == .waitingForNetwork || status == .sending)
        #expect(store.outboxStatus.waitingCount == 1)
    }

    @Test func draftsHaveDistinctTemporaryIDsAndUTCTimestamps() {
        let a = Note.draft(title: "a", body: "", now: Date(timeIntervalSince1970: 0))
        let b = Note.draft(title: "b", body: "", now: Date(timeIntervalSince1970: 86_400 + 61))
        #expect(a.id < 0 && b.id < 0 && a.id != b.id)
        #expect(a.updatedAt == "1970-01-01T00:00:00Z")
        #expect(b.updatedAt == "1970-01-02T00:01:01Z")
        #expect(b.updatedDate == Date(timeIntervalSince1970: 86_400 + 61))
        #expect(Note(id: 1, title: "", body: "", updatedAt: "yesterday").updatedDate == nil)
    }
}
