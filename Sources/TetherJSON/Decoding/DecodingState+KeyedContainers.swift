/// Where a ``KeyedTapeContainer`` reads: its object and node, changed when the decoding state hands its box out again.
///
/// The fields sit behind a pointer: Swift checks every access to a class's stored `var` for exclusivity at run time,
/// and a container reads them for every member.
final class KeyedTapeCursor {
    private let fields: UnsafeMutablePointer<(node: CodingPathNode, object: Int)>

    init(node: CodingPathNode, object: Int) {
        fields = .allocate(capacity: 1)
        fields.initialize(to: (node, object))
    }

    deinit {
        fields.deinitialize(count: 1)
        fields.deallocate()
    }

    @inline(__always) var node: CodingPathNode { fields.pointee.node }
    @inline(__always) var object: Int { fields.pointee.object }

    /// Points the cursor at another object; only when no container over it is in use.
    @inline(__always) func move(to object: Int, node: CodingPathNode) {
        fields.pointee = (node, object)
    }
}

/// The keyed containers a decoding state keeps to hand out again, one per `CodingKey` type: for each, the standard
/// library's box (the only stored property of a `KeyedDecodingContainer`) and the cursor inside it.
///
/// In one block of its own, not an array of structs: checking whether a kept box is referenced elsewhere must read
/// the box's reference in place (a copy of the array, or of a struct holding the box, is one more reference). A
/// handle: copies share the block, freed once by ``deallocate()``.
struct KeptKeyedContainers {
    /// At most this many `CodingKey` types keep a container (a model has a few dozen at most).
    static let capacity = 32

    /// The count, then `capacity` key types, boxes and cursors.
    private let block: UnsafeMutableRawPointer

    init() {
        let capacity = KeptKeyedContainers.capacity
        block = .allocate(byteCount: 8 * (1 + 3 * capacity), alignment: 8)
        block.initializeMemory(as: Int.self, to: 0)
    }

    @inline(__always) private var count: UnsafeMutablePointer<Int> { block.assumingMemoryBound(to: Int.self) }
    @inline(__always) private var keyTypes: UnsafeMutablePointer<ObjectIdentifier> {
        (block + 8).assumingMemoryBound(to: ObjectIdentifier.self)
    }
    @inline(__always) private var boxes: UnsafeMutablePointer<AnyObject> {
        (block + 8 * (1 + KeptKeyedContainers.capacity)).assumingMemoryBound(to: AnyObject.self)
    }
    @inline(__always) private var cursors: UnsafeMutablePointer<KeyedTapeCursor> {
        (block + 8 * (1 + 2 * KeptKeyedContainers.capacity)).assumingMemoryBound(to: KeyedTapeCursor.self)
    }

    /// The kept box for `keyType` pointed at `object` and `node`, if one is kept (`isKept`) and nothing else holds it.
    @inline(__always)
    func reusableBox(for keyType: ObjectIdentifier, object: Int, node: CodingPathNode, isKept: inout Bool)
        -> AnyObject?
    {
        for i in 0..<count.pointee where keyTypes[i] == keyType {
            isKept = true
            guard isKnownUniquelyReferenced(&boxes[i]) else { return nil }
            cursors[i].move(to: object, node: node)
            return boxes[i]
        }
        return nil
    }

    /// Keeps `box` (whose container reads through `cursor`) for `keyType`, unless the block is full.
    func keep(_ box: AnyObject, cursor: KeyedTapeCursor, for keyType: ObjectIdentifier) {
        let i = count.pointee
        guard i < KeptKeyedContainers.capacity else { return }
        (keyTypes + i).initialize(to: keyType)
        (boxes + i).initialize(to: box)
        (cursors + i).initialize(to: cursor)
        count.pointee = i + 1
    }

    /// Lets every kept container go (they hold their nodes, which hold the decoding state).
    func removeAll() {
        boxes.deinitialize(count: count.pointee)
        cursors.deinitialize(count: count.pointee)
        count.pointee = 0
    }

    /// Lets every kept container go and frees the block; the handle must not be used afterwards.
    func deallocate() {
        removeAll()
        block.deallocate()
    }
}

extension DecodingState {
    /// A keyed container over `object`, read through `node`.
    ///
    /// Making a `KeyedDecodingContainer` allocates the standard library's box and looks up its generic metadata, and
    /// that of the container inside, for every object: about 1,500 instructions, 8% of a twitter.json decode. So the
    /// state keeps one container per `CodingKey` type and, when nothing else holds its box any more (the `init(from:)`
    /// that used it has returned), points its cursor at the next object and hands the same box out again. A box still
    /// in use (a type nested in itself, a container kept by the caller) is left alone and a new one is made.
    func keyedContainer<Key: CodingKey>(keyedBy type: Key.Type, object: Int, node: CodingPathNode)
        -> KeyedDecodingContainer<Key>
    {
        let keyType = ObjectIdentifier(type)
        var isKept = false
        if let box = keptContainers.reusableBox(for: keyType, object: object, node: node, isKept: &isKept) {
            return unsafeBitCast(box, to: KeyedDecodingContainer<Key>.self)
        }
        let cursor = KeyedTapeCursor(node: node, object: object)
        let container = KeyedDecodingContainer(KeyedTapeContainer<Key>(cursor: cursor))
        // Kept only where the container is what this relies on: a single reference, to the box.
        if !isKept, MemoryLayout<KeyedDecodingContainer<Key>>.size == MemoryLayout<AnyObject>.size {
            keptContainers.keep(unsafeBitCast(container, to: AnyObject.self), cursor: cursor, for: keyType)
        }
        return container
    }
}
