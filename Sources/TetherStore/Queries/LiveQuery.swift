public import Observation

/// A query whose parameters change: a search field, a filter. Selecting new parameters cancels the load for the
/// old ones, and their answer can never replace the new results.
///
/// ```swift
/// let search = store.liveQuery(of: Item.self)
/// search.select(.rakutenSearch(keyword: "ノートパソコン"))   // loads
/// search.select(.rakutenSearch(keyword: "コーヒー"))         // cancels the first load, loads the second
/// for item in search.items { … }
/// ```
///
/// Each parameter set is its own ``QueryState`` in the store (so going back to an earlier keyword shows its cached
/// results at once); `LiveQuery` follows the selected one. Observable, on the main actor.
@MainActor
@Observable
public final class LiveQuery<Entity: RemoteEntity> {
    /// The state of the selected query, `nil` before the first ``select(_:)``.
    public private(set) var current: QueryState<Entity>?

    @ObservationIgnored private weak var store: EntityStore?
    @ObservationIgnored private var loadTask: Task<Void, Never>?

    init(store: EntityStore) {
        self.store = store
    }

    /// The selected query's entities (empty before the first selection).
    public var items: [Entity] { current?.items ?? [] }

    /// The selected query's status.
    public var status: QueryState<Entity>.Status { current?.status ?? .idle }

    /// Follows `definition` from now on and loads it; the previous query's load is cancelled unless the same key is
    /// selected again.
    public func select(_ definition: Query<Entity>) {
        guard let store else { return }
        if let current, current.key == definition.key { return }
        loadTask?.cancel()
        current?.cancel()
        let next = store.query(definition)
        current = next
        loadTask = Task { await next.load() }
    }

    /// Waits for the selected query's load to finish (for tests and command-line tools).
    public func settle() async {
        await loadTask?.value
    }
}

extension EntityStore {
    /// A ``LiveQuery`` over `type`, with nothing selected yet.
    public func liveQuery<Entity: RemoteEntity>(of type: Entity.Type) -> LiveQuery<Entity> {
        LiveQuery(store: self)
    }
}
