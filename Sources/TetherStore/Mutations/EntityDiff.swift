import TetherJSON

/// The body of a PATCH: the top-level members of `new` that differ from `old`.
enum EntityDiff {
    /// The changed members of `new` against `old` (all of `new` without its `id` when `old` is `nil`).
    static func changes<Entity: RemoteEntity>(from old: Entity?, to new: Entity) throws -> JSON {
        let encoder = TetherJSONEncoder()
        guard case .object(let newObject) = try encoder.encodeToJSON(new) else {
            throw StoreError(.encoding("\(Entity.self) does not encode as a JSON object"))
        }
        var oldObject: JSON.Object?
        if let old, case .object(let object) = try encoder.encodeToJSON(old) { oldObject = object }
        var changed = JSON.Object()
        for (key, value) in newObject where key != "id" {
            if oldObject?[key] != value { changed[key] = value }
        }
        return .object(changed)
    }

    /// `entity` as a JSON object without its `id` (the body of a POST that lets the server choose the id).
    static func body<Entity: RemoteEntity>(creating entity: Entity) throws -> JSON {
        guard case .object(let object) = try TetherJSONEncoder().encodeToJSON(entity) else {
            throw StoreError(.encoding("\(Entity.self) does not encode as a JSON object"))
        }
        var body = JSON.Object()
        for (key, value) in object where key != "id" { body[key] = value }
        return .object(body)
    }
}
