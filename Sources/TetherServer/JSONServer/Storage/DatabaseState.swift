import TetherJSON

/// One version of a json-server database: the top-level object, whose arrays are collections and whose objects
/// are singular resources, plus an index from each collection's ids (as strings) to positions.
///
/// A plain value: readers keep the version they took while writers build the next one.
struct DatabaseState: Sendable {
    /// What a top-level name holds.
    enum Kind: Sendable { case collection, singular }

    /// The whole database, in the file's key order.
    private(set) var root: JSON.Object
    /// For each collection, `String(id)` → the position of the first element with that id.
    private var indexes: [String: [String: Int]] = [:]
    /// The reads already answered from this version; replaced (emptied) by every change.
    private(set) var reads = ReadCache()

    /// The state for `root`, whose values must be arrays or objects (see ``JSONDatabase``).
    init(root: JSON.Object) {
        self.root = root
        for (name, value) in root {
            if case .array(let elements) = value { indexes[name] = Self.index(elements) }
        }
    }

    private static func index(_ elements: [JSON]) -> [String: Int] {
        var index: [String: Int] = [:]
        index.reserveCapacity(elements.count)
        for (position, element) in elements.enumerated() {
            guard case .object(let object) = element, let id = object["id"], !id.isNull else { continue }
            let key = JSValue.string(id)
            if index[key] == nil { index[key] = position }
        }
        return index
    }

    /// The name as stored for `name`: the exact key, or else the first key equal to it ignoring case (Express
    /// routes ignore case).
    func resolve(_ name: String) -> String? {
        if root[name] != nil { return name }
        let lower = name.lowercased()
        return root.keys.first { $0.lowercased() == lower }
    }

    func kind(of name: String) -> Kind? {
        switch root[name] {
        case .array?: .collection
        case .object?: .singular
        default: nil
        }
    }

    /// The elements of the collection `name`, or `nil` if it is not a collection.
    func collection(_ name: String) -> [JSON]? {
        if case .array(let elements)? = root[name] { return elements }
        return nil
    }

    /// The singular resource `name`, or `nil` if it is not one.
    func singular(_ name: String) -> JSON.Object? {
        if case .object(let object)? = root[name] { return object }
        return nil
    }

    /// The position and value of the item whose id reads as `id` in collection `name`.
    func item(in name: String, id: String) -> (position: Int, item: JSON.Object)? {
        guard let position = indexes[name]?[id], case .object(let object)? = collection(name)?[position] else {
            return nil
        }
        return (position, object)
    }

    /// Replaces the collection `name`, re-indexing it and emptying the read cache.
    mutating func setCollection(_ name: String, _ elements: [JSON]) {
        root[name] = .array(elements)
        indexes[name] = Self.index(elements)
        invalidateReads()
    }

    /// Replaces the collection `name` by `elements`, whose ids are at the same positions as before (an item
    /// replaced by one with the same id), plus `appendedId` at the end when given: the index is kept, or
    /// extended by one entry, instead of being rebuilt.
    mutating func replaceElements(_ name: String, _ elements: [JSON], appendedId: String? = nil) {
        root[name] = .array(elements)
        if let appendedId, indexes[name]?[appendedId] == nil {
            indexes[name, default: [:]][appendedId] = elements.count - 1
        }
        invalidateReads()
    }

    /// Replaces the singular resource `name`, emptying the read cache.
    mutating func setSingular(_ name: String, _ object: JSON.Object) {
        root[name] = .object(object)
        invalidateReads()
    }

    /// Gives this version a new, empty read cache, so that no response computed from an earlier version (which
    /// shared the cache before this copy changed) is served from it.
    mutating func invalidateReads() {
        reads = ReadCache()
    }
}
