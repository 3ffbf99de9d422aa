import Foundation
import Testing
import TetherSQLite
import TetherStoreTestSupport
import TetherSync

@testable import TetherStore

/// Quick edits of one entity, made without waiting for the server: the outbox sends each as soon as the one before
/// it is confirmed, over that one's answer (``SendChains``), and still sends each once, in order, or keeps it.
@MainActor
@Suite struct SendChainTests {
    /// Makes `titles.count` edits of `state`'s entity, each in its own task started before the next edit is made
    /// (as an app's save button does), and returns the tasks.
    func edits(of state: EntityState<Note>, titled titles: [String], in store: EntityStore) throws -> [Task<
        Note, any Error
    >] {
        let base = try #require(state.value)
        return titles.map { title in
            var note = base
            note.title = title
            return Task { try await store.update(note) }
        }
    }

    /// A store over `database` whose client records its requests in `recorder` and takes the harness's faults.
    func recordingStore(_ harness: OutboxHarness, _ recorder: RequestRecorder, database: StoreDatabase) -> EntityStore {
        var configuration = EntityStore.Configuration()
        configuration.collectionInterval = nil
        configuration.outboxRetries = .once
        let client = HTTPClient(baseURL: harness.app.baseURL) {
            $0.interceptors = [recorder, harness.faults]
            $0.retryPolicy = .never
        }
        return EntityStore(client: client, database: database, configuration: configuration)
    }

    @Test func manyQuickEditsOfOneNoteReachTheServerOnceEachInOrderOverEachOthersAnswers() async throws {
        let harness = try await OutboxHarness()
        defer { Task { await harness.stop() } }
        let recorder = RequestRecorder()
        let store = recordingStore(harness, recorder, database: try StoreDatabase(url: harness.databaseURL))
        let detail = store.entity(Note.self, id: 6)
        await detail.load()
        // Each answer a little late, so that the later edits are saved while an earlier one is on the wire.
        harness.faults.set("latency=5ms", for: .patch)
        let titles = (1...40).map { "edit \($0)" }
        var returned: [String] = []
        for task in try edits(of: detail, titled: titles, in: store) { returned.append(try await task.value.title) }
        #expect(returned == titles)
        #expect(detail.value?.title == "edit 40")
        #expect(detail.writeStatus == nil)
        #expect(store.outboxStatus.count == 0)
        #expect(try await store.outbox?.entries().isEmpty == true)
        #expect(try await harness.serverNotes().first { $0.id == 6 }?.title == "edit 40")
        // Once each: 40 answered PATCHes (none refused: each If-Match was the ETag the previous answer gave), each
        // under its own key, in the order made.
        #expect(await harness.log.settledCount(prefix: "PATCH /notes/6 200", atLeast: 40) == 40)
        #expect(harness.log.count(prefix: "PATCH /notes/6 412") == 0)
        let patches = recorder.requests.filter { $0.method == .patch }
        #expect(patches.count == 40)
        #expect(Set(patches.compactMap { $0.headers["Idempotency-Key"] }).count == 40)
        #expect(patches.allSatisfy { $0.headers["If-Match"] != nil })
        let sentTitles = patches.compactMap { request -> String? in
            guard let body = request.body, let object = try? JSONSerialization.jsonObject(with: body) as? [String: Any]
            else { return nil }
            return object["title"] as? String
        }
        #expect(sentTitles == titles)
        // The database holds the last answer once its records land.
        await store.flush()
        let reopened = try StoreDatabase(url: harness.databaseURL)
        #expect(try await reopened.outboxEntries().isEmpty)
    }

    @Test func anEditThatFailsStopsTheChainAndTheEditsBehindItWaitAndGoOutInOrderLater() async throws {
        let harness = try await OutboxHarness()
        defer { Task { await harness.stop() } }
        let store = try harness.store()
        let detail = store.entity(Note.self, id: 4)
        await detail.load()
        // The first edit's answer is late and then a 503: the edits made meanwhile are saved behind it.
        harness.faults.set("latency=150ms, status=503", for: .patch)
        let titles = ["first", "second", "third", "fourth"]
        var errors: [StoreError] = []
        for task in try edits(of: detail, titled: titles, in: store) {
            do {
                _ = try await task.value
            } catch let error as StoreError {
                errors.append(error)
            }
        }
        #expect(errors.count == 4)
        #expect(errors.allSatisfy { $0.isPending })
        #expect(detail.value?.title == "fourth")
        #expect(store.outboxStatus.count == 4)
        let waiting = try #require(try await store.outbox?.entries())
        #expect(waiting.count == 4)
        #expect(waiting.allSatisfy { $0.state == .queued })
        #expect(try await harness.serverNotes().first { $0.id == 4 }?.title != "fourth")
        // The server is fine again: everything goes out, in order, once.
        harness.faults.clear()
        store.sendWaitingWrites()
        #expect(await sent(store))
        #expect(try await harness.serverNotes().first { $0.id == 4 }?.title == "fourth")
        #expect(await harness.log.settledCount(prefix: "PATCH /notes/4 200", atLeast: 4) == 4)
        #expect(detail.writeStatus == nil)
        #expect(detail.value?.title == "fourth")
    }

    @Test(arguments: [false, true])
    func aWriteSavedByAnotherStoreBetweenQuickEditsKeepsItsPlaceInTheOrder(sharingTheConnection: Bool) async throws {
        let harness = try await OutboxHarness()
        defer { Task { await harness.stop() } }
        let recorder = RequestRecorder()
        let shared = try StoreDatabase(url: harness.databaseURL)
        func store() throws -> EntityStore {
            recordingStore(
                harness, recorder, database: sharingTheConnection ? shared : try StoreDatabase(url: harness.databaseURL)
            )
        }
        let mine = try store()
        let other = try store()
        let detail = mine.entity(Note.self, id: 5)
        await detail.load()
        let otherDetail = other.entity(Note.self, id: 5)
        await otherDetail.load()
        harness.faults.set("latency=100ms", for: .patch)
        // One edit on the wire and one saved behind it by this store, then one by the other store (over its own
        // connection to the file, or over the same one), then two more by this store: those two must not overtake
        // the other store's.
        // Each step waits until the writes before it are saved (in the file, or already sent), not for a time: on a
        // loaded machine a fixed wait let the other store's write be saved before "a2" (seen in a full run).
        let file = try StoreDatabase(url: harness.databaseURL)
        func saved(_ title: String) async -> Bool {
            let sent = recorder.requests.contains { request in
                request.body.map { String(decoding: $0, as: UTF8.self).contains("\"\(title)\"") } ?? false
            }
            if sent { return true }
            let entries = (try? await file.outboxEntries()) ?? []
            return entries.contains { entry in
                entry.value.map { String(decoding: $0, as: UTF8.self).contains("\"\(title)\"") } ?? false
            }
        }
        func waitUntilSaved(_ title: String) async {
            for _ in 0..<1000 where !(await saved(title)) { try? await Task.sleep(for: .milliseconds(5)) }
        }
        var tasks = try edits(of: detail, titled: ["a1"], in: mine)
        await waitUntilSaved("a1")
        tasks += try edits(of: detail, titled: ["a2"], in: mine)
        await waitUntilSaved("a2")
        var otherNote = try #require(otherDetail.value)
        otherNote.title = "b1"
        let otherTask = Task { try await other.update(otherNote) }
        await waitUntilSaved("b1")
        tasks += try edits(of: detail, titled: ["a3", "a4"], in: mine)
        for task in tasks { _ = try? await task.value }
        _ = try? await otherTask.value
        harness.faults.clear()
        mine.sendWaitingWrites()
        other.sendWaitingWrites()
        #expect(await sent(mine))
        // The other store's write may have gone out through this store's sender: the other store learns it from
        // the file at its sender's next turn, which may be in a long pause after the waits above; start it now.
        other.sendWaitingWrites()
        #expect(await sent(other))
        #expect(try await harness.serverNotes().first { $0.id == 5 }?.title == "a4")
        #expect(await harness.log.settledCount(prefix: "PATCH /notes/5 200", atLeast: 5) == 5)
        let sentTitles = recorder.requests.filter { $0.method == .patch }.compactMap { request -> String? in
            guard let body = request.body, let object = try? JSONSerialization.jsonObject(with: body) as? [String: Any]
            else { return nil }
            return object["title"] as? String
        }
        #expect(sentTitles == ["a1", "a2", "b1", "a3", "a4"])
    }

    @Test func editsSentByAChainAreSentAgainAfterACrashWithTheSameKeysAndBodiesAndAppliedOnce() async throws {
        let harness = try await OutboxHarness()
        defer { Task { await harness.stop() } }
        let recorder = RequestRecorder()
        let client = HTTPClient(baseURL: harness.app.baseURL) {
            $0.interceptors = [recorder, harness.faults]
            $0.retryPolicy = .never
        }
        let titles = (1...10).map { "crash \($0)" }
        weak var crashed: StoreDatabase?
        do {
            var configuration = EntityStore.Configuration()
            configuration.collectionInterval = nil
            configuration.outboxRetries = .once
            let database = try StoreDatabase(url: harness.databaseURL)
            crashed = database
            let store = EntityStore(client: client, database: database, configuration: configuration)
            // Only the chain sends in the run that dies: its background sender would otherwise find the edits
            // whose records were lost still waiting, and send them again itself.
            store.outboxLoop?.cancel()
            let detail = store.entity(Note.self, id: 7)
            await detail.load()
            harness.faults.set("latency=5ms", for: .patch)
            // The process dies before any record of the chain's sends lands: the requests it made and the answers
            // it got never reach the file.
            database.queue.loseSoonWrites()
            for task in try edits(of: detail, titled: titles, in: store) { _ = try await task.value }
            harness.faults.clear()
        }
        #expect(await eventually(10) { crashed == nil })
        #expect(await harness.log.settledCount(prefix: "PATCH /notes/7 200", atLeast: 10) == 10)
        // The next run finds every edit still waiting, under the dead run's leases (a killed process's are free at
        // once; this test's process lives on, so they are made to run out).
        let database = try StoreDatabase(url: harness.databaseURL)
        #expect(try await database.outboxEntries().count == 10)
        // All but the first were sent by the chain, their requests made in memory (their record was lost too).
        let unprepared = try database.queue.read { try $0.scalarInt("SELECT COUNT(*) FROM outbox WHERE prepared = 0") }
        #expect(unprepared == 9)
        _ = try database.queue.write { try $0.run("UPDATE outbox SET lease_until = 0") }
        let report = await Outbox(database: database, client: client).sendAll(retries: .once)
        #expect(report.confirmed.count == 10)
        #expect(report.failed.isEmpty)
        #expect(report.pending.isEmpty)
        #expect(try await database.outboxEntries().isEmpty)
        // Each edit went out twice with one key and the same request (a different body under a known key is
        // refused with 422), and was applied once: the server replayed its first answer.
        #expect(harness.log.count(prefix: "PATCH /notes/7 422") == 0)
        let patches = recorder.requests.filter { $0.method == .patch }
        #expect(patches.count == 20)
        let byKey = Dictionary(grouping: patches) { $0.headers["Idempotency-Key"] ?? "" }
        #expect(byKey.count == 10)
        for (key, requests) in byKey {
            #expect(requests.count == 2, "\(key)")
            #expect(requests.first?.body == requests.last?.body, "\(key)")
            #expect(requests.first?.headers["If-Match"] == requests.last?.headers["If-Match"], "\(key)")
        }
        #expect(try await harness.serverNotes().first { $0.id == 7 }?.title == "crash 10")
    }

    @Test(.timeLimit(.minutes(1)))
    func aPendingRecordThatFailsToLandDoesNotStopQuickEdits() async throws {
        let harness = try await OutboxHarness()
        defer { Task { await harness.stop() } }
        let store = try harness.store()
        let database = try #require(store.database)
        let detail = store.entity(Note.self, id: 8)
        await detail.load()
        harness.faults.set("latency=30ms", for: .patch)
        var tasks = try edits(of: detail, titled: ["r1", "r2"], in: store)
        try await Task.sleep(for: .milliseconds(5))
        // A record handed in to land with the next transaction fails there: that transaction (the next edit's save)
        // is rolled back and run again with the record dropped; the edit still joins the chain, and goes out.
        database.queue.writeSoon { _ in throw DatabaseError(code: 19, message: "refused for the test", sql: nil) }
        tasks += try edits(of: detail, titled: ["r3", "r4"], in: store)
        var returned: [String] = []
        for task in tasks { returned.append(try await task.value.title) }
        #expect(returned == ["r1", "r2", "r3", "r4"])
        #expect(try await store.outbox?.entries().isEmpty == true)
        #expect(try await harness.serverNotes().first { $0.id == 8 }?.title == "r4")
        #expect(await harness.log.settledCount(prefix: "PATCH /notes/8 200", atLeast: 4) == 4)
    }
}
