import Foundation
import TetherJSON

extension EntityStore {
    /// Saves an edit: every list and detail view shows `entity` at once, then the server's version.
    ///
    /// The edit is first saved in the store's outbox with its optimistic state (one transaction, before any
    /// request): the database's, or, for a store without one, an outbox in memory that works the same and is lost
    /// only when the process ends. It goes out as ``Configuration/updateMethod`` (by default `PATCH` with the fields
    /// that differ from the last server version) to `collectionPath/id`, with `If-Match` when the entity's ETag is
    /// known and an `Idempotency-Key` that every attempt reuses. Several edits to one entity go out one after
    /// another, in order, and an answer never replaces a newer local edit.
    ///
    /// A failure never takes the edit back. A transient one (no connection, a timeout, 408, 425, 429, 5xx) throws an
    /// error whose ``StoreError/isPending`` is `true`: the outbox sends it later, and ``EntityState/writeStatus``
    /// says where it stands. A final one (another 4xx) keeps the edit as a draft with the error until
    /// ``retryWrites(of:)`` or ``discardWrites(of:)``; a 412 sets ``EntityState/conflict`` with both versions for
    /// ``resolveConflict(_:keeping:)``.
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
        try await updateThroughOutbox(entity, outbox: try writeQueue(), options: options)
    }

    /// The outbox every write goes through: the database's, or for a store without one its outbox in memory, made
    /// now if this is the store's first write (and its background sender started with it).
    ///
    /// - Throws: ``StoreError`` when not even a database in memory can be opened.
    func writeQueue() throws(StoreError) -> Outbox {
        if let writes { return writes }
        let database = try StoreDatabase.inMemory()
        let reference = reference
        let outbox = Outbox(database: database, client: client) { event in await reference.store?.handle(event) }
        writes = outbox
        startOutbox()
        return outbox
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
        switch choice {
        case .local: try await retryWrites(of: state)
        case .server: try await discardWrites(of: state)
        }
    }

    /// Creates an entity: it shows at once (under its temporary id) in every query that includes created
    /// entities, then takes the server's id and version everywhere.
    ///
    /// Make the draft with ``RemoteEntity/temporaryID()`` as its id. The entity is saved in the outbox (see
    /// ``update(_:)``) and sent with `POST collectionPath` without its `id`, so the server chooses one. A failure never
    /// loses the draft: a transient one is sent later; a final one keeps the draft, in the lists and with the error,
    /// until ``retryWrites(of:)`` or ``discardWrites(of:)``.
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
        try await createThroughOutbox(draft, outbox: try writeQueue(), options: options)
    }

    /// Deletes an entity: it leaves every list at once, through the outbox (see ``update(_:)``). A 404 on the first
    /// attempt counts as deleted (it is gone, which is what the user wanted); a final refusal brings it back where
    /// it was, with the error, until ``retryWrites(of:)`` or ``discardWrites(of:)``.
    ///
    /// - Throws: ``StoreError``.
    public func delete<Entity: RemoteEntity>(_ type: Entity.Type, id: Entity.ID) async throws(StoreError) {
        try await delete(type, id: id, options: MutationOptions())
    }

    /// ``delete(_:id:)`` with per-call options: extra headers, a timeout, the outbox's `Idempotency-Key`.
    public func delete<Entity: RemoteEntity>(
        _ type: Entity.Type, id: Entity.ID, options: MutationOptions
    ) async throws(StoreError) {
        try await deleteThroughOutbox(type, id: id, outbox: try writeQueue(), options: options)
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
