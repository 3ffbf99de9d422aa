import Foundation
import TetherHTTP1
import TetherJSON

extension JSONDatabase {
    /// Applies one write and returns its response (before the headers every response gets).
    ///
    /// In order: read-only mode refuses (403); a known `Idempotency-Key` replays the stored response (with
    /// `Idempotent-Replayed: true`) or, if the request differs, answers 422; the target must exist (404 `{}`);
    /// `If-Match` must hold (412); then the change is made, made durable and published. The response is stored
    /// under the idempotency key unless it is a server error; in persistent mode the change and the key's
    /// response are one journal record, synced before this returns (concurrent writes share syncs: see
    /// ``CommitQueue``), so a retry after a restart or a kill -9 is answered from the record and not applied
    /// again. Readers see a write once its record is durable; later writes build on it at once.
    func apply(_ request: WriteRequest) async -> HTTPResponse {
        if mode == .readOnly {
            return JSONServerBody.error(.forbidden, "the database is read-only")
        }
        await passFoldGate()
        if let key = request.idempotencyKey, let entry = idempotency[key] {
            guard entry.fingerprint == request.fingerprint else {
                return JSONServerBody.error(
                    HTTPStatus(code: 422),
                    "the Idempotency-Key '\(key)' was already used for a different request")
            }
            // The first request's record may still wait for its sync: so does its replay.
            if let end = entry.journalEnd, !(await durable(upTo: end)) {
                return JSONServerBody.error(.internalServerError, "the write was not saved")
            }
            var replay = entry.response
            replay.headers.add("Idempotent-Replayed", "true")
            return replay
        }
        var next = current
        var changes: [DatabaseChange] = []
        let response = perform(request, on: &next, changes: &changes)
        let key = response.status.code < 500 ? request.idempotencyKey : nil
        guard !changes.isEmpty || key != nil else { return response }
        let now = Date()
        guard let storage else {
            if let key { remember(key, fingerprint: request.fingerprint, response: response, at: now) }
            if !changes.isEmpty { publish(next) }
            return response
        }
        let end: Int
        do {
            let entry = key.map { _ in
                IdempotencyStore.Entry(fingerprint: request.fingerprint, response: response, createdAt: now)
            }
            end = try storage.write(.write(changes: changes, key: key, entry: entry))
        } catch {
            return JSONServerBody.error(.internalServerError, "the write was not saved: \(error.message)")
        }
        commits.wrote(upTo: end)
        if let key {
            remember(key, fingerprint: request.fingerprint, response: response, at: now, journalEnd: end)
            undurableKeys.append((end, key))
        }
        if !changes.isEmpty { undurableVersions.append((end, advance(to: next))) }
        guard await durable(upTo: end) else {
            return JSONServerBody.error(
                .internalServerError, "the write was not saved: the journal could not be synced")
        }
        do {
            try storage.passAcknowledgement()
        } catch {
            return JSONServerBody.error(.internalServerError, "the write was not acknowledged: \(error.message)")
        }
        scheduleFoldIfDue()
        return response
    }

    /// Stores a key's response, reporting keys forgotten early because the store is full.
    private func remember(
        _ key: String, fingerprint: UInt64, response: HTTPResponse, at date: Date, journalEnd: Int? = nil
    ) {
        let before = idempotency.forgottenCount
        idempotency.store(key, fingerprint: fingerprint, response: response, at: date, now: date)
        if let journalEnd { idempotency.setJournalEnd(journalEnd, for: key) }
        let after = idempotency.forgottenCount
        // The first time, then at every 10,000 more: a guard against abuse, not a log flood.
        if after > before, before == 0 || after / 10_000 > before / 10_000 {
            log(
                "more than \(idempotency.capacity) Idempotency-Keys in 24 hours: the oldest are forgotten early "
                    + "(\(after) so far), so a retry of one of them would be applied again")
        }
    }

    /// The change itself, on a copy of the state: the response; `changes` receives what changed (nothing for a
    /// write that failed), each applied to `state` through ``DatabaseState/apply(_:)`` as a replay would.
    private func perform(
        _ request: WriteRequest, on state: inout DatabaseState, changes: inout [DatabaseChange]
    ) -> HTTPResponse {
        func make(_ change: DatabaseChange) {
            state.apply(change)
            changes.append(change)
        }
        switch request.operation {
        case .create(let name, let body):
            guard let elements = state.chunks(of: name) else { return JSONServerBody.notFound }
            var item = body
            if !JSValue.isTruthy(item["id"]) { item["id"] = IdGenerator.nextId(in: elements) }
            let id = JSValue.string(item["id"]!)
            if state.item(in: name, id: id) != nil {
                return JSONServerBody.error(.conflict, "\(name) already has an item with id \(id)")
            }
            make(.put(collection: name, id: id, item: item))
            let headers = HTTPHeaders([
                ("Access-Control-Expose-Headers", "Location"),
                ("Location", request.fullURL + "/" + HTTPTarget.percentEncode(id)),
            ])
            return JSONServerBody.response(.object(item), status: .created, headers: headers, tagged: true)

        case .replace(let name, let id, let body), .merge(let name, let id, let body):
            guard let (_, item) = state.item(in: name, id: id) else { return JSONServerBody.notFound }
            if let failure = precondition(request.ifMatch, item) { return failure }
            var updated: JSON.Object
            if case .replace = request.operation {
                // lodash-id replaceById: the body's members, then the old id (in place if the body names one).
                updated = body
                updated["id"] = item["id"]
            } else {
                // lodash-id updateById: assign the body's members, keeping the id.
                updated = item
                for (key, value) in body where key != "id" { updated[key] = value }
            }
            make(.put(collection: name, id: id, item: updated))
            return JSONServerBody.response(.object(updated), tagged: true)

        case .delete(let name, let id):
            var found = false
            if let (_, item) = state.item(in: name, id: id) {
                if let failure = precondition(request.ifMatch, item) { return failure }
                make(.remove(collection: name, id: id))
                found = true
            }
            for name in removeDependents(in: &state) {
                changes.append(.collection(name: name, elements: state.collection(name) ?? []))
            }
            return found ? JSONServerBody.response(.object([:]), tagged: false) : JSONServerBody.notFound

        case .setSingular(let name, let body, let created):
            guard let existing = state.singular(name) else { return JSONServerBody.notFound }
            if let failure = precondition(request.ifMatch, existing) { return failure }
            make(.singular(name: name, object: body))
            if created {
                let headers = HTTPHeaders([
                    ("Access-Control-Expose-Headers", "Location"), ("Location", request.fullURL),
                ])
                return JSONServerBody.response(.object(body), status: .created, headers: headers, tagged: true)
            }
            return JSONServerBody.response(.object(body), tagged: true)

        case .mergeSingular(let name, let body):
            guard var object = state.singular(name) else { return JSONServerBody.notFound }
            if let failure = precondition(request.ifMatch, object) { return failure }
            for (key, value) in body { object[key] = value }
            make(.singular(name: name, object: object))
            return JSONServerBody.response(.object(object), tagged: true)
        }
    }

    /// The 412 response when `If-Match` is sent and does not match `item`'s tag.
    private func precondition(_ ifMatch: String?, _ item: JSON.Object) -> HTTPResponse? {
        guard let ifMatch else { return nil }
        let tag = JSONServerBody.entityTag(of: item)
        if EntityTag.matchHolds(ifMatch, current: tag) { return nil }
        return JSONServerBody.error(
            .preconditionFailed, "the item changed: its ETag is now \(tag), not \(ifMatch)",
            headers: HTTPHeaders([("ETag", tag)]))
    }

    /// json-server's cascade (`getRemovable`): removes every document whose `<name>Id` member points at a
    /// document missing from the collection `<plural(name)>`. One pass, as json-server does. Returns the
    /// collections that lost documents.
    func removeDependents(in state: inout DatabaseState) -> [String] {
        let suffix = foreignKeySuffix
        var removals: [String: Set<Int>] = [:]
        let root = state.root
        for (name, value) in root {
            guard case .array(let documents) = value else { continue }
            for (position, document) in documents.enumerated() {
                guard case .object(let object) = document else { continue }
                for (key, reference) in object where key.hasSuffix(suffix) && key.count > suffix.count {
                    guard !reference.isNull else { continue }
                    let target = Pluralizer.plural(String(key.dropLast(suffix.count)))
                    guard let table = root[target] else { continue }
                    if !Self.contains(table, id: JSValue.string(reference), in: state, named: target) {
                        removals[name, default: []].insert(position)
                        break
                    }
                }
            }
        }
        for (name, positions) in removals {
            guard let elements = state.collection(name) else { continue }
            state.setCollection(name, elements.enumerated().filter { !positions.contains($0.offset) }.map(\.element))
        }
        return removals.keys.sorted()
    }

    /// lodash-id's `getById` on a top-level value: whether it holds a document whose id reads as `id`.
    private static func contains(_ table: JSON, id: String, in state: DatabaseState, named name: String) -> Bool {
        switch table {
        case .array: return state.item(in: name, id: id) != nil
        case .object(let object):
            return object.values.contains { value in
                if case .object(let document) = value, let documentId = document["id"], !documentId.isNull {
                    return JSValue.string(documentId) == id
                }
                return false
            }
        default: return true
        }
    }
}
