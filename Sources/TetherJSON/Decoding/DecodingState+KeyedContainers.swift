/// Where a ``KeyedTapeContainer`` reads: its state, and its object and node, which change when the decoding state
/// hands its box out again.
///
/// The state is a constant (read without retaining it); the rest sits behind a pointer: Swift checks every access to
/// a class's stored `var` for exclusivity at run time, and a container reads them for every member.
final class KeyedTapeCursor {
    /// The node's state (every node a cursor moves to has the same).
    let state: DecodingState
    private let fields: UnsafeMutablePointer<(node: CodingPathNode, object: Int)>

    init(node: CodingPathNode, object: Int) {
        state = node.state
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
        assert(node.state === state, "a cursor moves only among nodes of its state")
        fields.pointee = (node, object)
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
        if let box = keptContainers.reusableBox(
            for: keyType, isKept: &isKept, moving: { $0.move(to: object, node: node) })
        {
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
