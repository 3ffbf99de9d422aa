public import Observation

/// A query whose parameters change: a search field, a filter. Selecting new parameters cancels the load for the
/// old ones, and their answer can never replace the new results.
///
/// ```swift
/// let search = store.liveQuery(of: RakutenItem.self)
/// search.select(.itemSearch(RakutenItemSearch(keyword: "ノートパソコン")))   // loads
/// search.select(.itemSearch(RakutenItemSearch(keyword: "コーヒー")))         // cancels the first load, loads the second
/// for item in search.items { … }
/// if search.hasMore { await search.loadMore() }
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

    /// The selected query's last failure (see ``QueryState/error``).
    public var error: StoreError? { current?.error }

    /// Whether the selected query has more pages (see ``QueryState/hasMore``).
    public var hasMore: Bool { current?.hasMore ?? false }

    /// Whether the selected query is loading its next page.
    public var isLoadingMore: Bool { current?.isLoadingMore ?? false }

    /// The selected query's total number of results, when the server says.
    public var totalCount: Int? { current?.totalCount }

    /// How many entries of the selected query's pages could not be read (see ``QueryState/skippedItems``).
    public var skippedItems: Int { current?.skippedItems ?? 0 }

    /// Whether the selected query shows results read from the store's database, not yet refreshed.
    public var isFromDisk: Bool { current?.isFromDisk ?? false }

    /// Whether the selected query's last load could not reach the server.
    public var isOffline: Bool { current?.isOffline ?? false }

    /// Loads the selected query's next page (see ``QueryState/loadMore()``).
    public func loadMore() async {
        await current?.loadMore()
    }

    /// Reloads the selected query's first page (see ``QueryState/refresh()``).
    public func refresh() async {
        await current?.refresh()
    }

    /// Forgets the selected query's last failure (see ``QueryState/clearError()``).
    public func clearError() {
        current?.clearError()
    }

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
