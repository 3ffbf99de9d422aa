import TetherJSON

/// One change a write made to a ``DatabaseState``, as the journal records it: the result of the write, not the
/// request, so that replaying it gives the same data (a new id json-server draws at random is in the record).
///
/// Replaying a change over data that already holds it changes nothing (``put`` replaces by id, ``remove`` of
/// an absent id does nothing), so a record applied twice (a fold cut short, a file edited by hand) is harmless.
enum DatabaseChange: Sendable, Equatable {
    /// The item of `collection` whose id reads as `id` becomes `item`; appended when there is none.
    case put(collection: String, id: String, item: JSON.Object)
    /// The first item of `collection` whose id reads as `id` is removed, if there is one.
    case remove(collection: String, id: String)
    /// The whole collection `name` becomes `elements` (json-server's cascade after a delete).
    case collection(name: String, elements: [JSON])
    /// The singular resource `name` becomes `object`.
    case singular(name: String, object: JSON.Object)

    /// The top-level name the change touches.
    var name: String {
        switch self {
        case .put(let name, _, _), .remove(let name, _), .collection(let name, _), .singular(let name, _): name
        }
    }

    /// A short description for people: `put notes/3`, `remove notes/3`, `collection comments`, `singular profile`.
    var summary: String {
        switch self {
        case .put(let name, let id, _): "put \(name)/\(id)"
        case .remove(let name, let id): "remove \(name)/\(id)"
        case .collection(let name, _): "collection \(name)"
        case .singular(let name, _): "singular \(name)"
        }
    }

    /// The change as JSON: `["put", name, id, item]`, `["remove", name, id]`, `["collection", name, elements]`,
    /// `["singular", name, object]`.
    var json: JSON {
        switch self {
        case .put(let name, let id, let item): ["put", .string(name), .string(id), .object(item)]
        case .remove(let name, let id): ["remove", .string(name), .string(id)]
        case .collection(let name, let elements): ["collection", .string(name), .array(elements)]
        case .singular(let name, let object): ["singular", .string(name), .object(object)]
        }
    }

    /// The change ``json`` wrote, or `nil` when `json` is not one.
    init?(json: JSON) {
        guard case .array(let parts) = json, let tag = parts.first?.string, parts.count >= 3,
            let name = parts[1].string
        else { return nil }
        switch (tag, parts.count) {
        case ("put", 4):
            guard let id = parts[2].string, let item = parts[3].object else { return nil }
            self = .put(collection: name, id: id, item: item)
        case ("remove", 3):
            guard let id = parts[2].string else { return nil }
            self = .remove(collection: name, id: id)
        case ("collection", 3):
            guard let elements = parts[2].array else { return nil }
            self = .collection(name: name, elements: elements)
        case ("singular", 3):
            guard let object = parts[2].object else { return nil }
            self = .singular(name: name, object: object)
        default:
            return nil
        }
    }
}
