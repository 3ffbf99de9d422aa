import Foundation
import TetherJSON

/// An entity read back from the database.
struct RestoredEntity<Entity: RemoteEntity>: Sendable {
    var value: Entity
    var serverValue: Entity?
    var etag: String?
    var fetchedAt: Date?
}

extension EntityStore {
    // MARK: - Saving what the server sent

    /// Saves server versions (and a query's ids) to the database, after the ones saved before, off the main actor.
    func persist<Entity: RemoteEntity>(_ entities: [Entity], of query: QueryState<Entity>?) {
        guard let database else { return }
        let type = Self.typeName(Entity.self)
        let key = query?.key
        let ids = query?.ids.map { String(describing: $0) }
        let next = query?.nextCursor
        let total = query?.totalCount
        let date = Date()
        let previous = persistChain
        persistChain = Task {
            await previous?.value
            await Self.save(entities, type: type, key: key, ids: ids, next: next, total: total, at: date, in: database)
        }
    }

    /// Saves one entity's server version and ETag; `forWrites`: also in a store without a database, into its
    /// outbox in memory (a conflict's server version, which keeping the local version is sent over).
    func persist<Entity: RemoteEntity>(_ entity: Entity, etag: String?, forWrites: Bool = false) {
        guard let database = database ?? (forWrites ? writes?.database : nil) else { return }
        let type = Self.typeName(Entity.self)
        let previous = persistChain
        persistChain = Task {
            await previous?.value
            guard let bytes = try? TetherJSONEncoder().encode(entity) else { return }
            try? await database.savePage(
                type: type, rows: [EntityRow(id: String(describing: entity.id), value: bytes, etag: etag)], query: nil,
                ids: nil, next: nil, totalCount: nil, at: Date())
        }
    }

    /// Saves a query's ids after a local change to its list.
    func persistIDs<Entity: RemoteEntity>(of query: QueryState<Entity>) {
        guard let database, query.updatedAt != nil else { return }
        let type = Self.typeName(Entity.self)
        let key = query.key
        let ids = query.ids.map { String(describing: $0) }
        let previous = persistChain
        persistChain = Task {
            await previous?.value
            try? await database.saveQueryIDs(type: type, key: key, ids: ids)
        }
    }

    /// Waits until everything handed to the database so far is written (for tests, benchmarks and quitting): the
    /// pages saved in the background, and the confirmations of sent writes that would otherwise be recorded a
    /// moment later.
    public func flush() async {
        while let chain = persistChain {
            await chain.value
            if persistChain == chain { persistChain = nil }
        }
        await (database ?? writes?.database)?.commitPendingWrites()
    }

    @concurrent
    private static func save<Entity: RemoteEntity>(
        _ entities: [Entity], type: String, key: String?, ids: [String]?, next: PageCursor?, total: Int?, at date: Date,
        in database: StoreDatabase
    ) async {
        let size = entitiesPerEncodingPart
        guard entities.count >= 2 * size else {
            let rows = encodeRows(entities[...])
            try? await database.savePage(
                type: type, rows: rows, query: key, ids: ids, next: next, totalCount: total, at: date)
            return
        }
        // A large page: its parts are encoded on other threads while the transaction writes those made already.
        let parts = EncodedParts(count: (entities.count + size - 1) / size)
        parts.start(workers: ProcessInfo.processInfo.activeProcessorCount) { index in
            encodeRows(entities[(index * size)..<min(entities.count, (index + 1) * size)])
        }
        try? await database.savePage(
            type: type, parts: parts.count, part: { parts.take($0) }, query: key, ids: ids, next: next,
            totalCount: total, at: date)
    }

    /// The size of the parts of a large page that ``save(_:type:key:ids:next:total:at:in:)`` encodes while it
    /// writes; a page of fewer than two parts is encoded in one go.
    nonisolated static let entitiesPerEncodingPart = 256

    /// The entities as rows, in order; those that fail to encode are left out.
    /// All of them are written into one buffer (each row's value is a slice of it): one encoder setup and one
    /// allocation for the lot instead of one each.
    private nonisolated static func encodeRows<Entity: RemoteEntity>(_ entities: ArraySlice<Entity>) -> [EntityRow] {
        let (bytes, ranges) = TetherJSONEncoder().encodeEach(entities)
        var rows: [EntityRow] = []
        rows.reserveCapacity(entities.count)
        for (entity, range) in zip(entities, ranges) {
            guard let range else { continue }
            rows.append(EntityRow(id: String(describing: entity.id), value: bytes[range], etag: nil))
        }
        return rows
    }

    // MARK: - Reading it back

    /// Starts reading a new query's saved results, which it shows (stale) until its first load answers.
    func startRestore<Entity>(_ state: QueryState<Entity>) {
        guard let database else { return }
        let type = Self.typeName(Entity.self)
        let key = state.key
        // The first screenful at once, then the rest. The read starts now, off the main actor, even while the main
        // actor is busy (making the screen that shows it); only its result waits for the main actor.
        let first = Self.firstRows
        let reading = Task.detached(priority: .userInitiated) {
            await Self.readQuery(Entity.self, type: type, key: key, limit: first, from: database)
        }
        let firstScreen = firstScreenShown
        state.isRestoring = true
        state.restoreTask = Task { [weak state] in
            // Once the query's saved rows are read, the first screenful and the rest: the reads that wait for it
            // (see ``firstScreenShown``) then no longer share the connection and the cores with these.
            defer { firstScreen?.set(()) }
            let restored = await reading.value
            guard let state else { return }
            state.restoreTask = nil
            state.isRestoring = false
            guard let restored, state.updatedAt == nil, state.ids.isEmpty else { return }
            state.restore(restored.ids, entities: restored.entities, stored: restored.stored)
            guard restored.stored.ids.count > first else { return }
            let rest = Array(restored.stored.ids.dropFirst(first))
            let more = await Self.readRows(Entity.self, type: type, ids: rest, from: database)
            let missing = Set(rest.compactMap { Entity.ID($0) }.filter { more[$0] == nil })
            state.restoreMore(more, missing: missing)
        }
    }

    /// How many of a query's saved rows are read (and decoded) before it shows them.
    static let firstRows = 30

    @concurrent
    private static func readRows<Entity: RemoteEntity>(
        _: Entity.Type, type: String, ids: [String], from database: StoreDatabase
    ) async -> [Entity.ID: RestoredEntity<Entity>] {
        guard let rows = try? await database.loadEntities(type: type, ids: ids) else { return [:] }
        return decode(rows, ids: ids)
    }

    private nonisolated static func decode<Entity: RemoteEntity>(
        _ rows: [String: StoredEntity], ids: [String]
    ) -> [Entity.ID: RestoredEntity<Entity>] {
        var entities: [Entity.ID: RestoredEntity<Entity>] = [:]
        entities.reserveCapacity(ids.count)
        for (id, entity) in decodeInOrder(rows, ids: ids[...]) as [(Entity.ID, RestoredEntity<Entity>)] {
            entities[id] = entity
        }
        return entities
    }

    /// The rows of `ids` decoded, in order, without the deleted ones and those that do not decode.
    private nonisolated static func decodeInOrder<Entity: RemoteEntity>(
        _ rows: [String: StoredEntity], ids: ArraySlice<String>
    ) -> [(Entity.ID, RestoredEntity<Entity>)] {
        let decoder = TetherJSONDecoder()
        var entities: [(Entity.ID, RestoredEntity<Entity>)] = []
        entities.reserveCapacity(ids.count)
        for text in ids {
            guard let row = rows[text], !row.deleted, let bytes = row.value,
                let value = try? decoder.decode(Entity.self, from: bytes)
            else { continue }
            let server = row.serverValue.flatMap { try? decoder.decode(Entity.self, from: $0) }
            entities.append(
                (value.id, RestoredEntity(value: value, serverValue: server, etag: row.etag, fetchedAt: row.fetchedAt)))
        }
        return entities
    }

    @concurrent
    private static func readQuery<Entity: RemoteEntity>(
        _: Entity.Type, type: String, key: String, limit: Int, from database: StoreDatabase
    ) async -> (ids: [Entity.ID], entities: [Entity.ID: RestoredEntity<Entity>], stored: StoredQuery)? {
        guard let stored = try? await database.loadQuery(type: type, key: key, limit: limit) else { return nil }
        // The rows read, decoded in two halves at once (the second in a child task), as the first screen waits for
        // them; a few rows are decoded here alone.
        let shown = Array(stored.ids.prefix(limit))
        var entities: [Entity.ID: RestoredEntity<Entity>]
        if shown.count >= 8 {
            let rows = stored.entities
            let half = shown.count / 2
            async let later = decodeInOrder(rows, ids: shown[half...]) as [(Entity.ID, RestoredEntity<Entity>)]
            entities = [:]
            entities.reserveCapacity(shown.count)
            for (id, entity) in decodeInOrder(rows, ids: shown[..<half]) as [(Entity.ID, RestoredEntity<Entity>)] {
                entities[id] = entity
            }
            for (id, entity) in await later where entities[id] == nil { entities[id] = entity }
        } else {
            entities = decode(stored.entities, ids: shown)
        }
        // The ids, in order; those whose rows are not read yet are known by their text.
        // Of the rows read, those gone or deleted here leave the list; the others are known by their text for now.
        let ids = stored.ids.enumerated().compactMap { offset, text -> Entity.ID? in
            guard let id = Entity.ID(text) else { return nil }
            return offset < limit && entities[id] == nil ? nil : id
        }
        return (ids, entities, stored)
    }

    /// Reads the writes of `table`'s type that wait in the outbox (left by an earlier run or another process) into
    /// the entities' states, so that they show as waiting and are sent; once the first screen is shown, or
    /// ``outboxStartDelay`` after the store started.
    func restoreWrites<Entity>(of table: EntityTable<Entity>) {
        guard let database else { return }
        let type = Self.typeName(Entity.self)
        let firstScreen = firstScreenShown
        restoresInFlight += 1
        Task {
            defer {
                restoresInFlight -= 1
                if restoresInFlight == 0 { settledWrites.removeAll() }
            }
            // After the first screen: this read would share the connection with that screen's and delay it. The
            // rows it shows carry their waiting writes already (`StoreDatabase.entities(type:ids:in:)`); only
            // their states' status waits.
            _ = await firstScreen?.value(within: Self.outboxStartDelay)
            guard let entries = try? await database.outboxEntries(type: type), !entries.isEmpty else { return }
            let decoder = TetherJSONDecoder()
            for entry in entries {
                guard let id = Entity.ID(entry.entityID) else { continue }
                // This store's own writes (recorded, or being saved), and writes settled since the read.
                if settledWrites.contains(entry.id) || unrecordedWrites.ids.withLock({ $0.contains(entry.id) }) {
                    continue
                }
                let record = table.record(for: id)
                if record.pendingEdits.contains(where: { $0.outboxID == entry.id }) { continue }
                if entry.kind == .delete {
                    for query in table.queries.values where query.idSet.contains(id) {
                        var set = query.idSet
                        set.remove(id)
                        query.setIDs(query.ids.filter { $0 != id }, set: set)
                        query.changed()
                    }
                    record.status = .syncing
                    editCounter += 1
                    record.lastWrite = editCounter
                } else if let bytes = entry.value, let value = try? decoder.decode(Entity.self, from: bytes) {
                    editCounter += 1
                    // A read already on its way may carry the version from before this write: it must not replace it.
                    record.lastWrite = editCounter
                    if record.value != nil && record.pendingEdits.isEmpty { record.serverValue = record.value }
                    // In the outbox's order: an edit the user made since the start (saved after this one, or not yet
                    // saved) stays after it, and stays what the entity shows.
                    let position =
                        record.pendingEdits.firstIndex { edit in edit.outboxID.map { $0 > entry.id } ?? true }
                        ?? record.pendingEdits.endIndex
                    record.pendingEdits.insert(
                        PendingEdit(number: editCounter, value: value, outboxID: entry.id), at: position)
                    if position == record.pendingEdits.count - 1 { record.value = value }
                    record.status = entry.state == .queued ? .syncing : .failed
                    if entry.kind == .create {
                        for query in table.queries.values
                        where query.definition.includesCreatedEntities && !query.idSet.contains(id) {
                            var set = query.idSet
                            set.insert(id)
                            query.setIDs(query.ids + [id], set: set)
                        }
                    }
                }
                record.writeStatus =
                    switch entry.state {
                    case .queued: .queued
                    case .failed: .failed
                    case .conflict: .conflict
                    }
                if entry.state != .queued, let message = entry.lastError {
                    record.error = StoreError(.database("not saved: \(message)"))
                }
                table.entityChanged(record)
            }
            await refreshOutboxStatus()
        }
    }
}

extension QueryState {
    /// Shows results read from the database: stale (so the next load fetches), marked ``isFromDisk``. The ids are
    /// all the saved ones; `entities` may hold only the first of them (``restoreMore(_:)`` brings the rest).
    func restore(_ restoredIDs: [Entity.ID], entities: [Entity.ID: RestoredEntity<Entity>], stored: StoredQuery) {
        var set = Set<Entity.ID>()
        var ordered: [Entity.ID] = []
        for id in restoredIDs where set.insert(id).inserted { ordered.append(id) }
        addRecords(entities, fetchedAt: stored.fetchedAt)
        // Entities created here and not yet confirmed belong in lists that show created entities.
        if definition.includesCreatedEntities {
            for (id, record) in table.records
            where record.writeStatus != nil && record.pendingEdits.first != nil
                && !set.contains(id) && Self.isTemporary(id)
            {
                set.insert(id)
                ordered.append(id)
            }
        }
        setIDs(ordered, set: set)
        nextCursor = stored.nextCursor
        hasMore = stored.nextCursor != nil
        totalCount = stored.totalCount
        updatedAt = stored.fetchedAt
        invalidated = true
        isFromDisk = true
        if status == .idle { status = .loaded }
        changed()
    }

    /// Adds the rest of the saved rows, read after the first ones were shown.
    func restoreMore(_ entities: [Entity.ID: RestoredEntity<Entity>], missing: Set<Entity.ID>) {
        guard isFromDisk else { return }
        let added = addRecords(entities, fetchedAt: updatedAt ?? Date())
        for id in added where idSet.contains(id) { table.records[id]?.queryReferences += 1 }
        let gone = missing.filter { idSet.contains($0) && table.records[$0] == nil }
        if !gone.isEmpty {
            var set = idSet
            set.subtract(gone)
            setIDs(ids.filter { !gone.contains($0) }, set: set)
        }
        if !added.isEmpty || !gone.isEmpty { changed() }
    }

    /// Makes states for restored entities the table does not have; returns their ids.
    @discardableResult
    private func addRecords(_ entities: [Entity.ID: RestoredEntity<Entity>], fetchedAt: Date) -> [Entity.ID] {
        var added: [Entity.ID] = []
        for (id, restored) in entities where table.records[id] == nil {
            let record = EntityState(serverVersion: restored.value, at: restored.fetchedAt ?? fetchedAt)
            record.store = store
            if let server = restored.serverValue, server != restored.value { record.serverValue = server }
            if let etag = restored.etag { record.etag = etag }
            table.records[id] = record
            added.append(id)
        }
        return added
    }

    private static func isTemporary(_ id: Entity.ID) -> Bool {
        let text = String(describing: id)
        return text.hasPrefix("-") || text.hasPrefix("tmp-")
    }
}
