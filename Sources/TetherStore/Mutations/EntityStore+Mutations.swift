import Foundation
import TetherJSON

extension EntityStore {
    /// Saves an edit: every list and detail view shows `entity` at once, then the server's version.
    ///
    /// The edit goes out as ``Configuration/updateMethod`` (by default `PATCH` with the fields that differ from the
    /// last server version) to `collectionPath/id`, with `If-Match` when the entity's ETag is known. Several edits
    /// to one entity go out one after another, in order, and an answer never replaces a newer local edit.
    ///
    /// On failure the entity returns to its last server version (or to the newest edit still pending), and the
    /// error is put on the entity and thrown. A 412 sets ``EntityState/conflict`` with both versions.
    ///
    /// With a ``database``, the edit is first saved in the outbox with its optimistic state (one transaction, before
    /// any request), and sent with an `Idempotency-Key` that every retry reuses. A failure then never takes the
    /// edit back: a transient one throws an error whose ``StoreError/isPending`` is `true` (the outbox sends it
    /// later, ``EntityState/writeStatus`` says where it stands); a final one keeps the edit as a draft with the
    /// error until ``retryWrites(of:)`` or ``discardWrites(of:)``.
    ///
    /// - Returns: the server's version after the edit.
    /// - Throws: ``StoreError``.
    @discardableResult
    public func update<Entity: RemoteEntity>(_ entity: Entity) async throws(StoreError) -> Entity {
        try await update(entity, options: MutationOptions())
    }

    /// ``update(_:)`` with per-call options: extra headers, a timeout, the outbox's `Idempotency-Key`.
    @discardableResult
    public func update<Entity: RemoteEntity>(
        _ entity: Entity, options: MutationOptions
    ) async throws(StoreError) -> Entity {
        if let outbox { return try await updateThroughOutbox(entity, outbox: outbox, options: options) }
        let table = table(for: Entity.self)
        let record = table.record(for: entity.id)
        editCounter += 1
        let edit = PendingEdit(number: editCounter, value: entity)
        record.pendingEdits.append(edit)
        record.lastWrite = editCounter
        record.value = entity
        record.status = .syncing
        record.error = nil
        record.conflict = nil
        table.entityChanged(record)

        let previous = record.saveChain
        let done = SaveGate()
        record.saveChain = done
        let task = Task { @MainActor in
            await previous?.wait()
            let result = await self.send(edit, of: record, in: table, options: options)
            self.noteWriteEnded(record)
            done.open()
            return result
        }
        let result = await task.value
        if record.saveChain === done { record.saveChain = nil }
        return try result.get()
    }

    /// Sends one pending edit (the oldest) and applies the answer.
    private func send<Entity: RemoteEntity>(
        _ edit: PendingEdit<Entity>, of record: EntityState<Entity>, in table: EntityTable<Entity>,
        options: MutationOptions
    ) async -> Result<Entity, StoreError> {
        let body: JSON
        let method = configuration.updateMethod
        do {
            body =
                method == .put
                ? try TetherJSONEncoder().encodeToJSON(edit.value)
                : try EntityDiff.changes(from: record.serverValue, to: edit.value)
        } catch {
            finish(edit, of: record, in: table, failure: StoreError(.encoding("\(error)")))
            return .failure(StoreError(.encoding("\(error)")))
        }
        var request = Request<Entity>(path: Entity.path(for: record.id), method: method, body: .json(body))
        options.apply(to: &request)
        if let etag = record.etag { request.headers.set("If-Match", etag) }
        switch await Self.send(request, client: client) {
        case .success(let response):
            record.removePendingEdit { $0.number == edit.number }
            record.serverValue = response.value
            record.etag = response.headers["ETag"]
            record.updatedAt = Date()
            if record.pendingEdits.isEmpty {
                record.value = response.value
                record.status = .synced
            }
            table.entityChanged(record)
            return .success(response.value)
        case .failure(let error):
            if error.httpError?.status?.code == 412 {
                let server = await fetchCurrent(record, in: table)
                record.conflict = Conflict(local: edit.value, server: server)
                finish(edit, of: record, in: table, failure: StoreError(.conflict))
                return .failure(StoreError(.conflict))
            }
            finish(edit, of: record, in: table, failure: error)
            return .failure(error)
        }
    }

    /// Drops a failed edit and shows what is left: the newest pending edit, else the server version.
    private func finish<Entity: RemoteEntity>(
        _ edit: PendingEdit<Entity>, of record: EntityState<Entity>, in table: EntityTable<Entity>,
        failure: StoreError
    ) {
        record.removePendingEdit { $0.number == edit.number }
        record.value = record.pendingEdits.last?.value ?? record.serverValue
        record.status = record.pendingEdits.isEmpty ? .failed : .syncing
        record.error = failure
        table.entityChanged(record)
    }

    /// The server's current version of `record` (and its ETag), for a conflict.
    func fetchCurrent<Entity: RemoteEntity>(
        _ record: EntityState<Entity>, in table: EntityTable<Entity>
    ) async -> Entity? {
        switch await Self.send(Request<Entity>(path: Entity.path(for: record.id)), client: client) {
        case .success(let response):
            record.serverValue = response.value
            record.etag = response.headers["ETag"]
            record.updatedAt = Date()
            return response.value
        case .failure:
            return nil
        }
    }

    /// Ends a conflict: keep the local edit (sent again, over the server's current version) or take the server's.
    ///
    /// - Throws: ``StoreError`` when keeping the local version fails again.
    public func resolveConflict<Entity: RemoteEntity>(
        _ state: EntityState<Entity>, keeping choice: ConflictChoice
    ) async throws(StoreError) {
        if outbox != nil {
            switch choice {
            case .local: try await retryWrites(of: state)
            case .server: try await discardWrites(of: state)
            }
            return
        }
        guard let conflict = state.conflict else { return }
        let table = table(for: Entity.self)
        state.conflict = nil
        switch choice {
        case .server:
            state.value = conflict.server ?? state.serverValue
            state.status = conflict.server == nil ? .deleted : .synced
            state.error = nil
            table.entityChanged(state)
        case .local:
            try await update(conflict.local)
        }
    }

    /// Creates an entity: it shows at once (under its temporary id) in every query that includes created
    /// entities, then takes the server's id and version everywhere.
    ///
    /// Make the draft with ``RemoteEntity/temporaryID()`` as its id. The entity is sent with `POST collectionPath`
    /// without its `id`, so the server chooses one. On failure it leaves the lists; its state keeps the draft, with
    /// the error, so nothing the user wrote is lost.
    ///
    /// - Returns: the server's version.
    /// - Throws: ``StoreError``.
    @discardableResult
    public func create<Entity: RemoteEntity>(_ draft: Entity) async throws(StoreError) -> Entity {
        try await create(draft, options: MutationOptions())
    }

    /// ``create(_:)`` with per-call options: extra headers, a timeout, the outbox's `Idempotency-Key`.
    @discardableResult
    public func create<Entity: RemoteEntity>(
        _ draft: Entity, options: MutationOptions
    ) async throws(StoreError) -> Entity {
        if let outbox { return try await createThroughOutbox(draft, outbox: outbox, options: options) }
        let table = table(for: Entity.self)
        let temporary = table.record(for: draft.id)
        temporary.value = draft
        temporary.status = .syncing
        temporary.error = nil
        let targets = table.queries.values.filter { $0.definition.includesCreatedEntities }
        for query in targets where !query.idSet.contains(draft.id) {
            var set = query.idSet
            set.insert(draft.id)
            query.setIDs(query.ids + [draft.id], set: set)
        }
        table.entityChanged(temporary)

        let body: JSON
        do {
            body = try EntityDiff.body(creating: draft)
        } catch {
            let failure = (error as? StoreError) ?? StoreError(.encoding("\(error)"))
            removeDraft(temporary, in: table, failure: failure)
            throw failure
        }
        var request = Request<Entity>(path: Entity.collectionPath, method: .post, body: .json(body))
        options.apply(to: &request)
        switch await Self.send(request, client: client) {
        case .success(let response):
            let created = response.value
            for query in table.queries.values where query.idSet.contains(draft.id) {
                var ids = query.ids
                var set = query.idSet
                set.remove(draft.id)
                if set.insert(created.id).inserted {
                    ids = ids.map { $0 == draft.id ? created.id : $0 }
                } else {
                    ids.removeAll { $0 == draft.id }
                }
                query.setIDs(ids, set: set)
            }
            table.records.removeValue(forKey: draft.id)
            if let existing = table.records[created.id], existing !== temporary {
                existing.queryReferences += temporary.queryReferences
            } else {
                temporary.id = created.id
                table.records[created.id] = temporary
            }
            table.ingest(created, etag: response.headers["ETag"])
            let record = table.record(for: created.id)
            record.status = .synced
            table.entityChanged(record)
            if record !== temporary {
                temporary.id = created.id
                temporary.value = created
                temporary.status = .synced
                temporary.changed()
            }
            return created
        case .failure(let error):
            removeDraft(temporary, in: table, failure: error)
            throw error
        }
    }

    private func removeDraft<Entity: RemoteEntity>(
        _ record: EntityState<Entity>, in table: EntityTable<Entity>, failure: StoreError
    ) {
        for query in table.queries.values where query.idSet.contains(record.id) {
            var set = query.idSet
            set.remove(record.id)
            query.setIDs(query.ids.filter { $0 != record.id }, set: set)
            query.changed()
        }
        record.status = .failed
        record.error = failure
        record.changed()
    }

    /// Deletes an entity: it leaves every list at once; if the server refuses, it comes back where it was.
    ///
    /// Sends `DELETE collectionPath/id` (with `If-Match` when the ETag is known). A 404 counts as deleted.
    ///
    /// - Throws: ``StoreError``.
    public func delete<Entity: RemoteEntity>(_ type: Entity.Type, id: Entity.ID) async throws(StoreError) {
        try await delete(type, id: id, options: MutationOptions())
    }

    /// ``delete(_:id:)`` with per-call options: extra headers, a timeout, the outbox's `Idempotency-Key`.
    public func delete<Entity: RemoteEntity>(
        _ type: Entity.Type, id: Entity.ID, options: MutationOptions
    ) async throws(StoreError) {
        if let outbox { return try await deleteThroughOutbox(type, id: id, outbox: outbox, options: options) }
        let table = table(for: type)
        let record = table.record(for: id)
        editCounter += 1
        record.lastWrite = editCounter
        var positions: [(QueryState<Entity>, Int)] = []
        for query in table.queries.values {
            guard let index = query.ids.firstIndex(of: id) else { continue }
            positions.append((query, index))
            var set = query.idSet
            set.remove(id)
            var ids = query.ids
            ids.remove(at: index)
            query.setIDs(ids, set: set)
            query.changed()
        }
        let previousStatus = record.status
        record.status = .syncing
        record.changed()

        var request = Request<Void>(path: Entity.path(for: id), method: .delete)
        options.apply(to: &request)
        if let etag = record.etag { request.headers.set("If-Match", etag) }
        let result = await Self.send(request, client: client)
        noteWriteEnded(record)
        if case .failure(let error) = result, error.httpError?.status?.code != 404 {
            for (query, index) in positions where !query.idSet.contains(id) {
                var ids = query.ids
                ids.insert(id, at: min(index, ids.count))
                var set = query.idSet
                set.insert(id)
                query.setIDs(ids, set: set)
            }
            record.status = previousStatus == .syncing ? .synced : previousStatus
            record.error = error.httpError?.status?.code == 412 ? StoreError(.conflict) : error
            table.entityChanged(record)
            throw record.error!
        }
        record.status = .deleted
        record.value = nil
        record.serverValue = nil
        record.pendingEdits = []
        record.changed()
        table.records.removeValue(forKey: id)
    }
}

extension EntityStore {
    /// Marks the end of a write to `record` on the write counter: reads sent before now may predate the write's
    /// result and are ignored for this entity (see ``EntityTable/ingest(_:etag:at:requestedAt:)``); reads sent
    /// after it are taken.
    func noteWriteEnded<Entity: RemoteEntity>(_ record: EntityState<Entity>) {
        editCounter += 1
        record.lastWrite = editCounter
    }
}

/// Which version wins a conflict.
public enum ConflictChoice: Sendable, Hashable {
    /// Send the local edit again, over the server's current version.
    case local
    /// Take the server's version and drop the edit.
    case server
}
