public import Foundation
import TetherSync

/// A normalized, observable store of REST entities: each entity once, by type and id, shared by every query and
/// detail view, with optimistic edits that go through an outbox (on disk or in memory) and are never lost.
///
/// ```swift
/// import Foundation
/// import TetherStore
///
/// struct Note: RemoteEntity {
///     static let collectionPath = "/notes"
///     var id: Int
///     var title: String
///     var body: String
/// }
///
/// let store = EntityStore(client: HTTPClient(baseURL: URL(string: "http://127.0.0.1:3000")!))
/// let notes = store.query(Query<Note>.list("/notes"))   // a list
/// await notes.load()
/// let note = store.entity(Note.self, id: 3)             // a detail view of one of them
/// var edited = note.value!
/// edited.title = "Groceries"
/// try await store.update(edited)                        // the list shows it at once, then the server's version
/// ```
///
/// Threading: the store and its states live on the main actor, where UIs read them; requests and decoding run
/// on other tasks (``/TetherHTTP/HTTPClient`` never decodes on its caller's actor).
@MainActor
public final class EntityStore {
    /// Settings of a store.
    public struct Configuration: Sendable {
        /// Unused entities (in no query, observed by nothing, with no edit pending) stay this long.
        public var entityCacheTime: Duration = .seconds(300)
        /// How often the store releases unused queries and entities; `nil` to do it only in
        /// ``collectGarbage(now:)``.
        public var collectionInterval: Duration? = .seconds(30)
        /// How edits are sent: `PATCH` with the changed fields (the default), or `PUT` with the whole entity.
        public var updateMethod: HTTPMethod = .patch
        /// With a database: how long saved query results and entities are kept on disk after they were fetched.
        public var diskCacheTime: Duration = .seconds(7 * 24 * 3600)
        /// With a database: the most entities of one type kept on disk (those with writes waiting are always kept).
        public var diskEntityLimit = 50_000
        /// With a database: how a mutation's own send retries before it reports the write as pending (it stays in
        /// the outbox, which keeps sending it in the background).
        public var outboxRetries = Outbox.Retries()

        public init() {}
    }

    /// The client requests go through.
    public let client: HTTPClient
    /// The store's settings.
    public let configuration: Configuration
    /// Where entities, query results and the outbox are kept; `nil` for a store in memory only.
    public let database: StoreDatabase?
    /// The writes waiting to be sent, when the store has a database.
    public let outbox: Outbox?
    /// The queue every create, update and delete goes through: the database's outbox, or, for a store without one,
    /// an outbox in memory (SQLite's `:memory:`) with the same order, keys, retries and states, lost only when the
    /// process ends, made at the store's first write (``writeQueue()``): a store that only reads pays nothing for it.
    var writes: Outbox?
    /// Hands the outbox's events to this store (weakly).
    let reference = StoreReference()
    /// What the outbox holds and whether the server can be reached.
    public let outboxStatus = OutboxStatus()

    var tables: [ObjectIdentifier: any AnyEntityTable] = [:]
    /// The tables by type name, for outbox events (which name types by ``typeName(_:)``).
    var tablesByName: [String: any AnyEntityTable] = [:]
    /// Disk writes of fetched pages, in order.
    var persistChain: Task<Void, Never>?
    var outboxLoop: Task<Void, Never>?
    /// The pass over the disk's cache limits, 10 s after the store starts; cancelled when the store goes.
    var pruneTask: Task<Void, Never>?
    /// The background loop's next turn: set to wake it (a new latch per pass, see ``Latch``).
    var outboxWake: Latch<Void>?
    /// Opened when a query has read its saved rows from disk (the first screen, then the rest): the outbox's first
    /// turn and the reads of waiting writes into entity states wait for it, up to ``outboxStartDelay``.
    var firstScreenShown: Latch<Void>?
    /// The background loop's pause after a pass that left writes waiting (it doubles after each such pass, up to
    /// the longest); also the wait before it tries again after a write's transient failure. Shorter in tests.
    var backgroundPause: (first: Duration, longest: Duration) = (.seconds(1), .seconds(60))
    /// Why the server could not be reached, while ``OutboxStatus/isOffline``: the error a write made meanwhile
    /// waits with.
    var networkFailure: StoreError?
    /// Counts this process's changes to ``outboxStatus``, so a slower read of the database cannot undo one.
    var outboxStatusVersion: UInt64 = 0
    /// Writes of this store between the start of their save and their count in ``outboxStatus``: a count read from
    /// the database meanwhile may hold them already, and is dropped.
    var outboxSavesInFlight = 0
    /// Outbox entries saved by this store whose pending edits do not name them yet (their first send is under way):
    /// a restore of the outbox meanwhile leaves them alone. Filled inside the saving transaction.
    let unrecordedWrites = ReservedEntries()
    /// Restores of the outbox into entity states (``restoreWrites(of:)``) under way, and the entries whose outcome
    /// was applied meanwhile (confirmed or discarded): a restore reads the outbox before it applies what it read,
    /// and must not bring back a write that was settled in between.
    var restoresInFlight = 0
    var settledWrites: Set<Int64> = []
    /// Counts edits and the ends of writes: edit numbers, and the marks that tell a read sent before a write ended.
    var editCounter: UInt64 = 0
    private var collector: Task<Void, Never>?

    /// A store that keeps everything in memory.
    public convenience init(client: HTTPClient, configuration: Configuration = Configuration()) {
        self.init(client: client, database: nil, configuration: configuration)
    }

    /// A store that opens (or creates) its database at `databaseURL`; `nil` keeps everything in memory.
    ///
    /// A database that cannot be opened, or is damaged (then moved aside, never deleted), leaves the store in
    /// memory, and ``OutboxStatus/databaseProblem`` says why. This opens the file on the calling thread (a few
    /// milliseconds, more when its schema migrates); an app on the main actor should rather use
    /// ``open(client:databaseURL:configuration:)``.
    public convenience init(client: HTTPClient, databaseURL: URL?, configuration: Configuration = Configuration()) {
        var database: StoreDatabase?
        var problem: String?
        if let databaseURL {
            do {
                database = try StoreDatabase(url: databaseURL)
            } catch {
                problem = error.kind.databaseMessage ?? error.description
            }
        }
        self.init(client: client, database: database, configuration: configuration)
        outboxStatus.databaseProblem = problem
    }

    /// A store over the database at `databaseURL`, opened off the main actor (see ``StoreDatabase/open(url:)``);
    /// as ``init(client:databaseURL:configuration:)`` otherwise.
    public static func open(
        client: HTTPClient, databaseURL: URL?, configuration: Configuration = Configuration()
    ) async -> EntityStore {
        var database: StoreDatabase?
        var problem: String?
        if let databaseURL {
            do {
                database = try await StoreDatabase.open(url: databaseURL)
            } catch {
                problem = error.kind.databaseMessage ?? error.description
            }
        }
        let store = EntityStore(client: client, database: database, configuration: configuration)
        store.outboxStatus.databaseProblem = problem
        return store
    }

    /// A store over `database`: queries show their saved results at once (stale) and then refresh; every create,
    /// update and delete goes through the database's outbox, so it survives failures and restarts and is sent
    /// once. The writes left waiting by an earlier run are sent from the start.
    public init(client: HTTPClient, database: StoreDatabase?, configuration: Configuration = Configuration()) {
        self.client = client
        self.configuration = configuration
        self.database = database
        let reference = reference
        let writes = database.map {
            Outbox(database: $0, client: client) { event in await reference.store?.handle(event) }
        }
        self.writes = writes
        self.outbox = writes
        reference.store = self
        if let summary = database?.outboxSummaryAtOpen {
            outboxStatus.count = summary.count
            outboxStatus.failedCount = summary.failed
            outboxStatus.oldest = summary.oldest
        }
        if writes != nil { startOutbox() }
        if let interval = configuration.collectionInterval {
            collector = Task { [weak self] in
                while !Task.isCancelled {
                    try? await Task.sleep(for: interval)
                    self?.collectGarbage()
                }
            }
        }
    }

    isolated deinit {
        collector?.cancel()
        outboxLoop?.cancel()
        pruneTask?.cancel()
        outboxWake?.set(())
    }

    /// The state of the query with `definition`'s key, created (not loaded) if the store has none.
    ///
    /// Call ``QueryState/load()`` to fetch it; any number of callers get the same object and share one request.
    public func query<Entity>(_ definition: Query<Entity>) -> QueryState<Entity> {
        let table = table(for: Entity.self)
        if let existing = table.queries[definition.key] {
            existing.unusedSince = nil
            return existing
        }
        let state = QueryState(definition: definition, table: table, store: self)
        table.queries[definition.key] = state
        if database != nil { startRestore(state) }
        scheduleRefetch(state)
        return state
    }

    /// The state of one entity, shared with every query that contains it; created empty (not loaded) if the store
    /// has none. Call ``EntityState/load()`` to fetch it.
    public func entity<Entity: RemoteEntity>(_ type: Entity.Type, id: Entity.ID) -> EntityState<Entity> {
        let table = table(for: type)
        // A created entity's temporary id names it under the server's id once its create is confirmed.
        let record = table.record(for: table.currentID(id))
        record.unusedSince = nil
        return record
    }

    /// Puts server versions of entities into the store (from a response the app fetched itself), as a query would.
    public func insert<Entity: RemoteEntity>(_ entities: [Entity]) {
        let table = table(for: Entity.self)
        // First: the disk's copy is encoded and written on other threads while the states are made here.
        persist(entities, of: nil)
        let now = Date()
        table.records.reserveCapacity(table.records.count + entities.count)
        for entity in entities { table.ingest(entity, etag: nil, at: now) }
    }

    /// Tells the queries that contain `state` that it changed.
    func entityChanged<Entity: RemoteEntity>(_ state: EntityState<Entity>) {
        table(for: Entity.self).entityChanged(state)
    }

    /// The name a type's rows and outbox entries carry in the database.
    ///
    /// `String(reflecting:)` walks the type's metadata (about 4 µs per call in a profile); the names are kept once
    /// made.
    nonisolated static func typeName<Entity>(_ type: Entity.Type) -> String {
        let key = ObjectIdentifier(type)
        if let name = typeNames.withLock({ $0[key] }) { return name }
        let name = String(reflecting: type)
        typeNames.withLock { $0[key] = name }
        return name
    }

    /// ``typeName(_:)``'s names, by type.
    private nonisolated static let typeNames = Locked<[ObjectIdentifier: String]>([:])

    /// The number of entities of `type` in the store.
    public func count<Entity: RemoteEntity>(of type: Entity.Type) -> Int {
        table(for: type).records.count
    }

    /// The number of queries over `type` in the store.
    public func queryCount<Entity: RemoteEntity>(of type: Entity.Type) -> Int {
        table(for: type).queries.count
    }

    func table<Entity: RemoteEntity>(for type: Entity.Type) -> EntityTable<Entity> {
        let key = ObjectIdentifier(type)
        if let table = tables[key] as? EntityTable<Entity> { return table }
        let table = EntityTable<Entity>(store: self)
        tables[key] = table
        tablesByName[Self.typeName(type)] = table
        if database != nil { restoreWrites(of: table) }
        return table
    }

    private func scheduleRefetch<Entity>(_ state: QueryState<Entity>) {
        guard let interval = state.definition.refetchInterval else { return }
        state.refetchTask = Task { [weak state] in
            while !Task.isCancelled {
                try? await Task.sleep(for: interval)
                guard let state, !Task.isCancelled else { return }
                if state.updatedAt != nil, state.fetchTask == nil { await state.refresh() }
            }
        }
    }
}

/// What the store needs from every table, whatever its entity type.
@MainActor
protocol AnyEntityTable: AnyObject {
    func collect(now: Date, entityCacheTime: Duration) -> (queries: Int, entities: Int)
    func invalidate(where matches: (String, Set<String>) -> Bool)
    /// Applies what the outbox did to one of this table's entities.
    func apply(_ event: OutboxEvent)
    /// Reloads the stale queries in use that ask for it (``Query/refetchOnReconnect``): the server answers again.
    func refetchAfterReconnect()
    /// Settles the entities whose waiting writes left the outbox without this store's knowing.
    func reconcileWrites(with database: StoreDatabase) async
}

/// A weak reference to a store, for the outbox's events (which must not keep the store alive).
@MainActor
final class StoreReference: Sendable {
    weak var store: EntityStore?
    nonisolated init() {}
}
