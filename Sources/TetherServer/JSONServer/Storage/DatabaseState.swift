import TetherJSON
import TetherSync

/// One version of a json-server database: the top-level object, whose arrays are collections and whose objects
/// are singular resources, plus an index from each collection's ids (as strings) to positions.
///
/// A plain value: readers keep the version they took while writers build the next one. Collections are kept in
/// chunks (``ChunkedArray``), so a write that changes one item copies one chunk, not the collection; the flat
/// arrays readers need (``collection(_:)``, ``root``) are made once per version and name, on first use.
struct DatabaseState: Sendable {
    /// What a top-level name holds.
    enum Kind: Sendable { case collection, singular }

    /// The top-level names in the file's order: a singular resource's object, or `null` standing for the
    /// collection of that name in ``collections``.
    private var layout: JSON.Object
    private var collections: [String: ChunkedArray] = [:]
    /// For each collection, `String(id)` → the position of the first element with that id.
    private var indexes: [String: [String: Int]] = [:]
    /// The reads already answered from this version; replaced (emptied) by every change.
    private(set) var reads = ReadCache()
    /// The flat arrays of this version's collections, made on first use; replaced by every change.
    private var flats = FlatCollections()

    /// The state for `root`, whose values must be arrays or objects (see ``JSONDatabase``).
    init(root: JSON.Object) {
        var layout = root
        for (name, value) in root {
            guard case .array(let elements) = value else { continue }
            layout[name] = .null
            collections[name] = ChunkedArray(elements)
            indexes[name] = Self.index(elements)
        }
        self.layout = layout
    }

    /// The whole database, in the file's key order.
    ///
    /// - Complexity: O(n) the first time per version and collection (see ``collection(_:)``).
    var root: JSON.Object {
        JSON.Object(
            keys: layout.keys,
            values: zip(layout.keys, layout.values).map { name, value in
                collection(name).map { .array($0) } ?? value
            })
    }

    private static func index(_ elements: [JSON]) -> [String: Int] {
        var index: [String: Int] = [:]
        index.reserveCapacity(elements.count)
        for (position, element) in elements.enumerated() {
            guard let key = key(of: element) else { continue }
            if index[key] == nil { index[key] = position }
        }
        return index
    }

    /// The index key of an element: its id as a string, `nil` without one.
    private static func key(of element: JSON) -> String? {
        guard case .object(let object) = element, let id = object["id"], !id.isNull else { return nil }
        return JSValue.string(id)
    }

    /// The name as stored for `name`: the exact key, or else the first key equal to it ignoring case (Express
    /// routes ignore case).
    func resolve(_ name: String) -> String? {
        if layout[name] != nil { return name }
        let lower = name.lowercased()
        return layout.keys.first { $0.lowercased() == lower }
    }

    func kind(of name: String) -> Kind? {
        if collections[name] != nil { return .collection }
        if case .object? = layout[name] { return .singular }
        return nil
    }

    /// The elements of the collection `name`, or `nil` if it is not a collection.
    ///
    /// - Complexity: O(n) the first time per version (the chunks joined), O(1) after.
    func collection(_ name: String) -> [JSON]? {
        guard let chunks = collections[name] else { return nil }
        return flats.elements(of: name) { chunks.elements }
    }

    /// The number of elements of the collection `name`, or `nil` if it is not a collection.
    func count(of name: String) -> Int? { collections[name]?.count }

    /// The elements of the collection `name` as they are kept, for a pass over them without the flat array.
    func chunks(of name: String) -> ChunkedArray? { collections[name] }

    /// The singular resource `name`, or `nil` if it is not one.
    func singular(_ name: String) -> JSON.Object? {
        if case .object(let object)? = layout[name] { return object }
        return nil
    }

    /// The position and value of the item whose id reads as `id` in collection `name`.
    func item(in name: String, id: String) -> (position: Int, item: JSON.Object)? {
        guard let position = indexes[name]?[id], let chunks = collections[name], position < chunks.count,
            case .object(let object) = chunks[position]
        else { return nil }
        return (position, object)
    }

    /// Replaces the collection `name` (adding it if there is no such name), re-indexing it and emptying the
    /// read cache.
    mutating func setCollection(_ name: String, _ elements: [JSON]) {
        if layout[name] == nil || singular(name) != nil { layout[name] = .null }
        collections[name] = ChunkedArray(elements)
        indexes[name] = Self.index(elements)
        invalidateReads()
    }

    /// Replaces the element at `position` of the collection `name` by `element`.
    ///
    /// - Complexity: O(chunk) when the element's id is unchanged, else O(n) (the index is rebuilt).
    mutating func replaceElement(_ name: String, at position: Int, with element: JSON) {
        guard var chunks = collections[name], position < chunks.count else { return }
        let sameKey = Self.key(of: chunks[position]) == Self.key(of: element)
        collections[name] = nil  // the chunks are then referenced once here, and change in place
        chunks[position] = element
        collections[name] = chunks
        if !sameKey { indexes[name] = Self.index(chunks.elements) }
        invalidateReads()
    }

    /// Adds `element` at the end of the collection `name`.
    ///
    /// - Complexity: O(chunk), plus a copy of the collection's index when a reader shares it.
    mutating func appendElement(_ name: String, _ element: JSON) {
        guard var chunks = collections[name] else { return }
        collections[name] = nil
        chunks.append(element)
        collections[name] = chunks
        if let key = Self.key(of: element), indexes[name]?[key] == nil {
            indexes[name, default: [:]][key] = chunks.count - 1
        }
        invalidateReads()
    }

    /// Replaces the singular resource `name` (adding it if there is no such name), emptying the read cache.
    mutating func setSingular(_ name: String, _ object: JSON.Object) {
        layout[name] = .object(object)
        collections[name] = nil
        indexes[name] = nil
        invalidateReads()
    }

    /// Gives this version a new, empty read cache (and cache of flat collections), so that no response computed
    /// from an earlier version (which shared the cache before this copy changed) is served from it.
    mutating func invalidateReads() {
        reads = ReadCache()
        flats = FlatCollections()
    }
}

/// The flat arrays of one ``DatabaseState``'s collections, made on first use and shared by the readers of that
/// version.
///
/// - Thread safety: any thread; the lock is held while an array is made, so it is made once.
final class FlatCollections: Sendable {
    private let arrays = Locked([String: [JSON]]())

    func elements(of name: String, _ make: () -> [JSON]) -> [JSON] {
        arrays.withLock { arrays in
            if let elements = arrays[name] { return elements }
            let elements = make()
            arrays[name] = elements
            return elements
        }
    }
}
