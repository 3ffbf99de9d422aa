import TetherHTTP1
import TetherJSON

extension JSONDatabase {
    /// Applies one write and returns its response (before the headers every response gets).
    ///
    /// In order: read-only mode refuses (403); a known `Idempotency-Key` replays the stored response (with
    /// `Idempotent-Replayed: true`) or, if the request differs, answers 422; the target must exist (404 `{}`);
    /// `If-Match` must hold (412); then the change is made, persisted and published. The response is stored
    /// under the idempotency key unless it is a server error; in persistent mode it is saved in the same file
    /// replacement as the change, so it survives a restart.
    func apply(_ request: WriteRequest) -> HTTPResponse {
        if mode == .readOnly {
            return JSONServerBody.error(.forbidden, "the database is read-only")
        }
        if let key = request.idempotencyKey, let entry = idempotency[key] {
            guard entry.fingerprint == request.fingerprint else {
                return JSONServerBody.error(
                    HTTPStatus(code: 422),
                    "the Idempotency-Key '\(key)' was already used for a different request")
            }
            var replay = entry.response
            replay.headers.add("Idempotent-Replayed", "true")
            return replay
        }
        var next = current
        let (response, changed) = perform(request, on: &next)
        // The key is recorded before the commit, so that the file write saves it with the change it belongs to.
        let key = response.status.code < 500 ? request.idempotencyKey : nil
        if let key { idempotency.store(key, fingerprint: request.fingerprint, response: response) }
        if changed {
            do {
                try commit(next)
            } catch {
                if let key { idempotency.remove(key) }
                return JSONServerBody.error(.internalServerError, "the write was not saved: \(error.message)")
            }
        }
        return response
    }

    /// The change itself, on a copy of the state: the response and whether the state changed.
    private func perform(_ request: WriteRequest, on state: inout DatabaseState) -> (HTTPResponse, Bool) {
        switch request.operation {
        case .create(let name, let body):
            guard var elements = state.collection(name) else { return (JSONServerBody.notFound, false) }
            var item = body
            if !JSValue.isTruthy(item["id"]) { item["id"] = IdGenerator.nextId(in: elements) }
            let id = JSValue.string(item["id"]!)
            if state.item(in: name, id: id) != nil {
                return (JSONServerBody.error(.conflict, "\(name) already has an item with id \(id)"), false)
            }
            elements.append(.object(item))
            state.setCollection(name, elements)
            let headers = HTTPHeaders([
                ("Access-Control-Expose-Headers", "Location"),
                ("Location", request.fullURL + "/" + HTTPTarget.percentEncode(id)),
            ])
            return (JSONServerBody.response(.object(item), status: .created, headers: headers, tagged: true), true)

        case .replace(let name, let id, let body), .merge(let name, let id, let body):
            guard var elements = state.collection(name), let (position, item) = state.item(in: name, id: id) else {
                return (JSONServerBody.notFound, false)
            }
            if let failure = precondition(request.ifMatch, item) { return (failure, false) }
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
            elements[position] = .object(updated)
            state.setCollection(name, elements)
            return (JSONServerBody.response(.object(updated), tagged: true), true)

        case .delete(let name, let id):
            var changed = false
            var found = false
            if var elements = state.collection(name), let (position, item) = state.item(in: name, id: id) {
                if let failure = precondition(request.ifMatch, item) { return (failure, false) }
                elements.remove(at: position)
                state.setCollection(name, elements)
                changed = true
                found = true
            }
            if removeDependents(in: &state) { changed = true }
            let response = found ? JSONServerBody.response(.object([:]), tagged: false) : JSONServerBody.notFound
            return (response, changed)

        case .setSingular(let name, let body, let created):
            guard let existing = state.singular(name) else { return (JSONServerBody.notFound, false) }
            if let failure = precondition(request.ifMatch, existing) { return (failure, false) }
            state.setSingular(name, body)
            if created {
                let headers = HTTPHeaders([
                    ("Access-Control-Expose-Headers", "Location"), ("Location", request.fullURL),
                ])
                return (JSONServerBody.response(.object(body), status: .created, headers: headers, tagged: true), true)
            }
            return (JSONServerBody.response(.object(body), tagged: true), true)

        case .mergeSingular(let name, let body):
            guard var object = state.singular(name) else { return (JSONServerBody.notFound, false) }
            if let failure = precondition(request.ifMatch, object) { return (failure, false) }
            for (key, value) in body { object[key] = value }
            state.setSingular(name, object)
            return (JSONServerBody.response(.object(object), tagged: true), true)
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
    /// document missing from the collection `<plural(name)>`. One pass, as json-server does. Returns whether
    /// anything was removed.
    func removeDependents(in state: inout DatabaseState) -> Bool {
        let suffix = foreignKeySuffix
        var removals: [String: Set<Int>] = [:]
        for (name, value) in state.root {
            guard case .array(let documents) = value else { continue }
            for (position, document) in documents.enumerated() {
                guard case .object(let object) = document else { continue }
                for (key, reference) in object where key.hasSuffix(suffix) && key.count > suffix.count {
                    guard !reference.isNull else { continue }
                    let target = Pluralizer.plural(String(key.dropLast(suffix.count)))
                    guard let table = state.root[target] else { continue }
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
        return !removals.isEmpty
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
