import Foundation

/// A normalized, observable store of REST entities: each entity once, by type and id, shared by every query and
/// detail view, with optimistic edits that roll back when the server refuses them.
///
/// ```swift
/// let store = EntityStore(client: HTTPClient(baseURL: serverURL))
/// let notes = store.query(.list("/notes"))          // a list
/// await notes.load()
/// let note = store.entity(Note.self, id: 3)         // a detail view of one of them
/// var edited = note.value!
/// edited.title = "Groceries"
/// try await store.update(edited)                   // the list shows it at once, then the server's version
/// ```
///
/// Threading: the store and its states live on the main actor, where UIs read them; requests and decoding run
/// on other tasks (``HTTPClient`` never decodes on its caller's actor).
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

        public init() {}
    }

    /// The client requests go through.
    public let client: HTTPClient
    /// The store's settings.
    public let configuration: Configuration

    var tables: [ObjectIdentifier: any AnyEntityTable] = [:]
    /// Counts edits and the ends of writes: edit numbers, and the marks that tell a read sent before a write ended.
    var editCounter: UInt64 = 0
    private var collector: Task<Void, Never>?

    public init(client: HTTPClient, configuration: Configuration = Configuration()) {
        self.client = client
        self.configuration = configuration
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
        scheduleRefetch(state)
        return state
    }

    /// The state of one entity, shared with every query that contains it; created empty (not loaded) if the store
    /// has none. Call ``EntityState/load()`` to fetch it.
    public func entity<Entity: RemoteEntity>(_ type: Entity.Type, id: Entity.ID) -> EntityState<Entity> {
        let record = table(for: type).record(for: id)
        record.unusedSince = nil
        return record
    }

    /// Puts server versions of entities into the store (from a response the app fetched itself), as a query would.
    public func insert<Entity: RemoteEntity>(_ entities: [Entity]) {
        let table = table(for: Entity.self)
        let now = Date()
        table.records.reserveCapacity(table.records.count + entities.count)
        for entity in entities { table.ingest(entity, etag: nil, at: now) }
    }

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
}
