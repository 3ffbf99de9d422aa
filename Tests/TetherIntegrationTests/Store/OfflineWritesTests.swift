import Foundation
import Testing
import TetherHTTP
import TetherHTTPTesting
import TetherIO
import TetherStoreTestSupport
import TetherSync
import TetherTestSupport

@testable import TetherStore

/// Writes made while the server cannot be reached: saved and answered at once (a refused connection is not retried
/// on the spot; a store that knows it is offline does not send at all), sent by the background loop once the server
/// answers again, and what the app can await and observe meanwhile.
@MainActor
@Suite(.timeLimit(.minutes(2))) struct OfflineWritesTests {
    /// A server that refuses connections until `online` is set; then `GET /notes` answers one note and writes are
    /// confirmed (or refused with `writeStatus`). While `holdsWrites` is set a write waits until it is cleared: a
    /// store that sent one would not return.
    final class Server: Sendable {
        let online = Locked(false)
        let holdsWrites = Locked(false)
        let writeStatus = Locked(200)
        let writes = Locked<[String]>([])

        var transport: StubTransport {
            StubTransport { request in
                guard self.online.withLock({ $0 }) else {
                    if request.method != .get {
                        while self.holdsWrites.withLock({ $0 }) { try await Task.sleep(for: .milliseconds(5)) }
                    }
                    return .failure(IOError(.connectionFailed, errno: ECONNREFUSED, "Connection refused."))
                }
                if request.method == .get {
                    return .json(#"[{"id": 1, "title": "from the server", "body": ""}]"#)
                }
                self.writes.withLock { $0.append(request.method.rawValue + " " + request.url.path) }
                let status = self.writeStatus.withLock { $0 }
                guard status == 200 else { return .json(#"{"error": "refused"}"#, status: status) }
                return .json(#"{"id": 1, "title": "edited", "body": ""}"#)
            }
        }
    }

    private static func store(_ server: Server, folder: URL, retries: Outbox.Retries) throws -> EntityStore {
        let client = HTTPClient(baseURL: URL(string: "http://notes.test")) {
            $0.transport = server.transport
            $0.retryPolicy = .never
            $0.coalescesRequests = false
        }
        var configuration = EntityStore.Configuration()
        configuration.collectionInterval = nil
        configuration.outboxRetries = retries
        let database = try StoreDatabase(url: folder.appendingPathComponent("store.sqlite"))
        return EntityStore(client: client, database: database, configuration: configuration)
    }

    private static func folder() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("tether-offline-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }

    /// Nothing listens: the outbox does not try again at once (it would wait an hour here before its second
    /// attempt), the entry keeps its one attempt and waits.
    @Test func aRefusedConnectionEndsTheSendAtOnceAndTheWriteWaits() async throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let dead = try #require(URL(string: "http://127.0.0.1:\(try closedLoopbackPort())"))
        let database = try StoreDatabase(url: folder.appendingPathComponent("store.sqlite"))
        let outbox = Outbox(database: database, client: HTTPClient(baseURL: dead) { $0.retryPolicy = .never })
        let entry = try await outbox.enqueue(
            type: Note.self, id: "1", kind: .update, value: Data(#"{"id": 1, "title": "t", "body": ""}"#.utf8))
        let outcome = await outbox.send(
            entry.id, retries: Outbox.Retries(maximumAttempts: 4, initialDelay: .seconds(3600)))
        guard case .pending(let error) = outcome else {
            Issue.record("expected the write to wait, got \(outcome)")
            return
        }
        #expect(error.httpError?.isConnectionRefused == true)
        let entries = try await outbox.entries()
        #expect(entries.map(\.attempts) == [1])
        #expect(entries.map(\.state) == [.queued])
    }

    /// Once a read found the server out of reach, an edit is saved and answered "waiting" without a request (the
    /// server here would hold a write for ever), and shows as waiting for the network.
    @Test func anEditMadeWhileTheStoreKnowsItIsOfflineIsSavedWithoutBeingSent() async throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let server = Server()
        server.holdsWrites.withLock { $0 = true }
        defer { server.holdsWrites.withLock { $0 = false } }
        let store = try Self.store(server, folder: folder, retries: Outbox.Retries(initialDelay: .seconds(3600)))
        let list = store.query(Query<Note>.list("/notes"))
        await list.load()
        #expect(list.isOffline)
        #expect(store.outboxStatus.isOffline)
        let error = await #expect(throws: StoreError.self) {
            try await store.update(Note(id: 1, title: "edited offline", body: ""))
        }
        #expect(error?.isPending == true)
        #expect(error?.httpError?.isConnectionRefused == true)
        let state = store.entity(Note.self, id: 1)
        #expect(state.value?.title == "edited offline")
        #expect(state.writeStatus == .waitingForNetwork)
        #expect(store.outboxStatus.count == 1)
        #expect(store.outboxStatus.waitingCount == 1)
        let entries = try #require(try await store.outbox?.entries())
        #expect(entries.count == 1)
        #expect(server.writes.withLock { $0 }.isEmpty)
    }

    /// The server comes back: the waiting edit is sent, `sendWaitingWrites(timeout:)` returns once nothing waits,
    /// and the list that failed offline loads again by itself (refetch on reconnect).
    @Test func whenTheServerAnswersAgainTheEditIsSentAndTheListReloads() async throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let server = Server()
        let store = try Self.store(server, folder: folder, retries: Outbox.Retries(initialDelay: .seconds(3600)))
        let list = store.query(Query<Note>.list("/notes"))
        await list.load()
        #expect(list.status == .failed)
        #expect(list.isOffline)
        await #expect(throws: StoreError.self) { try await store.update(Note(id: 1, title: "edited", body: "")) }
        // Still offline: the time runs out with the write waiting.
        let early = await store.sendWaitingWrites(timeout: .milliseconds(100))
        #expect(early == OutboxStatus.Drain(waiting: 1, needUser: 0))
        #expect(!early.isDrained)

        server.online.withLock { $0 = true }
        let drain = await store.sendWaitingWrites(timeout: .seconds(60))
        #expect(drain.isDrained)
        #expect(drain.needUser == 0)
        #expect(server.writes.withLock { $0 } == ["PATCH /notes/1"])
        #expect(await eventually { list.status == .loaded && !list.items.isEmpty })
        #expect(!list.isOffline)
        #expect(await eventually { store.entity(Note.self, id: 1).writeStatus == nil })
    }

    /// A write the server refuses needs the user: the wait does not wait for it and reports it.
    @Test func aRefusedWriteIsReportedByTheWaitNotWaitedFor() async throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let server = Server()
        server.online.withLock { $0 = true }
        server.writeStatus.withLock { $0 = 422 }
        let store = try Self.store(server, folder: folder, retries: .once)
        await #expect(throws: StoreError.self) { try await store.update(Note(id: 1, title: "bad", body: "")) }
        let drain = await store.sendWaitingWrites(timeout: .seconds(60))
        #expect(drain == OutboxStatus.Drain(waiting: 0, needUser: 1))
        #expect(store.entity(Note.self, id: 1).writeStatus == .failed)
        // Nothing the user wrote is lost: the draft stays.
        #expect(store.entity(Note.self, id: 1).value?.title == "bad")
    }

    /// The status as a sequence: the current snapshot first, then the changes, up to nothing waiting.
    @Test func theOutboxStatusCanBeFollowedAsASequence() async throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let server = Server()
        let store = try Self.store(server, folder: folder, retries: .once)
        await #expect(throws: StoreError.self) { try await store.update(Note(id: 1, title: "edited", body: "")) }
        var seen: [Int] = []
        var sawOffline = false
        for await snapshot in store.outboxStatus.updates {
            seen.append(snapshot.waitingCount)
            sawOffline = sawOffline || snapshot.isOffline
            if seen.count == 1 {
                server.online.withLock { $0 = true }
                store.sendWaitingWrites()
            }
            if snapshot.waitingCount == 0 { break }
        }
        #expect(seen.first == 1)
        #expect(seen.last == 0)
        #expect(sawOffline)
        #expect(server.writes.withLock { $0 } == ["PATCH /notes/1"])
    }
}

/// Found by the model-based test: a store reads the writes an earlier run left waiting into its entities a moment
/// after it starts; an edit the user makes before that read must stay what the entity shows, and the entity's
/// edits stay in the outbox's order.
@MainActor
@Suite(.timeLimit(.minutes(2))) struct RestoredWritesOrderTests {
    @Test func anEditMadeRightAfterAStartStaysShownOverTheWritesAnEarlierRunLeft() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("tether-restore-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let dead = try #require(URL(string: "http://127.0.0.1:\(try closedLoopbackPort())"))
        let url = folder.appendingPathComponent("store.sqlite")
        func store() throws -> EntityStore {
            var configuration = EntityStore.Configuration()
            configuration.collectionInterval = nil
            configuration.outboxRetries = .once
            let client = HTTPClient(baseURL: dead) { $0.retryPolicy = .never }
            return EntityStore(client: client, database: try StoreDatabase(url: url), configuration: configuration)
        }
        do {
            let first = try store()
            await #expect(throws: StoreError.self) {
                try await first.update(Note(id: 3, title: "left by the earlier run", body: ""))
            }
            await first.flush()
        }
        let second = try store()
        let state = second.entity(Note.self, id: 3)
        await #expect(throws: StoreError.self) {
            try await second.update(Note(id: 3, title: "made right after the start", body: ""))
        }
        // Once the earlier run's write is read in, both are there, in order, and the newest is shown.
        #expect(await eventually { state.pendingEdits.count == 2 })
        let order = state.pendingEdits.compactMap(\.outboxID)
        #expect(order == order.sorted())
        #expect(state.pendingEdits.last?.value.title == "made right after the start")
        #expect(state.value?.title == "made right after the start")
    }
}

/// Found by the model-based test: a store whose waiting create (and an edit after it) another store over the same
/// database sent moves the entity to the server's id and shows it settled, instead of dropping it.
@MainActor
@Suite(.timeLimit(.minutes(2))) struct WritesSettledElsewhereTests {
    @Test func aCreateSentByAnotherStoreMovesToTheServersIDHere() async throws {
        let harness = try await OutboxHarness()
        defer { Task { await harness.stop() } }
        let dead = try await harness.deadBaseURL()
        let offline = try harness.store(baseURL: dead)
        let draft = Note(id: Note.temporaryID(), title: "made here", body: "settled elsewhere")
        await #expect(throws: StoreError.self) { try await offline.create(draft) }
        var edited = draft
        edited.title = "edited here"
        await #expect(throws: StoreError.self) { try await offline.update(edited) }
        let state = offline.entity(Note.self, id: draft.id)
        #expect(state.writeStatus != nil)
        // Another store over the same file, with the server up, sends both.
        let online = try harness.store()
        #expect(await online.sendWaitingWrites(timeout: .seconds(60)).isDrained)
        let created = try #require(try await harness.serverNotes().first { $0.body == "settled elsewhere" })
        #expect(created.title == "edited here")
        // This store learns it from the file: the entity moves to the server's id, settled, nothing lost.
        #expect(await offline.sendWaitingWrites(timeout: .seconds(60)).isDrained)
        #expect(state.id == created.id)
        #expect(state.writeStatus == nil)
        #expect(state.value?.title == "edited here")
        #expect(offline.entity(Note.self, id: draft.id) === state)
    }
}

/// An edit whose value cannot be encoded is shown at once (the views are told first) and taken back when its bytes
/// cannot be made: nothing is saved, the error is on the entity.
@MainActor
@Suite struct UnencodableEditTests {
    struct Reading: RemoteEntity {
        static let collectionPath = "/readings"
        var id: Int
        var value: Double
    }

    @Test func anEditThatCannotBeEncodedIsTakenBackWithItsErrorAndNothingIsSaved() async throws {
        let store = EntityStore(client: HTTPClient(baseURL: URL(string: "http://127.0.0.1:9")))
        store.insert([Reading(id: 1, value: 2.5)])
        let state = store.entity(Reading.self, id: 1)
        var seen: [Double?] = []
        let token = state.observe { seen.append($0.value?.value) }
        let error = await #expect(throws: StoreError.self) {
            try await store.update(Reading(id: 1, value: .nan))
        }
        token.cancel()
        guard case .encoding? = error?.kind else {
            Issue.record("expected an encoding error, got \(String(describing: error))")
            return
        }
        #expect(state.value?.value == 2.5)
        #expect(state.writeStatus == nil)
        #expect(state.error != nil)
        #expect(seen.contains { $0?.isNaN == true })
        #expect(store.outboxStatus.count == 0)
    }
}
