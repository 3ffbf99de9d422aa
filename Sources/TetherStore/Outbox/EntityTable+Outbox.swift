import Foundation
import TetherJSON

extension EntityTable {
    /// Applies what the outbox did to the entity it concerns (when this store has its state).
    func apply(_ event: OutboxEvent) {
        switch event {
        case .sending(let entry):
            guard let record = record(named: entry.entityID) else { return }
            // While the server cannot be reached, a new attempt is a probe: the write keeps saying that it waits
            // for the network until an answer says otherwise (no flicker between the two at each probe).
            if record.writeStatus == .waitingForNetwork, store?.outboxStatus.isOffline == true { return }
            record.writeStatus = .sending
            record.changed()
        case .transient(let entry, let error):
            guard let record = record(named: entry.entityID) else { return }
            record.writeStatus = .waitingForNetwork
            record.status = .syncing
            record.error = error
            entityChanged(record)
        case .failed(let entry, let error):
            guard let record = record(named: entry.entityID) else { return }
            record.writeStatus = entry.state == .conflict ? .conflict : .failed
            record.status = .failed
            record.error = error
            if entry.state == .conflict, let local = record.value {
                record.conflict = Conflict(local: local, server: nil)
                if let store { Task { await self.loadConflict(record, local: local, store: store) } }
            }
            entityChanged(record)
        case .confirmed(let confirmation):
            confirm(confirmation)
        case .discarded(let entry, let row):
            guard let record = record(named: entry.entityID) else { return }
            record.removePendingEdit { $0.outboxID == entry.id }
            record.conflict = nil
            record.error = nil
            guard let row, let bytes = row.value,
                let value = try? TetherJSONDecoder().decode(Entity.self, from: bytes)
            else {
                removeEverywhere(record)
                record.writeStatus = nil
                record.changed()
                return
            }
            if let server = row.serverValue.flatMap({ try? TetherJSONDecoder().decode(Entity.self, from: $0) }) {
                record.serverValue = server
            }
            record.value = value
            record.writeStatus = record.pendingEdits.isEmpty ? nil : .queued
            record.status = record.pendingEdits.isEmpty ? .synced : .syncing
            if entry.kind == .delete { invalidate { _, _ in true } }
            entityChanged(record)
        }
    }

    /// Brings the entities that show waiting writes in line with the outbox, for what another store or process
    /// (the app and `tether sync`, two connections) did without an event reaching this store: an edit whose entry
    /// left the outbox is dropped from the entity's pending edits; a created entity whose create was confirmed
    /// elsewhere moves to the server's id; an entity none of whose writes waits any more shows the server's version
    /// the database holds (or leaves the lists when it holds none: a delete confirmed).
    ///
    /// Only entities whose writes were all saved before the read are looked at, and only those untouched by this
    /// store between the read and now (the same edits, the same write mark): a write of this store that is being
    /// saved, or was made meanwhile, is never taken for settled.
    func reconcileWrites(with database: StoreDatabase) async {
        let candidates = records.values.filter { record in
            record.writeStatus != nil && record.pendingEdits.allSatisfy { $0.outboxID != nil }
        }.map { record in (record: record, mark: record.lastWrite, edits: record.pendingEdits.map(\.number)) }
        guard !candidates.isEmpty else { return }
        let type = EntityStore.typeName(Entity.self)
        let ids = candidates.map { String(describing: $0.record.id) }
        guard let states = try? await database.writeStates(type: type, ids: ids) else { return }
        let decoder = TetherJSONDecoder()
        for candidate in candidates {
            let record = candidate.record
            guard record.writeStatus != nil, record.lastWrite == candidate.mark,
                record.pendingEdits.map(\.number) == candidate.edits,
                let state = states[String(describing: record.id)]
            else { continue }
            if let adopted = state.adoptedID.flatMap(Entity.ID.init), adopted != record.id {
                adoptServerID(of: record, from: record.id, to: adopted)
            }
            let before = record.pendingEdits.count
            record.removePendingEdit { edit in edit.outboxID.map { !state.waiting.contains($0) } ?? false }
            if !state.waiting.isEmpty {
                // Some still wait: the entity shows the newest of them.
                if record.pendingEdits.count != before, let latest = record.pendingEdits.last?.value {
                    record.value = latest
                }
                entityChanged(record)
                continue
            }
            record.pendingEdits = []
            record.writeStatus = nil
            record.error = nil
            record.conflict = nil
            if let bytes = state.server, let server = try? decoder.decode(Entity.self, from: bytes) {
                record.serverValue = server
                record.value = server
                record.status = .synced
                entityChanged(record)
                continue
            }
            removeEverywhere(record)
            record.changed()
        }
    }

    /// Takes an entity that no longer exists (a discarded create, a delete settled elsewhere) out of every query and
    /// the table, and marks it deleted (its observers are told by the caller).
    private func removeEverywhere(_ record: EntityState<Entity>) {
        for query in queries.values where query.idSet.contains(record.id) {
            var set = query.idSet
            set.remove(record.id)
            query.setIDs(query.ids.filter { $0 != record.id }, set: set)
            query.changed()
        }
        records.removeValue(forKey: record.id)
        record.value = nil
        record.status = .deleted
    }

    private func record(named id: String) -> EntityState<Entity>? {
        Entity.ID(id).flatMap { records[$0] }
    }

    private func confirm(_ confirmation: Confirmation) {
        let entry = confirmation.entry
        guard let oldID = Entity.ID(entry.entityID), let record = records[oldID] else { return }
        let decoder = TetherJSONDecoder()
        let server = confirmation.serverValue.flatMap { try? decoder.decode(Entity.self, from: $0) }
        record.removePendingEdit { $0.outboxID == entry.id }
        record.updatedAt = Date()
        if let store {
            // A read requested before this confirmation may have been answered before the server applied the
            // write (another connection): from now on only reads requested after it may replace the value.
            store.editCounter += 1
            record.lastWrite = store.editCounter
        }
        switch entry.kind {
        case .delete:
            guard record.pendingEdits.isEmpty else { return }
            record.status = .deleted
            record.value = nil
            record.serverValue = nil
            record.writeStatus = nil
            records.removeValue(forKey: oldID)
            record.changed()
            return
        case .create:
            if let server, server.id != oldID { adoptServerID(of: record, from: oldID, to: server.id) }
        case .update:
            break
        }
        if let server {
            record.serverValue = server
            record.serverJSON = confirmation.serverValue
            record.sync?.confirmed = (entry.id, server)
        }
        record.etag = confirmation.etag
        if record.pendingEdits.isEmpty {
            if let server { record.value = server }
            record.status = .synced
            record.writeStatus = nil
            record.error = nil
        } else {
            record.writeStatus = .queued
            if entry.kind == .create, let store, let database = store.writes?.database {
                reloadPending(record, from: database)
            }
        }
        entityChanged(record)
        if entry.kind == .create, let store {
            for query in queries.values where query.idSet.contains(record.id) { store.persistIDs(of: query) }
        }
    }

    /// Moves a created entity from its temporary id to the server's, in the table and in every query.
    private func adoptServerID(of record: EntityState<Entity>, from oldID: Entity.ID, to newID: Entity.ID) {
        for query in queries.values where query.idSet.contains(oldID) {
            var ids = query.ids
            var set = query.idSet
            set.remove(oldID)
            if set.insert(newID).inserted {
                ids = ids.map { $0 == oldID ? newID : $0 }
            } else {
                ids.removeAll { $0 == oldID }
            }
            query.setIDs(ids, set: set)
        }
        records.removeValue(forKey: oldID)
        adoptedIDs[oldID] = newID
        if let existing = records[newID], existing !== record {
            existing.queryReferences += record.queryReferences
        }
        record.id = newID
        records[newID] = record
    }

    /// Reads the later writes of a just-created entity back (the database gave them its server id).
    private func reloadPending(_ record: EntityState<Entity>, from database: StoreDatabase) {
        let type = EntityStore.typeName(Entity.self)
        let id = String(describing: record.id)
        Task {
            guard let entries = try? await database.outboxEntries(type: type, entityID: id) else { return }
            let decoder = TetherJSONDecoder()
            for entry in entries {
                guard let bytes = entry.value, let value = try? decoder.decode(Entity.self, from: bytes),
                    let index = record.pendingEdits.firstIndex(where: { $0.outboxID == entry.id })
                else { continue }
                record.pendingEdits[index] = PendingEdit(
                    number: record.pendingEdits[index].number, value: value, outboxID: entry.id)
            }
            if let latest = record.pendingEdits.last?.value { record.value = latest }
            entityChanged(record)
        }
    }

    /// Fetches the server's version for a conflict, and saves it so that keeping the local version is sent over it.
    private func loadConflict(_ record: EntityState<Entity>, local: Entity, store: EntityStore) async {
        let server = await store.fetchCurrent(record, in: self)
        if let server {
            store.persist(server, etag: record.etag, forWrites: true)
            await store.flush()
        }
        if record.conflict != nil {
            record.conflict = Conflict(local: local, server: server)
            entityChanged(record)
        }
    }
}
