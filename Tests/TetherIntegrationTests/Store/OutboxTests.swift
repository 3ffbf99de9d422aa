import Foundation
import Testing
import TetherJSON
import TetherSQLite
import TetherServer
import TetherStoreTestSupport
import TetherSync
import TetherTestSupport

@testable import TetherStore

/// A server, a database file in a temporary folder, and stores over both that can be "restarted" (a new store and
/// a new connection to the same file), with faults scripted per method.
@MainActor
final class OutboxHarness {
    let folder: URL
    let databaseURL: URL
    var app: TetherServerApp
    let faults = FaultSwitch()
    let log = ServerAccessLog()

    init() async throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("tether-outbox-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        databaseURL = folder.appendingPathComponent("store.sqlite")
        let log = log
        app = try await TetherServerApp.start(
            .init(writes: .inMemory, rakutenRateLimit: false, accessLog: { log.record($0) }))
    }

    /// A client of `baseURL` (the running server by default) that does not retry by itself.
    func client(_ baseURL: URL? = nil) -> HTTPClient {
        HTTPClient(baseURL: baseURL ?? app.baseURL) {
            $0.interceptors = [faults]
            $0.retryPolicy = .never
            $0.timeout = .seconds(10)
        }
    }

    /// Loads the notes list with the server up, so that the database holds it for the stores made after.
    func saveTheNotesOnline() async throws {
        let online = try store()
        await online.query(Query<Note>.list("/notes")).load()
        await online.flush()
    }

    /// A new store over the database file, as after a restart.
    func store(baseURL: URL? = nil, retries: Outbox.Retries = .once) throws -> EntityStore {
        var configuration = EntityStore.Configuration()
        configuration.collectionInterval = nil
        configuration.outboxRetries = retries
        return EntityStore(
            client: client(baseURL), database: try StoreDatabase(url: databaseURL), configuration: configuration)
    }

    /// A base URL where nothing listens: a loopback port held by a socket that never listens, so that no server
    /// another test starts meanwhile can take it (a stopped server's port can be handed out again at once).
    func deadBaseURL() async throws -> URL {
        try #require(URL(string: "http://127.0.0.1:\(try closedLoopbackPort())"))
    }

    func serverNotes() async throws -> [Note] {
        let plain = HTTPClient(baseURL: app.baseURL) { $0.retryPolicy = .never }
        return try await plain.send(Request<[Note]>(path: "/notes")).value
    }

    func stop() async {
        await app.stop()
        try? FileManager.default.removeItem(at: folder)
    }
}

/// Waits until the store's outbox is empty (read from its database), for at most 20 s.
@MainActor
func sent(_ store: EntityStore) async -> Bool {
    let deadline = Date().addingTimeInterval(20)
    while Date() < deadline {
        if let entries = try? await store.outbox?.entries(), entries.isEmpty {
            return await eventually(5) { store.outboxStatus.count == 0 }
        }
        try? await Task.sleep(for: .milliseconds(20))
    }
    return false
}

/// Waits (polling on the main actor) until `condition` holds, for at most `seconds`.
@MainActor
func eventually(_ seconds: Double = 20, _ condition: () -> Bool) async -> Bool {
    let deadline = Date().addingTimeInterval(seconds)
    while Date() < deadline {
        if condition() { return true }
        try? await Task.sleep(for: .milliseconds(20))
    }
    return condition()
}

@MainActor
@Suite struct OutboxTests {
    @Test func aCreateWhoseAnswerIsLostIsSentAgainAfterARestartAndAppliedOnce() async throws {
        let harness = try await OutboxHarness()
        defer { Task { await harness.stop() } }
        let before = try await harness.serverNotes().count
        do {
            let store = try harness.store()
            let list = store.query(Query<Note>.list("/notes"))
            await list.load()
            // The server creates the note, then the connection is reset before the answer arrives.
            harness.faults.set("reset", for: .post)
            let draft = Note(id: Note.temporaryID(), title: "lost answer 失われた", body: "once")
            let error = await #expect(throws: StoreError.self) { try await store.create(draft) }
            #expect(error?.isPending == true)
            #expect(list.items.contains { $0.title == "lost answer 失われた" })
            #expect(store.outboxStatus.count == 1)
            await store.flush()
        }
        harness.faults.clear()
        // A new process: the outbox sends the create again with its key, and the server replays its answer.
        let store = try harness.store()
        #expect(await sent(store))
        let notes = try await harness.serverNotes()
        #expect(notes.filter { $0.title == "lost answer 失われた" }.count == 1)
        #expect(notes.count == before + 1)
    }

    @Test func anEditMadeWhileTheServerIsDownIsKeptAndSentWhenAStoreStartsWithTheServerUp() async throws {
        let harness = try await OutboxHarness()
        defer { Task { await harness.stop() } }
        try await harness.saveTheNotesOnline()
        let dead = try await harness.deadBaseURL()
        do {
            let offline = try harness.store(baseURL: dead)
            let list = offline.query(Query<Note>.list("/notes"))
            await list.load()
            // The list comes from disk, and says it is offline: its rows stay loaded, the error beside them.
            #expect(list.isFromDisk)
            #expect(list.isOffline)
            #expect(list.status == .loaded)
            #expect(list.error?.isUnreachable == true)
            let note = try #require(list.items.first { $0.id == 2 })
            var edited = note
            edited.title = "edited offline"
            let error = await #expect(throws: StoreError.self) { try await offline.update(edited) }
            #expect(error?.isPending == true)
            let state = offline.entity(Note.self, id: 2)
            #expect(state.value?.title == "edited offline")
            #expect(state.writeStatus == .waitingForNetwork)
            #expect(offline.outboxStatus.count == 1)
            #expect(offline.outboxStatus.isOffline)
            #expect(list.items.first { $0.id == 2 }?.title == "edited offline")
            // Attempts made while offline probe the server: the edit keeps saying that it waits for the network.
            var seen: [EntityState<Note>.WriteStatus?] = []
            let token = state.observe { seen.append($0.writeStatus) }
            offline.sendWaitingWrites()
            // The probe's failure notifies the state's observers too.
            #expect(await eventually { seen.count >= 2 })
            token.cancel()
            #expect(seen.allSatisfy { $0 == .waitingForNetwork })
            await offline.flush()
        }
        let store = try harness.store()
        // The restarted store shows the waiting edit at once, and sends it.
        let list = store.query(Query<Note>.list("/notes"))
        await list.load()
        #expect(await sent(store))
        #expect(try await harness.serverNotes().first { $0.id == 2 }?.title == "edited offline")
        #expect(await eventually { store.entity(Note.self, id: 2).writeStatus == nil })
        #expect(await harness.log.settledCount(prefix: "PATCH /notes/2", atLeast: 1) == 1)
    }

    /// The outbox's first turn waits for the first screen read from disk, but not for ever: a store that shows no
    /// list at all still sends what an earlier run left waiting.
    @Test func aStoreThatShowsNothingStillSendsTheWritesAnEarlierRunLeft() async throws {
        let harness = try await OutboxHarness()
        defer { Task { await harness.stop() } }
        try await harness.saveTheNotesOnline()
        let dead = try await harness.deadBaseURL()
        do {
            let offline = try harness.store(baseURL: dead)
            let list = offline.query(Query<Note>.list("/notes"))
            await list.load()
            var edited = try #require(list.items.first { $0.id == 2 })
            edited.title = "edited offline"
            await #expect(throws: StoreError.self) { try await offline.update(edited) }
            await offline.flush()
        }
        let store = try harness.store()
        #expect(await sent(store))
        #expect(try await harness.serverNotes().first { $0.id == 2 }?.title == "edited offline")
        #expect(await harness.log.settledCount(prefix: "PATCH /notes/2", atLeast: 1) == 1)
    }

    @Test func aListRestoredFromDiskShowsTheWritesThatWaitAndOnlyThem() async throws {
        let harness = try await OutboxHarness()
        defer { Task { await harness.stop() } }
        try await harness.saveTheNotesOnline()
        let dead = try await harness.deadBaseURL()
        // A store that starts with nothing waiting reads the saved rows as the server sent them.
        var saved: [Note] = []
        do {
            let offline = try harness.store(baseURL: dead)
            let list = offline.query(Query<Note>.list("/notes"))
            await list.load()
            #expect(list.isFromDisk)
            saved = list.items
            let note = try #require(saved.first { $0.id == 2 })
            var edited = note
            edited.title = "waiting edit 待機中"
            await #expect(throws: StoreError.self) { try await offline.update(edited) }
            await #expect(throws: StoreError.self) { try await offline.delete(Note.self, id: 3) }
            #expect(offline.outboxStatus.count == 2)
            await offline.flush()
        }
        #expect(saved.contains { $0.id == 3 })
        // The next start, still offline, shows the waiting edit over the saved row and hides the waiting delete;
        // every other row is as saved.
        let restarted = try harness.store(baseURL: dead)
        let list = restarted.query(Query<Note>.list("/notes"))
        await list.load()
        #expect(list.isFromDisk)
        #expect(list.items.first { $0.id == 2 }?.title == "waiting edit 待機中")
        #expect(!list.items.contains { $0.id == 3 })
        let others = list.items.filter { $0.id != 2 }
        #expect(others == saved.filter { $0.id != 2 && $0.id != 3 })
    }

    /// A store reserves the temporary ids that wait in its database's outbox as it is made, before any code can
    /// make a new one: a draft made right after never takes the id of an earlier run's waiting create. It shows
    /// the count of waiting writes from the start as well.
    @Test func aDraftMadeAtOnceAfterARestartNeverReusesAWaitingCreatesID() async throws {
        let harness = try await OutboxHarness()
        defer { Task { await harness.stop() } }
        let dead = try await harness.deadBaseURL()
        // Far below any id this process has made: only the reservation can take the counter past it.
        let waitingID = min(Note.temporaryID(), 0) - 1_000_000
        do {
            let offline = try harness.store(baseURL: dead)
            let draft = Note(id: waitingID, title: "waiting create", body: "")
            await #expect(throws: StoreError.self) { try await offline.create(draft) }
            #expect(offline.outboxStatus.count == 1)
        }
        let restarted = try harness.store(baseURL: dead)
        let next = Note.temporaryID()
        #expect(next < waitingID)
        // The count of waiting writes is known from the start too, before any read of the store's own.
        #expect(restarted.outboxStatus.count == 1)
    }

    @Test func aCreateAndAnEditMadeOfflineGoOutInOrderToTheServersID() async throws {
        let harness = try await OutboxHarness()
        defer { Task { await harness.stop() } }
        let dead = try await harness.deadBaseURL()
        var temporaryID = 0
        do {
            let offline = try harness.store(baseURL: dead)
            let draft = Note(id: Note.temporaryID(), title: "draft", body: "")
            temporaryID = draft.id
            await #expect(throws: StoreError.self) { try await offline.create(draft) }
            var edited = draft
            edited.body = "written after"
            await #expect(throws: StoreError.self) { try await offline.update(edited) }
            #expect(offline.outboxStatus.count == 2)
            let entries = try await offline.outbox!.entries()
            #expect(entries.map(\.kind) == [.create, .update])
            #expect(Set(entries.map(\.idempotencyKey)).count == 2)
        }
        let store = try harness.store()
        #expect(await sent(store))
        let created = try await harness.serverNotes().filter { $0.title == "draft" }
        #expect(created.count == 1)
        #expect(created.first?.body == "written after")
        #expect(created.first.map { $0.id > 0 } == true)
        #expect(await harness.log.settledCount(prefix: "PATCH /notes/\(temporaryID)") == 0)
    }

    /// Three edits of one note made one right after the other: each is saved after the one before (so the outbox
    /// holds them in the order they were made) and sent after its outcome; each reaches the server once, in order,
    /// the last wins everywhere, and the count of waiting writes ends at zero.
    @Test func quickEditsOfOneNoteGoOutOnceEachInOrder() async throws {
        let harness = try await OutboxHarness()
        defer { Task { await harness.stop() } }
        let store = try harness.store()
        let detail = store.entity(Note.self, id: 6)
        await detail.load()
        var edits: [Note] = []
        for title in ["one", "two", "three"] {
            var note = try #require(detail.value)
            note.title = title
            edits.append(note)
        }
        harness.faults.set("latency=50ms", for: .patch)
        // Made one after the other on the main actor (tasks made there start in order), as taps would make them.
        let updates = edits.map { edit in Task { try await store.update(edit) } }
        var saved: [String] = []
        for update in updates { saved.append(try await update.value.title) }
        #expect(saved == ["one", "two", "three"])
        #expect(detail.value?.title == "three")
        #expect(detail.writeStatus == nil)
        #expect(store.outboxStatus.count == 0)
        #expect(try await store.outbox?.entries().isEmpty == true)
        // The server logs a request after answering it: wait for the third line before reading the log.
        _ = await harness.log.settledCount(prefix: "PATCH /notes/6", atLeast: 3)
        let writes = harness.log.all().filter { $0.contains("/notes/6") && !$0.contains("GET") }
        #expect(writes.count == 3, "\(writes)")
        #expect(try await harness.serverNotes().first { $0.id == 6 }?.title == "three")
    }

    @Test func eachWriteThroughTheOutboxReturnsTheServersVersionAfterIt() async throws {
        let harness = try await OutboxHarness()
        defer { Task { await harness.stop() } }
        let store = try harness.store()
        let detail = store.entity(Note.self, id: 3)
        await detail.load()
        var note = try #require(detail.value)
        for round in 1...3 {
            // Each edit starts from what the previous one returned (the server's version, kept once decoded).
            note.title = "round \(round)"
            note.body += " +\(round)"
            let saved = try await store.update(note)
            let server = try #require(try await harness.serverNotes().first { $0.id == 3 })
            #expect(saved == server)
            #expect(saved.title == "round \(round)")
            #expect(detail.value == server)
            #expect(detail.writeStatus == nil)
            note = saved
        }
        #expect(try await store.outbox?.entries().isEmpty == true)
        // A create returns the server's version too, under the server's id.
        let draft = Note(id: Note.temporaryID(), title: "new 新しい", body: "created")
        let created = try await store.create(draft)
        let server = try #require(try await harness.serverNotes().first { $0.title == "new 新しい" })
        #expect(created == server)
        #expect(created.id > 0)
        #expect(store.entity(Note.self, id: created.id).value == server)
    }

    @Test func aRefusedEditIsKeptAsADraftUntilTheUserDiscardsIt() async throws {
        let harness = try await OutboxHarness()
        defer { Task { await harness.stop() } }
        let store = try harness.store()
        let list = store.query(Query<Note>.list("/notes"))
        await list.load()
        let state = store.entity(Note.self, id: 3)
        let original = try #require(state.value)
        var edited = original
        edited.title = "refused"
        harness.faults.set("status=422", for: .patch)
        let error = await #expect(throws: StoreError.self) { try await store.update(edited) }
        #expect(error?.isPending == false)
        #expect(error?.httpError?.status?.code == 422)
        // Nothing the user wrote is taken back: the edit stays, marked failed, and waits in the outbox.
        #expect(state.value?.title == "refused")
        #expect(state.writeStatus == .failed)
        #expect(state.status == .failed)
        #expect(store.outboxStatus.count == 1)
        #expect(store.outboxStatus.failedCount == 1)
        harness.faults.clear()
        // Later edits of the same note wait behind the refused one.
        var second = edited
        second.body = "second"
        await #expect(throws: StoreError.self) { try await store.update(second) }
        #expect(try await harness.serverNotes().first { $0.id == 3 } == original)

        try await store.discardWrites(of: state)
        #expect(state.value == original)
        #expect(state.writeStatus == nil)
        #expect(store.outboxStatus.count == 0)
        #expect(list.items.first { $0.id == 3 } == original)
    }

    @Test func aRefusedEditSentAgainWithRetryReachesTheServer() async throws {
        let harness = try await OutboxHarness()
        defer { Task { await harness.stop() } }
        let store = try harness.store()
        await store.query(Query<Note>.list("/notes")).load()
        let state = store.entity(Note.self, id: 4)
        var edited = try #require(state.value)
        edited.title = "second try"
        harness.faults.set("status=403", for: .patch)
        await #expect(throws: StoreError.self) { try await store.update(edited) }
        harness.faults.clear()
        try await store.retryWrites(of: state)
        #expect(state.writeStatus == nil)
        #expect(state.status == .synced)
        #expect(try await harness.serverNotes().first { $0.id == 4 }?.title == "second try")
    }

    @Test func aDeleteWhoseAnswerIsLostIsDoneWhenSentAgain() async throws {
        let harness = try await OutboxHarness()
        defer { Task { await harness.stop() } }
        let store = try harness.store(retries: Outbox.Retries(maximumAttempts: 3, initialDelay: .milliseconds(10)))
        let list = store.query(Query<Note>.list("/notes"))
        await list.load()
        harness.faults.set("reset", for: .delete)
        // Every attempt is reset after the server applied the first: the outbox keeps it, then sends it again.
        await #expect(throws: StoreError.self) { try await store.delete(Note.self, id: 5) }
        #expect(!list.items.contains { $0.id == 5 })
        harness.faults.clear()
        store.sendWaitingWrites()
        #expect(await sent(store))
        #expect(try await harness.serverNotes().contains { $0.id == 5 } == false)
        #expect(!list.items.contains { $0.id == 5 })
    }

    @Test func aDamagedDatabaseIsMovedAsideAndTheStoreCarriesOnInMemory() async throws {
        let harness = try await OutboxHarness()
        defer { Task { await harness.stop() } }
        let garbage = Data(repeating: 0x42, count: 8192)
        try garbage.write(to: harness.databaseURL)
        let store = EntityStore(client: harness.client(), databaseURL: harness.databaseURL)
        #expect(store.database == nil)
        let problem = try #require(store.outboxStatus.databaseProblem)
        #expect(problem.contains("moved to"))
        let moved = try FileManager.default.contentsOfDirectory(atPath: harness.folder.path)
            .filter { $0.hasPrefix("store.sqlite.corrupt-") }
        #expect(moved.count == 1)
        #expect(try Data(contentsOf: harness.folder.appendingPathComponent(moved[0])) == garbage)
        // In memory, the store still works.
        let list = store.query(Query<Note>.list("/notes"))
        await list.load()
        #expect(list.status == .loaded)
        #expect(!list.items.isEmpty)
    }

    @Test func theSchemaMigratesFromItsFirstVersionKeepingTheRows() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "tether-migrate-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = folder.appendingPathComponent("old.sqlite")
        let first = DatabaseMigrator(migrations: Array(StoreSchema.migrator.migrations.prefix(1)))
        do {
            let old = try StoreDatabase(url: url, migrator: first)
            try old.queue.write { database in
                try database.run(
                    "INSERT INTO entity (type, id, value, fetched_at) VALUES ('Note', '1', ?, 0)",
                    [.data(Data(#"{"id":1,"title":"old","body":""}"#.utf8))])
                try database.run(
                    "INSERT INTO query (type, key, ids, fetched_at) VALUES ('Note', '/notes', '[\"1\"]', 0)")
            }
            #expect(old.queue.read { $0.userVersion } == 1)
        }
        #expect(StoreSchema.migrator.latestVersion == 5)
        let current = try StoreDatabase(url: url)
        #expect(current.queue.read { $0.userVersion } == 5)
        let query = try #require(try await current.loadQuery(type: "Note", key: "/notes"))
        #expect(query.ids == ["1"])
        #expect(query.entities["1"]?.value.map { String(decoding: $0, as: UTF8.self) }?.contains("old") == true)
        let entry = try await current.enqueue(
            OutboxDraft(
                entityType: "Note", entityID: "1", collectionPath: "/notes", kind: .update, method: "PATCH",
                value: Data(#"{"id":1,"title":"new","body":""}"#.utf8)))
        #expect(try await current.outboxEntries().map(\.id) == [entry.id])
    }

    @Test func theOutboxMigratesFromVersionTwoAndThreeKeepingItsWaitingWrites() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "tether-migrate-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = folder.appendingPathComponent("v2.sqlite")
        let second = DatabaseMigrator(migrations: Array(StoreSchema.migrator.migrations.prefix(2)))
        var saved: [OutboxEntry] = []
        do {
            let old = try StoreDatabase(url: url, migrator: second)
            #expect(old.queue.read { $0.userVersion } == 2)
            for index in 1...3 {
                saved.append(
                    try await old.enqueue(
                        OutboxDraft(
                            entityType: "Note", entityID: String(index), collectionPath: "/notes", kind: .update,
                            method: "PATCH", value: Data(#"{"id":\#(index),"title":"edit \#(index)"}"#.utf8),
                            headers: ["X-Trace": "t\(index)"])))
            }
        }
        let current = try StoreDatabase(url: url)
        #expect(current.queue.read { $0.userVersion } == StoreSchema.migrator.latestVersion)
        let entries = try await current.outboxEntries()
        #expect(entries.map(\.id) == saved.map(\.id))
        #expect(entries.map(\.idempotencyKey) == saved.map(\.idempotencyKey))
        #expect(entries.map(\.value) == saved.map(\.value))
        // Still in order per entity after the migration, and a new write goes after them.
        let later = try await current.enqueue(
            OutboxDraft(
                entityType: "Note", entityID: "2", collectionPath: "/notes", kind: .update, method: "PATCH",
                value: Data(#"{"id":2,"title":"later"}"#.utf8)))
        #expect(try await current.outboxEntries(type: "Note", entityID: "2").map(\.id) == [saved[1].id, later.id])
    }

    /// Every earlier schema with waiting writes (versions 2, 3 and 4) migrates keeping them, in order, and from then
    /// on a confirmed entry's number is never given to the next write (a late outcome of the first must not reach the
    /// second).
    @Test(arguments: [2, 3, 4])
    func everyEarlierOutboxMigratesAndNumbersAreNeverReused(version: Int) async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "tether-migrate-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = folder.appendingPathComponent("v\(version).sqlite")
        let migrator = DatabaseMigrator(migrations: Array(StoreSchema.migrator.migrations.prefix(version)))
        var saved: [OutboxEntry] = []
        do {
            let old = try StoreDatabase(url: url, migrator: migrator)
            #expect(old.queue.read { $0.userVersion } == version)
            for index in 1...3 {
                saved.append(
                    try await old.enqueue(
                        OutboxDraft(
                            entityType: "Note", entityID: "7", collectionPath: "/notes", kind: .update,
                            method: "PATCH", value: Data(#"{"id":7,"title":"edit \#(index)"}"#.utf8))))
            }
        }
        let current = try StoreDatabase(url: url)
        #expect(current.queue.read { $0.userVersion } == StoreSchema.migrator.latestVersion)
        let entries = try await current.outboxEntries()
        #expect(entries.map(\.id) == saved.map(\.id))
        #expect(entries.map(\.idempotencyKey) == saved.map(\.idempotencyKey))
        // The newest entry leaves the outbox; the next write gets a number of its own.
        let last = try #require(saved.last)
        _ = try await current.discard(last.id)
        let next = try await current.enqueue(
            OutboxDraft(
                entityType: "Note", entityID: "7", collectionPath: "/notes", kind: .update, method: "PATCH",
                value: Data(#"{"id":7,"title":"next"}"#.utf8)))
        #expect(next.id > last.id)
        #expect(try await current.outboxEntries().map(\.id) == saved.dropLast().map(\.id) + [next.id])
    }

    @Test func twoProcessesOnOneDatabaseSendEachWriteOnce() async throws {
        let harness = try await OutboxHarness()
        defer { Task { await harness.stop() } }
        let before = try await harness.serverNotes().count
        let first = try StoreDatabase(url: harness.databaseURL)
        let second = try StoreDatabase(url: harness.databaseURL)
        for index in 0..<20 {
            _ = try await (index.isMultiple(of: 2) ? first : second).enqueue(
                OutboxDraft(
                    entityType: "Note", entityID: String(-1000 - index), collectionPath: "/notes", kind: .create,
                    method: "POST", value: Data(#"{"id":\#(-1000 - index),"title":"shared \#(index)","body":""}"#.utf8))
            )
        }
        let client = harness.client()
        async let reportA = Outbox(database: first, client: client).sendAll()
        async let reportB = Outbox(database: second, client: client).sendAll()
        let (a, b) = await (reportA, reportB)
        #expect(a.confirmed.count + b.confirmed.count == 20)
        #expect(try await first.outboxEntries().isEmpty)
        let notes = try await harness.serverNotes()
        #expect(notes.count == before + 20)
        #expect(Set(notes.map(\.title)).count == notes.count)
    }

    /// A confirmed edit is recorded a moment after the store learns its outcome (one commit less on the way): its
    /// own connection sees it at once, another process within moments, with no further use of the store.
    @Test func aConfirmedEditIsRecordedForThisStoreAtOnceAndForOtherProcessesSoonAfter() async throws {
        let harness = try await OutboxHarness()
        defer { Task { await harness.stop() } }
        let store = try harness.store()
        let detail = store.entity(Note.self, id: 7)
        await detail.load()
        var note = try #require(detail.value)
        note.title = "recorded"
        _ = try await store.update(note)
        let other = try StoreDatabase(url: harness.databaseURL)
        var recordedElsewhere = false
        let deadline = Date().addingTimeInterval(5)
        while !recordedElsewhere && Date() < deadline {
            let value = try await other.localValue(Note.self, id: "7")
            recordedElsewhere =
                try await other.outboxEntries().isEmpty
                && value.map { try TetherJSONDecoder().decode(Note.self, from: $0).title } == "recorded"
            if !recordedElsewhere { try await Task.sleep(for: .milliseconds(5)) }
        }
        #expect(recordedElsewhere, "another connection still sees the edit waiting, or the old version")
        #expect(try await store.outbox?.entries().isEmpty == true)
        #expect(try await harness.serverNotes().first { $0.id == 7 }?.title == "recorded")
    }

    /// Cancelling the task that awaits an update while its request is out does not lose the edit: it stays in the
    /// outbox and the background loop sends it again (with the same key).
    @Test func anEditWhoseCallerIsCancelledMidSendIsNotLost() async throws {
        let harness = try await OutboxHarness()
        defer { Task { await harness.stop() } }
        let store = try harness.store()
        let detail = store.entity(Note.self, id: 10)
        await detail.load()
        var note = try #require(detail.value)
        note.title = "cancelled caller"
        harness.faults.set("latency=300ms", for: .patch)
        let update = Task { try await store.update(note) }
        try await Task.sleep(for: .milliseconds(100))
        update.cancel()
        let result = await update.result
        harness.faults.clear()
        if case .failure(let error) = result {
            #expect((error as? StoreError)?.isPending == true, "\(error)")
        }
        #expect(detail.value?.title == "cancelled caller")
        #expect(await sent(store))
        #expect(await eventually(5) { detail.writeStatus == nil })
        #expect(try await harness.serverNotes().first { $0.id == 10 }?.title == "cancelled caller")
    }

    /// `flush()` (the app calls it as it quits) records a confirmed edit at once, for the next process to see.
    @Test func flushRecordsAConfirmedEditAtOnce() async throws {
        let harness = try await OutboxHarness()
        defer { Task { await harness.stop() } }
        let store = try harness.store()
        let other = try StoreDatabase(url: harness.databaseURL)
        let detail = store.entity(Note.self, id: 9)
        await detail.load()
        for title in ["first", "second", "third"] {
            var note = try #require(detail.value)
            note.title = title
            _ = try await store.update(note)
            await store.flush()
            // Read at once through another connection: no wait for the 20 ms commit.
            #expect(try await other.outboxEntries().isEmpty, "after \(title)")
            let value = try #require(try await other.localValue(Note.self, id: "9"))
            #expect(try TetherJSONDecoder().decode(Note.self, from: value).title == title)
        }
    }

    @Test func aConflictKeepsBothVersionsAndKeepingMineSendsItOverTheServersVersion() async throws {
        let harness = try await OutboxHarness()
        defer { Task { await harness.stop() } }
        let store = try harness.store()
        let state = store.entity(Note.self, id: 6)
        await state.load()
        var mine = try #require(state.value)
        mine.body = "mine"
        // Someone else changes the note first: the edit's If-Match no longer holds.
        let plain = HTTPClient(baseURL: harness.app.baseURL) { $0.retryPolicy = .never }
        _ = try await plain.send(
            Request<Note>(path: "/notes/6", method: .patch, body: .json(["title": "theirs"])))
        let error = await #expect(throws: StoreError.self) { try await store.update(mine) }
        #expect(error.map { if case .conflict = $0.kind { true } else { false } } == true)
        #expect(state.writeStatus == .conflict)
        #expect(state.value?.body == "mine")
        #expect(await eventually { state.conflict?.server?.title == "theirs" })
        #expect(store.outboxStatus.count == 1)

        try await store.resolveConflict(state, keeping: .local)
        let server = try await harness.serverNotes().first { $0.id == 6 }
        #expect(server?.body == "mine")
        #expect(state.writeStatus == nil)
        #expect(state.conflict == nil)
        #expect(store.outboxStatus.count == 0)
    }

    @Test func takingTheServersVersionDropsTheEdit() async throws {
        let harness = try await OutboxHarness()
        defer { Task { await harness.stop() } }
        let store = try harness.store()
        let state = store.entity(Note.self, id: 7)
        await state.load()
        var mine = try #require(state.value)
        mine.title = "mine"
        harness.faults.set("status=412", for: .patch)
        await #expect(throws: StoreError.self) { try await store.update(mine) }
        harness.faults.clear()
        #expect(state.writeStatus == .conflict)
        try await store.resolveConflict(state, keeping: .server)
        #expect(state.value?.title != "mine")
        #expect(state.writeStatus == nil)
        #expect(store.outboxStatus.count == 0)
        #expect(try await harness.serverNotes().first { $0.id == 7 }?.title != "mine")
    }

    @Test func theDiskKeepsToItsCacheTimeAndEntityLimitButNeverDropsWaitingWrites() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("tether-prune-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let database = try StoreDatabase(url: folder.appendingPathComponent("prune.sqlite"))
        let old = Date(timeIntervalSinceNow: -10 * 24 * 3600)
        let rows = (1...10).map { EntityRow(id: String($0), value: Data(#"{"id":\#($0),"title":"t","body":""}"#.utf8)) }
        try await database.savePage(
            type: "Note", rows: Array(rows[0..<4]), query: "/old", ids: ["1", "2", "3", "4"], next: nil,
            totalCount: nil, at: old)
        try await database.savePage(
            type: "Note", rows: Array(rows[4..<10]), query: "/new", ids: ["5", "6", "7", "8", "9", "10"], next: nil,
            totalCount: nil, at: Date())
        // An edit of note 2 waits: it stays, whatever its age.
        _ = try await database.enqueue(
            OutboxDraft(
                entityType: "Note", entityID: "2", collectionPath: "/notes", kind: .update, method: "PATCH",
                value: Data(#"{"id":2,"title":"edited","body":""}"#.utf8)))
        let (queries, entities) = try await database.prune(
            now: Date(), maximumAge: .seconds(7 * 24 * 3600), maximumEntities: 5)
        #expect(queries == 1)
        #expect(try await database.loadQuery(type: "Note", key: "/old") == nil)
        #expect(try await database.loadEntity(type: "Note", id: "1") == nil)
        #expect(try await database.loadEntity(type: "Note", id: "2")?.value != nil)
        let left = try await database.read { try Int($0.scalarInt("SELECT COUNT(*) FROM entity")) }
        #expect(left <= 6)
        #expect(entities >= 3)
    }

    @Test func aMutationsOptionsAreSavedWithItAndSentByEveryAttempt() async throws {
        let harness = try await OutboxHarness()
        defer { Task { await harness.stop() } }
        let dead = try await harness.deadBaseURL()
        let options = MutationOptions(
            headers: ["X-Edit-Reason": "typo 誤字".addingPercentEncoding(withAllowedCharacters: .alphanumerics)!],
            timeout: .seconds(7), idempotencyKey: "my-key-1")
        do {
            let offline = try harness.store(baseURL: dead)
            let draft = Note(id: Note.temporaryID(), title: "with options", body: "")
            await #expect(throws: StoreError.self) { try await offline.create(draft, options: options) }
            #expect(try await offline.outbox!.entries().map(\.idempotencyKey) == ["my-key-1"])
        }
        // After a restart, the attempt that reaches the server carries the key, the header and the timeout.
        let recorder = RequestRecorder()
        var configuration = EntityStore.Configuration()
        configuration.collectionInterval = nil
        let client = HTTPClient(baseURL: harness.app.baseURL) {
            $0.interceptors = [recorder]
            $0.retryPolicy = .never
        }
        let store = EntityStore(
            client: client, database: try StoreDatabase(url: harness.databaseURL), configuration: configuration)
        #expect(await sent(store))
        let post = try #require(recorder.requests.first { $0.method == .post })
        #expect(post.headers["Idempotency-Key"] == "my-key-1")
        #expect(post.headers["X-Edit-Reason"] == options.headers["X-Edit-Reason"])
        #expect(post.timeout == .seconds(7))
        #expect(try await harness.serverNotes().filter { $0.title == "with options" }.count == 1)
    }

    @Test func clearingAnErrorKeepsTheResultsAndTheWaitingWrite() async throws {
        let harness = try await OutboxHarness()
        defer { Task { await harness.stop() } }
        let dead = try await harness.deadBaseURL()
        try await harness.saveTheNotesOnline()
        let store = try harness.store(baseURL: dead)
        let live = store.liveQuery(of: Note.self)
        live.select(.list("/notes"))
        await live.settle()
        #expect(live.isFromDisk)
        #expect(live.isOffline)
        #expect(live.error?.isUnreachable == true)
        #expect(!live.items.isEmpty)
        live.clearError()
        #expect(live.error == nil)
        #expect(live.status == .loaded)
        #expect(!live.items.isEmpty)
        #expect(live.hasMore == false)

        let state = store.entity(Note.self, id: 2)
        var edited = try #require(state.value)
        edited.title = "kept"
        await #expect(throws: StoreError.self) { try await store.update(edited) }
        #expect(state.error != nil)
        state.clearError()
        #expect(state.error == nil)
        #expect(state.value?.title == "kept")
        #expect(state.writeStatus != nil)
        #expect(store.outboxStatus.count == 1)
    }
}

@MainActor
@Suite struct MutationOptionsTests {
    @Test func optionsReachTheRequestOfAStoreInMemory() async throws {
        let harness = try await StoreHarness.start()
        defer { Task { await harness.stop() } }
        let recorder = RequestRecorder()
        let client = HTTPClient(baseURL: harness.app.baseURL) {
            $0.interceptors = [recorder]
            $0.retryPolicy = .never
        }
        let store = EntityStore(client: client)
        let state = store.entity(Note.self, id: 2)
        await state.load()
        var edited = try #require(state.value)
        edited.title = "options"
        try await store.update(
            edited, options: MutationOptions(headers: ["X-Edit-Reason": "typo"], timeout: .seconds(3)))
        try await store.delete(Note.self, id: 4, options: MutationOptions(headers: ["X-Edit-Reason": "gone"]))
        let patch = try #require(recorder.requests.first { $0.method == .patch })
        #expect(patch.headers["X-Edit-Reason"] == "typo")
        #expect(patch.timeout == .seconds(3))
        #expect(recorder.requests.first { $0.method == .delete }?.headers["X-Edit-Reason"] == "gone")
        #expect(try await harness.serverNote(2).title == "options")
    }
}

/// Records the requests a client sends.
final class RequestRecorder: HTTPInterceptor {
    private let recorded = Locked<[TransportRequest]>([])
    var requests: [TransportRequest] { recorded.withLock { $0 } }
    func adapt(_ request: TransportRequest) async throws -> TransportRequest {
        recorded.withLock { $0.append(request) }
        return request
    }
}
