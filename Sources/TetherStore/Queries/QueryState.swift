public import Foundation
public import Observation

/// The observable results of one ``Query``: ordered ids, the entities they name, and the loading state.
///
/// ``items`` reads each entity from the store, so an edit to an entity shows in every query that contains it.
/// All properties change on the main actor; fetching and decoding happen elsewhere. Get one with
/// ``EntityStore/query(_:)``; the same key always gives the same object.
///
/// ```swift
/// import Foundation
/// import TetherStore
///
/// struct Note: RemoteEntity { static let collectionPath = "/notes"; var id: Int; var title: String }
///
/// let store = EntityStore(client: HTTPClient(baseURL: URL(string: "http://127.0.0.1:3000")!))
/// let notes = store.query(Query<Note>.list("/notes"))
/// await notes.load()
/// for note in notes.items { print(note.title) }
/// ```
@MainActor
@Observable
public final class QueryState<Entity: RemoteEntity> {
    /// Where the query stands.
    public enum Status: Sendable, Hashable {
        /// Not loaded yet.
        case idle
        /// Loading its first results.
        case loading
        /// Reloading results it already shows.
        case refreshing
        /// Showing results: those of its last load, or, while the server cannot be reached, the last known ones
        /// (then ``QueryState/isOffline`` is `true` and ``QueryState/error`` says why the refresh failed).
        case loaded
        /// The last load failed (see ``QueryState/error``); earlier results, if any, are still shown. A load that
        /// failed only because the server could not be reached, with results to show, is ``loaded`` and
        /// ``QueryState/isOffline`` instead: good data is never hidden behind an error screen.
        case failed
    }

    /// The query's key.
    public let key: String
    /// The ids of the results, in order, without repeats.
    public internal(set) var ids: [Entity.ID] = []
    /// Where the query stands.
    public internal(set) var status: Status = .idle
    /// The last failure, cleared by the next success.
    public internal(set) var error: StoreError?
    /// When the results last came from the server.
    public internal(set) var updatedAt: Date?
    /// Whether there are more pages to load with ``loadMore()``.
    public internal(set) var hasMore = false
    /// Whether ``loadMore()`` is running.
    public internal(set) var isLoadingMore = false
    /// The total number of results, when the server says.
    public internal(set) var totalCount: Int?
    /// How many entries of the loaded pages could not be read and were left out (see ``Page/skippedItems``): 0
    /// when every entry decoded. A refresh starts the count again.
    public internal(set) var skippedItems = 0
    /// Whether the results shown were read from the store's database (an earlier run's) and not yet refreshed
    /// from the server. Such results are stale: the next ``load()`` fetches.
    public internal(set) var isFromDisk = false
    /// Whether the last load failed because the server could not be reached (no connection, a timeout); the
    /// results shown, if any, are the last known ones. With results, ``status`` stays ``Status/loaded``: show them
    /// with an offline note (``updatedAt``, or the disk's time with ``isFromDisk``), not an error screen.
    public internal(set) var isOffline = false
    /// Whether the query is reading the results an earlier run saved in the store's database: `true` from
    /// ``EntityStore/query(_:)`` until they are read (usually a few milliseconds, before the first frame), while
    /// ``ids`` is still empty. ``load()`` and ``refresh()`` wait for that read before they fetch.
    public internal(set) var isRestoring = false

    @ObservationIgnored var definition: Query<Entity>
    @ObservationIgnored let table: EntityTable<Entity>
    @ObservationIgnored weak var store: EntityStore?
    @ObservationIgnored var idSet: Set<Entity.ID> = []
    @ObservationIgnored var nextCursor: PageCursor?
    @ObservationIgnored var generation: UInt64 = 0
    @ObservationIgnored var fetchTask: Task<Void, Never>?
    @ObservationIgnored var moreTask: Task<Void, Never>?
    @ObservationIgnored var refetchTask: Task<Void, Never>?
    @ObservationIgnored var observers = ObserverList<QueryState<Entity>>()
    @ObservationIgnored var invalidated = false
    @ObservationIgnored var unusedSince: Date?
    /// Reading the saved results from the database, for a new query of a store that has one.
    @ObservationIgnored var restoreTask: Task<Void, Never>?

    init(definition: Query<Entity>, table: EntityTable<Entity>, store: EntityStore) {
        key = definition.key
        self.definition = definition
        self.table = table
        self.store = store
    }

    /// The entities, in the order of ``ids``: each one's current value in the store.
    ///
    /// - Complexity: O(n) in the number of results.
    public var items: [Entity] {
        ids.compactMap { table.records[$0]?.value }
    }

    /// The state of each result, for rows that show sync status or errors.
    public var entities: [EntityState<Entity>] {
        ids.compactMap { table.records[$0] }
    }

    /// Whether the results are older than the query's stale time (or were invalidated, or never loaded).
    public var isStale: Bool {
        guard let updatedAt, !invalidated else { return true }
        return Date().timeIntervalSince(updatedAt) >= definition.staleTime.seconds
    }

    /// Loads the results unless they are fresh; joins a load already running instead of starting another.
    public func load() async {
        if let restoreTask { await restoreTask.value }
        if let fetchTask {
            await fetchTask.value
            return
        }
        guard isStale else { return }
        await fetch()
    }

    /// Reloads the first page, whatever the stale time says (joining a load already running).
    public func refresh() async {
        if let restoreTask { await restoreTask.value }
        if let fetchTask {
            await fetchTask.value
            return
        }
        await fetch()
    }

    /// Loads the next page and appends its entities (skipping ids already shown). Does nothing at the end, or
    /// while a load is running.
    public func loadMore() async {
        if let moreTask {
            await moreTask.value
            return
        }
        guard hasMore, fetchTask == nil, let cursor = nextCursor, let store else { return }
        isLoadingMore = true
        changed()
        let generation = self.generation
        let writeMark = store.editCounter
        let task = Task { @MainActor in
            let result = await store.fetchPage(definition, cursor: cursor)
            guard generation == self.generation else { return }
            self.moreTask = nil
            self.isLoadingMore = false
            switch result {
            case .success(let page):
                self.apply(page, replacing: false, requestedAt: writeMark)
                store.persist(page.items, of: self)
                store.noteNetwork(reachable: true)
            case .failure(let error):
                if !error.isCancellation { self.error = error }
                if error.isUnreachable { store.noteNetwork(reachable: false, error: error) }
            }
            self.changed()
        }
        moreTask = task
        await task.value
    }

    /// Forgets the last failure (a banner the user dismissed). A failed status becomes ``Status/loaded`` when
    /// results are shown, else ``Status/idle``; the results stay.
    public func clearError() {
        guard error != nil || status == .failed else { return }
        error = nil
        if status == .failed { status = updatedAt == nil && ids.isEmpty ? .idle : .loaded }
        changed()
    }

    /// Stops a load in progress; its answer, when it comes, is ignored.
    public func cancel() {
        generation += 1
        fetchTask?.cancel()
        moreTask?.cancel()
        fetchTask = nil
        moreTask = nil
        isLoadingMore = false
        if status == .loading { status = ids.isEmpty ? .idle : .loaded }
        if status == .refreshing { status = .loaded }
        changed()
    }

    /// Calls `handler` now and after every change (its own, and of any entity it contains), on the main actor,
    /// until the token is cancelled or released.
    public func observe(_ handler: @escaping @MainActor (QueryState<Entity>) -> Void) -> ObservationToken {
        let id = makeObserverID()
        observers.add(id: id, handler)
        handler(self)
        return ObservationToken { [weak self] in self?.observers.remove(id: id) }
    }

    /// The query's states as an asynchronous sequence, for code that does not use Observation: the current
    /// snapshot first, then one per change.
    public var snapshots: AsyncStream<Snapshot> {
        AsyncStream(bufferingPolicy: .bufferingNewest(32)) { continuation in
            let token = observe { continuation.yield(Snapshot($0)) }
            continuation.onTermination = { _ in Task { @MainActor in token.cancel() } }
        }
    }

    /// A value copy of the observable state.
    public struct Snapshot: Sendable {
        public var items: [Entity]
        public var status: Status
        public var error: StoreError?
        public var hasMore: Bool
        public var isLoadingMore: Bool
        /// See ``QueryState/isOffline``.
        public var isOffline: Bool
        /// See ``QueryState/isFromDisk``.
        public var isFromDisk: Bool

        @MainActor
        init(_ state: QueryState<Entity>) {
            items = state.items
            status = state.status
            error = state.error
            hasMore = state.hasMore
            isLoadingMore = state.isLoadingMore
            isOffline = state.isOffline
            isFromDisk = state.isFromDisk
        }
    }

    // MARK: - Internals

    func fetch() async {
        guard let store else { return }
        generation += 1
        let generation = self.generation
        moreTask?.cancel()
        moreTask = nil
        isLoadingMore = false
        status = ids.isEmpty ? .loading : .refreshing
        changed()
        let definition = self.definition
        let writeMark = store.editCounter
        let task = Task { @MainActor in
            let result = await store.fetchPage(definition, cursor: nil)
            guard generation == self.generation else { return }
            self.fetchTask = nil
            switch result {
            case .success(let page) where page.isStale:
                // The HTTP cache's copy, served because the server failed: shown as rows from disk are, loaded
                // and offline; still stale, so the next load fetches again.
                self.apply(page, replacing: true, requestedAt: writeMark)
                self.status = .loaded
                self.error = nil
                if self.updatedAt == nil { self.updatedAt = Date() }
                self.invalidated = true
                self.isOffline = true
            case .success(let page):
                self.apply(page, replacing: true, requestedAt: writeMark)
                self.status = .loaded
                self.error = nil
                self.updatedAt = Date()
                self.invalidated = false
                self.isFromDisk = false
                self.isOffline = false
                store.persist(page.items, of: self)
                store.noteNetwork(reachable: true)
            case .failure(let error):
                // Offline with results to show: they stay loaded, the error rides beside them.
                let showsResults = !self.ids.isEmpty
                self.status =
                    error.isCancellation || (error.isUnreachable && showsResults)
                    ? (showsResults ? .loaded : .idle) : .failed
                if !error.isCancellation { self.error = error }
                self.isOffline = error.isUnreachable
                if error.isUnreachable { store.noteNetwork(reachable: false, error: error) }
            }
            self.changed()
        }
        fetchTask = task
        await task.value
    }

    /// Puts a page's entities into the store and its ids into the results.
    ///
    /// `requestedAt` is the store's write counter when the page was requested (see ``EntityTable/ingest``).
    func apply(_ page: Page<Entity>, replacing: Bool, requestedAt writeMark: UInt64 = .max) {
        var newIDs: [Entity.ID] = replacing ? [] : ids
        var seen: Set<Entity.ID> = replacing ? [] : idSet
        newIDs.reserveCapacity(newIDs.count + page.items.count)
        let now = Date()
        for entity in page.items {
            table.ingest(entity, etag: nil, at: now, requestedAt: writeMark)
            if seen.insert(entity.id).inserted { newIDs.append(entity.id) }
        }
        setIDs(newIDs, set: seen)
        nextCursor = page.next
        hasMore = page.next != nil
        totalCount = page.totalCount
        let skipped = (replacing ? 0 : skippedItems) + page.skippedItems
        if skipped != skippedItems { skippedItems = skipped }
    }

    /// Replaces the ids, keeping the entities' reference counts right.
    func setIDs(_ newIDs: [Entity.ID], set newSet: Set<Entity.ID>) {
        for id in newSet where !idSet.contains(id) { table.records[id]?.queryReferences += 1 }
        for id in idSet where !newSet.contains(id) { table.records[id]?.queryReferences -= 1 }
        ids = newIDs
        idSet = newSet
    }

    func changed() {
        observers.notify(self)
    }
}

extension Duration {
    var seconds: Double { Double(components.seconds) + Double(components.attoseconds) / 1e18 }
}
