public import Foundation

extension EntityStore {
    /// Fetches one page of `definition` on another task and returns it here.
    func fetchPage<Entity>(_ definition: Query<Entity>, cursor: PageCursor?) async -> Result<Page<Entity>, StoreError> {
        await Self.run(definition.fetch, client: client, cursor: cursor)
    }

    @concurrent
    private static func run<Entity>(
        _ fetch: Query<Entity>.Fetch, client: HTTPClient, cursor: PageCursor?
    ) async -> Result<Page<Entity>, StoreError> {
        do throws(HTTPError) {
            return .success(try await fetch(client, cursor))
        } catch {
            return .failure(StoreError(.http(error)))
        }
    }

    /// Loads one entity into its state.
    func loadEntity<Entity: RemoteEntity>(_ record: EntityState<Entity>) async {
        let table = table(for: Entity.self)
        if record.value == nil {
            record.status = .loading
            record.changed()
        }
        let request = Request<Entity>(path: Entity.path(for: record.id))
        let writeMark = editCounter
        switch await Self.send(request, client: client) {
        case .success(let response):
            table.ingest(response.value, etag: response.headers["ETag"], requestedAt: writeMark)
            if record.status == .loading { record.status = .synced }
            record.changed()
            if record.lastWrite <= writeMark { persist(response.value, etag: response.headers["ETag"]) }
            noteNetwork(reachable: true)
        case .failure(let error):
            if error.httpError?.status?.code == 404 {
                record.status = .deleted
                record.value = nil
            } else if !error.isCancellation {
                record.status = record.value == nil || record.status == .loading ? .failed : record.status
            }
            if !error.isCancellation { record.error = error }
            table.entityChanged(record)
        }
    }

    /// Sends `request` on another task.
    @concurrent
    static func send<Value>(_ request: Request<Value>, client: HTTPClient) async -> Result<Response<Value>, StoreError>
    {
        do throws(HTTPError) {
            return .success(try await client.send(request))
        } catch {
            return .failure(StoreError(.http(error)))
        }
    }

    /// Marks every query of `type` stale and reloads those in use.
    public func invalidate<Entity: RemoteEntity>(_ type: Entity.Type) {
        table(for: type).invalidate { _, _ in true }
    }

    /// Marks every query whose key starts with `prefix` stale and reloads those in use.
    public func invalidate(keyPrefix prefix: String) {
        for table in tables.values { table.invalidate { key, _ in key.hasPrefix(prefix) } }
    }

    /// Marks every query with `tag` stale and reloads those in use.
    public func invalidate(tag: String) {
        for table in tables.values { table.invalidate { _, tags in tags.contains(tag) } }
    }

    /// Releases queries unused for their cache time and entities unused for the store's entity cache time.
    ///
    /// A query is in use while anything outside the store holds its state, observes it or it is loading; an entity
    /// while a query contains it, anything outside the store holds or observes its state, or an edit is pending.
    /// Runs by itself every ``Configuration/collectionInterval``.
    ///
    /// - Returns: how many queries and entities were released.
    @discardableResult
    public func collectGarbage(now: Date = Date()) -> (queries: Int, entities: Int) {
        var total = (queries: 0, entities: 0)
        for table in tables.values {
            let released = table.collect(now: now, entityCacheTime: configuration.entityCacheTime)
            total.queries += released.queries
            total.entities += released.entities
        }
        return total
    }
}

extension EntityTable: AnyEntityTable {
    func collect(now: Date, entityCacheTime: Duration) -> (queries: Int, entities: Int) {
        var releasedQueries = 0
        for key in Array(queries.keys) {
            let inUse = queryInUse(key)
            let query = queries[key]!
            if inUse {
                query.unusedSince = nil
                continue
            }
            let since = query.unusedSince ?? now
            query.unusedSince = since
            if now.timeIntervalSince(since) >= query.definition.cacheTime.seconds {
                query.refetchTask?.cancel()
                query.setIDs([], set: [])
                queries.removeValue(forKey: key)
                releasedQueries += 1
            }
        }
        var releasedEntities = 0
        for id in Array(records.keys) {
            let inUse =
                !isKnownUniquelyReferenced(&records[id]!) || records[id]!.queryReferences > 0
                || records[id]!.hasObservers || !records[id]!.pendingEdits.isEmpty
                || records[id]!.loadTask != nil
            let record = records[id]!
            if inUse {
                record.unusedSince = nil
                continue
            }
            let since = record.unusedSince ?? now
            record.unusedSince = since
            if now.timeIntervalSince(since) >= entityCacheTime.seconds {
                records.removeValue(forKey: id)
                releasedEntities += 1
            }
        }
        return (releasedQueries, releasedEntities)
    }

    func invalidate(where matches: (String, Set<String>) -> Bool) {
        for key in Array(queries.keys) {
            guard let query = queries[key], matches(query.key, query.definition.tags) else { continue }
            query.invalidated = true
            query.changed()
            if queryInUse(key) { Task { await query.refresh() } }
        }
    }

    func refetchAfterReconnect() {
        for key in Array(queries.keys) {
            // In use first: the binding below holds a reference of its own.
            guard queryInUse(key), let query = queries[key], query.definition.refetchOnReconnect, query.isStale,
                query.fetchTask == nil, query.restoreTask == nil
            else { continue }
            Task { await query.refresh() }
        }
    }

    /// Whether anything outside the store holds or observes the query, or it is loading.
    private func queryInUse(_ key: String) -> Bool {
        guard queries[key] != nil else { return false }
        return !isKnownUniquelyReferenced(&queries[key]!) || !queries[key]!.observers.isEmpty
            || queries[key]!.fetchTask != nil || queries[key]!.moreTask != nil
    }
}
