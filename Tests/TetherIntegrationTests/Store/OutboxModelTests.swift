import Foundation
import Testing
import TetherHTTP
import TetherServer
import TetherStoreTestSupport
import TetherSync
import TetherTestSupport

@testable import TetherStore

/// Model-based tests of the outbox: a seeded generator makes a user's edits, creates, deletes and decisions, and
/// faults on their requests (a reset before the request is sent, an answer lost after the server applied it, 503,
/// 422, 412) and restarts of the store (with or without its last confirmations on disk, as after a kill -9). The
/// real store runs over a real SQLite file against the local server. After a final sync the server's notes and the
/// store's states are compared with a reference model of what the user did: nothing lost, nothing applied twice,
/// order kept, nothing refused applied.
///
/// CI runs `OutboxModel.ciSeeds` seeds. More: `TETHER_MODEL_SEEDS=5000 swift test --filter OutboxModelTests`; one
/// seed again: `TETHER_MODEL_SEED=1234 swift test --filter OutboxModelTests`. The counts (seeds, actions, faults,
/// restarts) are printed.
@MainActor
@Suite(.serialized, .timeLimit(.minutes(20))) struct OutboxModelTests {
    @Test func seededRunsKeepEveryWriteExactlyOnceInOrder() async throws {
        let seeds = seedsFromEnvironment(
            one: "TETHER_MODEL_SEED", count: "TETHER_MODEL_SEEDS", defaultCount: OutboxModel.ciSeeds
        ) { $0 &* 0x9E37_79B9 &+ 17 }
        var totals = OutboxModel.Counts()
        for seed in seeds {
            let model = try await OutboxModel(seed: seed)
            let counts = await model.run()
            totals.add(counts)
            await model.stop()
            if counts.failures > 0 {
                Issue.record("seed \(seed) failed; reproduce with TETHER_MODEL_SEED=\(seed)")
                break
            }
        }
        print(
            "outbox model: \(seeds.count) seeds, \(totals.actions) actions, \(totals.faults) faults, "
                + "\(totals.restarts) restarts (\(totals.crashes) losing their last confirmations), "
                + "\(totals.decisions) user decisions")
    }
}

/// One seeded run: the generator, the faults, the reference model and the checks.
@MainActor
final class OutboxModel {
    /// How many seeds CI runs.
    static let ciSeeds = 200
    /// Actions per seed.
    static let actionsPerSeed = 14

    struct Counts {
        var actions = 0
        var faults = 0
        var restarts = 0
        var crashes = 0
        var decisions = 0
        var failures = 0

        mutating func add(_ other: Counts) {
            actions += other.actions
            faults += other.faults
            restarts += other.restarts
            crashes += other.crashes
            decisions += other.decisions
            failures += other.failures
        }
    }

    /// What happens to a request's first attempt (later attempts go through).
    enum Fault: String, CaseIterable, Sendable {
        case none
        /// The connection fails before the request is written: the server never sees it.
        case resetBeforeSending
        /// The server applies the write, then the connection is reset before the answer is read.
        case answerLost
        /// 503: not applied, try again later.
        case unavailable
        /// 422: refused for good; the user retries or discards.
        case unprocessable
        /// 412: a conflict; the user keeps theirs or takes the server's.
        case conflict
    }

    /// One write the user made, as the model keeps it.
    struct Write {
        enum Kind {
            case create
            case edit(title: String)
            case delete
        }
        var entity: String
        var kind: Kind
        var key: String
        var discarded = false
    }

    private var generator: SeededRandom
    private let seed: UInt64
    private let folder: URL
    private let databaseURL: URL
    private let app: TetherServerApp
    private let faults = ScriptedFaults()
    private var store: EntityStore
    private var database: StoreDatabase
    private var counts = Counts()
    /// The user's writes, in the order made.
    private var writes: [Write] = []
    /// The notes the user sees as existing, by model name: `n<id>` for the server's, `c<step>` for created ones.
    private var live: [String] = []
    /// The store's id of each model name, as last known (a create's temporary id, then the server's).
    private var ids: [String: Int] = [:]
    /// The server's notes at the start, by id.
    private var initial: [Int: Note] = [:]

    init(seed: UInt64) async throws {
        self.seed = seed
        generator = SeededRandom(seed: seed)
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("tether-model-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        databaseURL = folder.appendingPathComponent("store.sqlite")
        app = try await TetherServerApp.start(.init(writes: .inMemory, rakutenRateLimit: false))
        let plain = HTTPClient(baseURL: app.baseURL) { $0.retryPolicy = .never }
        let notes = try await plain.send(Request<[Note]>(path: "/notes")).value
        for note in notes.prefix(4) {
            initial[note.id] = note
            live.append("n\(note.id)")
            ids["n\(note.id)"] = note.id
        }
        database = try StoreDatabase(url: databaseURL)
        store = Self.makeStore(app.baseURL, database, faults)
    }

    private static func makeStore(_ baseURL: URL, _ database: StoreDatabase, _ faults: ScriptedFaults) -> EntityStore {
        let client = HTTPClient(baseURL: baseURL) {
            $0.interceptors = [faults]
            $0.retryPolicy = .never
            $0.timeout = .seconds(10)
        }
        var configuration = EntityStore.Configuration()
        configuration.collectionInterval = nil
        configuration.outboxRetries = .once
        let store = EntityStore(client: client, database: database, configuration: configuration)
        // The background loop's pauses, short: each seed waits for it several times.
        store.backgroundPause = (.milliseconds(10), .milliseconds(50))
        return store
    }

    func stop() async {
        await store.flush()
        await app.stop()
        try? FileManager.default.removeItem(at: folder)
    }

    private func fail(_ message: String) {
        if counts.failures == 0 { print("model \(seed) did:\n  " + traceLines.joined(separator: "\n  ")) }
        counts.failures += 1
        Issue.record("seed \(seed): \(message)")
    }

    private func nextFault() -> Fault {
        // Half the requests go through; the rest share the faults.
        guard generator.below(2) == 1 else { return .none }
        let faults: [Fault] = [.resetBeforeSending, .answerLost, .unavailable, .unprocessable, .conflict]
        return faults[generator.below(faults.count)]
    }

    func run() async -> Counts {
        let list = store.query(Query<Note>.list("/notes"))
        await list.load()
        for step in 0..<Self.actionsPerSeed {
            counts.actions += 1
            switch generator.below(10) {
            case 0...4 where !live.isEmpty: await edit(step: step)
            case 5...6: await create(step: step)
            case 7 where !live.isEmpty: await delete()
            case 8: await restart()
            default: await decide()
            }
        }
        // The user settles every refused write (a retried one lets the next write of its entity go, which may be
        // refused in turn), then the server is left alone and everything is sent.
        var rounds = 0
        while await decide(all: true), rounds < 50 { rounds += 1 }
        faults.clear()
        let drain = await store.sendWaitingWrites(timeout: .seconds(60))
        if !drain.isDrained || drain.needUser > 0 {
            fail("the outbox did not drain: \(drain)")
        }
        await check()
        return counts
    }

    // MARK: - Actions

    private func key() -> String { "model-\(seed)-\(writes.count)" }

    private func plan(_ key: String) {
        let fault = nextFault()
        if fault != .none { counts.faults += 1 }
        faults.plan(fault, for: key)
        trace("  \(key): \(fault)")
    }

    /// What the run did, printed when it fails (and as it goes with `TETHER_MODEL_TRACE=1`).
    private var traceLines: [String] = []

    private func trace(_ line: String) {
        traceLines.append(line)
        if ProcessInfo.processInfo.environment["TETHER_MODEL_TRACE"] == "1" { print("model \(seed): " + line) }
    }

    private func edit(step: Int) async {
        let name = live[generator.below(live.count)]
        guard let id = await currentID(name) else { return }
        let title = "\(name) edit \(step)"
        let key = key()
        trace("edit \(name) (id \(id)) -> \(title)")
        plan(key)
        writes.append(Write(entity: name, kind: .edit(title: title), key: key))
        let state = store.entity(Note.self, id: id)
        var note = state.value ?? Note(id: id, title: "", body: name)
        note.title = title
        do {
            try await store.update(note, options: MutationOptions(idempotencyKey: key))
        } catch {
            trace("    -> \(error.isPending ? "pending" : "error"): \(error)")
        }
        if state.value?.title != title {
            let edits = state.pendingEdits.map { "\($0.number)/\(String(describing: $0.outboxID))/\($0.value.title)" }
            fail(
                "an edit of \(name) (id \(id), now \(state.id)) does not show at once: \(String(describing: state.value?.title)), "
                    + "\(String(describing: state.writeStatus)), pending \(edits)")
        }
    }

    private func create(step: Int) async {
        let name = "c\(step)"
        let key = key()
        trace("create \(name)")
        plan(key)
        writes.append(Write(entity: name, kind: .create, key: key))
        let draft = Note(id: Note.temporaryID(), title: "\(name) created", body: name)
        ids[name] = draft.id
        live.append(name)
        do {
            let created = try await store.create(draft, options: MutationOptions(idempotencyKey: key))
            ids[name] = created.id
        } catch {
            trace("    -> \(error.isPending ? "pending" : "error"): \(error)")
        }
    }

    private func delete() async {
        let index = generator.below(live.count)
        let name = live[index]
        guard let id = await currentID(name) else { return }
        let key = key()
        trace("delete \(name) (id \(id))")
        plan(key)
        writes.append(Write(entity: name, kind: .delete, key: key))
        live.remove(at: index)
        do {
            try await store.delete(Note.self, id: id, options: MutationOptions(idempotencyKey: key))
        } catch {
            trace("    -> \(error.isPending ? "pending" : "error"): \(error)")
        }
    }

    /// A new store over the same file, as after the process ended: cleanly, or killed before the confirmations
    /// written "soon" landed (their writes are sent again with the same keys).
    private func restart() async {
        counts.restarts += 1
        await refreshIDs()
        trace("restart")
        if generator.below(2) == 0 {
            trace("  losing the last confirmations")
            counts.crashes += 1
            database.queue.loseSoonWrites()
        } else {
            await store.flush()
        }
        database = (try? StoreDatabase(url: databaseURL)) ?? database
        store = Self.makeStore(app.baseURL, database, faults)
        await store.query(Query<Note>.list("/notes")).load()
    }

    /// The user looks at the notes whose writes were refused and retries or discards each (all of them with
    /// `all`, else one at random).
    @discardableResult
    private func decide(all: Bool = false) async -> Bool {
        // Refused writes reach their state in the background too: wait for what is in flight first.
        _ = await store.sendWaitingWrites(timeout: .seconds(30))
        await refreshIDs()
        let refused = try? await database.outboxEntries().filter { $0.state != .queued }
        guard var refused, !refused.isEmpty else { return false }
        if !all { refused = [refused[generator.below(refused.count)]] }
        for entry in refused {
            guard let id = Int(entry.entityID), let name = name(of: id) else {
                fail(
                    "a refused write of an unknown note \(entry.entityID) (\(entry.method), known: \(ids.sorted { $0.key < $1.key }))"
                )
                continue
            }
            counts.decisions += 1
            let state = store.entity(Note.self, id: id)
            if generator.below(2) == 0 {
                trace("retry \(name) (\(entry.method), \(entry.state))")
                do { try await store.retryWrites(of: state) } catch {}
            } else {
                // Every write of the entity still waiting goes; the model drops the same ones, by key.
                let dropped = Set(
                    ((try? await database.outboxEntries(type: entry.entityType, entityID: entry.entityID)) ?? [])
                        .map(\.idempotencyKey))
                trace("discard \(name) (\(entry.method), \(entry.state)): \(dropped.sorted())")
                do {
                    try await store.discardWrites(of: state)
                    // A dropped write whose first attempt reached the server (its answer lost) was applied all the
                    // same: discarding cannot take it back.
                    for index in writes.indices where dropped.contains(writes[index].key) {
                        writes[index].discarded = !faults.reachedTheServer(writes[index].key)
                    }
                    recomputeLive(name)
                } catch {
                    fail("discard failed: \(error)")
                }
            }
        }
        return true
    }

    /// Whether `name` exists for the user after a discard: its last kept write says.
    private func recomputeLive(_ name: String) {
        let kept = writes.filter { $0.entity == name && !$0.discarded }
        let exists: Bool
        if name.hasPrefix("c") {
            exists = !kept.isEmpty && !kept.contains { if case .delete = $0.kind { true } else { false } }
        } else {
            exists = !kept.contains { if case .delete = $0.kind { true } else { false } }
        }
        live.removeAll { $0 == name }
        if exists { live.append(name) }
    }

    /// The id the user sees for `name` now: a created note's state moves from its temporary id to the server's
    /// when its create is confirmed (by this store, an earlier one, or another connection).
    private func currentID(_ name: String) async -> Int? {
        guard name.hasPrefix("c") else { return ids[name] }
        let records = store.table(for: Note.self).records.values
        if let record = records.first(where: { $0.value?.body == name && $0.status != .deleted }) {
            ids[name] = record.id
            return record.id
        }
        await refreshIDs()
        return ids[name]
    }

    /// The model's name of the note with `id` in the store.
    private func name(of id: Int) -> String? {
        if initial[id] != nil { return "n\(id)" }
        if let body = store.table(for: Note.self).records[id]?.value?.body { return body }
        return ids.first { $0.value == id }?.key
    }

    /// The store's ids for the created notes: a create that no longer waits in the outbox has the server's id,
    /// found on the server by its body (the model's name).
    private func refreshIDs() async {
        guard let entries = try? await database.outboxEntries() else { return }
        let waiting = Set(entries.map(\.entityID))
        let plain = HTTPClient(baseURL: app.baseURL) { $0.retryPolicy = .never }
        guard let notes = try? await plain.send(Request<[Note]>(path: "/notes")).value else { return }
        for (name, id) in ids where name.hasPrefix("c") && id < 0 && !waiting.contains(String(id)) {
            if let note = notes.first(where: { $0.body == name }) { ids[name] = note.id }
        }
    }

    // MARK: - The checks

    private func check() async {
        let plain = HTTPClient(baseURL: app.baseURL) { $0.retryPolicy = .never }
        guard let notes = try? await plain.send(Request<[Note]>(path: "/notes")).value else {
            fail("cannot read the server's notes")
            return
        }
        let list = store.query(Query<Note>.list("/notes"))
        await list.refresh()
        for name in Set(writes.map(\.entity)) {
            let kept = writes.filter { $0.entity == name && !$0.discarded }
            var exists = !name.hasPrefix("c")
            var title: String? = nil
            if let id = Int(name.dropFirst()), !name.hasPrefix("c") { title = initial[id]?.title }
            for write in kept {
                switch write.kind {
                case .create:
                    exists = true
                    title = "\(name) created"
                case .edit(let newTitle): title = newTitle
                case .delete: exists = false
                }
            }
            let onServer =
                name.hasPrefix("c")
                ? notes.filter { $0.body == name }
                : notes.filter { "n\($0.id)" == name }
            if exists {
                if onServer.count != 1 {
                    fail("\(name) is on the server \(onServer.count) times (expected once): writes \(kept.map(\.key))")
                } else if onServer[0].title != title {
                    fail("\(name) has title \(onServer[0].title) on the server, expected \(title ?? "nil")")
                } else {
                    let state = store.entity(Note.self, id: onServer[0].id)
                    if state.value?.title != title || state.writeStatus != nil {
                        fail(
                            "\(name) shows \(String(describing: state.value?.title)) (\(String(describing: state.writeStatus))), expected \(title ?? "nil")"
                        )
                    }
                    if !list.items.contains(where: { $0.id == onServer[0].id && $0.title == title }) {
                        fail("\(name) is not in the list as \(title ?? "nil")")
                    }
                }
            } else if !onServer.isEmpty {
                fail("\(name) should not be on the server, found \(onServer.count)")
            }
        }
    }
}

/// Faults planned per `Idempotency-Key`: the first attempt of each keyed request gets its fault, later ones go
/// through. A reset before sending sends the request where nothing listens (the connection is refused: nothing
/// is written).
final class ScriptedFaults: HTTPInterceptor {
    private let state = Locked<(plans: [String: OutboxModel.Fault], attempts: [String: Int])>(([:], [:]))
    private let deadPort: Int

    init() {
        deadPort = (try? closedLoopbackPort()) ?? 9
    }

    func plan(_ fault: OutboxModel.Fault, for key: String) { state.withLock { $0.plans[key] = fault } }

    /// Whether the server applied the write with `key` whatever the client learned: its first attempt was made with
    /// its answer lost.
    func reachedTheServer(_ key: String) -> Bool {
        state.withLock { $0.plans[key] == .answerLost && $0.attempts[key, default: 0] > 0 }
    }
    func clear() { state.withLock { $0.plans = [:] } }

    func adapt(_ request: TransportRequest) async throws -> TransportRequest {
        guard let key = request.headers["Idempotency-Key"] else { return request }
        let fault = state.withLock { state -> OutboxModel.Fault in
            let attempt = state.attempts[key, default: 0]
            state.attempts[key] = attempt + 1
            return attempt == 0 ? state.plans[key] ?? .none : .none
        }
        var request = request
        switch fault {
        case .none: break
        case .resetBeforeSending:
            var parts = URLComponents(url: request.url, resolvingAgainstBaseURL: false)
            parts?.port = deadPort
            if let url = parts?.url { request.url = url }
        case .answerLost: request.headers.set("X-Tether-Fault", "reset")
        case .unavailable: request.headers.set("X-Tether-Fault", "status=503")
        case .unprocessable: request.headers.set("X-Tether-Fault", "status=422")
        case .conflict: request.headers.set("X-Tether-Fault", "status=412")
        }
        return request
    }
}
