import Foundation
import TetherJSON

/// The store's entities of one type, by id, and the queries over them.
@MainActor
final class EntityTable<Entity: RemoteEntity> {
    var records: [Entity.ID: EntityState<Entity>] = [:]
    /// Queries of this entity type, by key.
    var queries: [String: QueryState<Entity>] = [:]
    weak var store: EntityStore?
    /// The server's id of each created entity, by the temporary id it had (``adoptServerID``): a value made before
    /// the create was confirmed still names the temporary id, and a write of it must go to the server's.
    var adoptedIDs: [Entity.ID: Entity.ID] = [:]

    init(store: EntityStore) {
        self.store = store
    }

    /// `id`, or the server's id that replaced it when it was a created entity's temporary id.
    func currentID(_ id: Entity.ID) -> Entity.ID {
        var id = id
        while let adopted = adoptedIDs[id], adopted != id { id = adopted }
        return id
    }

    /// `entity` with ``currentID(_:)`` as its id (its JSON with the id member replaced, decoded again); `entity`
    /// itself when its id is current.
    func withCurrentID(_ entity: Entity) throws -> Entity {
        let id = currentID(entity.id)
        guard id != entity.id else { return entity }
        guard case .object(var object) = try TetherJSONEncoder().encodeToJSON(entity) else { return entity }
        let text = String(describing: id)
        if case .string = object["id"] {
            object["id"] = .string(text)
        } else {
            object["id"] = try JSON(parsing: Data(text.utf8))
        }
        return try TetherJSONDecoder().decode(Entity.self, from: Data(JSONWriter().bytes(.object(object))))
    }

    /// The state for `id`, created empty if the store has none.
    func record(for id: Entity.ID) -> EntityState<Entity> {
        if let record = records[id] { return record }
        let record = EntityState<Entity>(id: id)
        record.store = store
        records[id] = record
        return record
    }

    /// Takes a server version of an entity. Local edits on their way win over it: the value shown stays the
    /// latest edit, and the server version is kept (a discard shows it again).
    ///
    /// `requestedAt` is the store's write counter when the read that brought `entity` was sent: when a write to
    /// the entity began after that, the answer may predate the write, and the entity is left as it is.
    func ingest(_ entity: Entity, etag: String?, at date: Date = Date(), requestedAt writeMark: UInt64 = .max) {
        guard let record = records[entity.id] else {
            // New: made complete, with no observation traffic (nothing can observe it yet).
            let record = EntityState(serverVersion: entity, at: date)
            record.store = store
            if let etag { record.etag = etag }
            records[entity.id] = record
            return
        }
        guard record.lastWrite <= writeMark else { return }
        if let sync = record.sync {
            sync.serverValue = entity
            if let etag { sync.etag = etag }
            record.updatedAt = date
            guard sync.pendingEdits.isEmpty else { return }
        } else {
            // The common case, kept lean: no separate server version while nothing is pending.
            if let etag {
                record.etag = etag
                record.sync?.serverValue = entity
            }
            record.updatedAt = date
        }
        var changed = false
        if record.value != entity {
            record.value = entity
            changed = true
        }
        if record.status != .synced {
            record.status = .synced
            changed = true
        }
        if record.error != nil {
            record.error = nil
            changed = true
        }
        if changed { entityChanged(record) }
    }

    /// Tells the entity's observers and those of every query that contains it.
    ///
    /// - Complexity: O(q + o): the queries of this type and the observers told.
    func entityChanged(_ record: EntityState<Entity>) {
        record.changed()
        for query in queries.values where query.idSet.contains(record.id) { query.changed() }
    }
}
