/// Where a ``KeyedTapeContainer`` reads: its state, and its object and node, which change when the decoding state
/// hands its box out again.
///
/// One allocation; the changing fields are exempt from Swift's run-time exclusivity checks (a container reads them
/// for every member, and only the decoding state writes them, while no container over the cursor is in use).
final class KeyedTapeCursor {
    /// The node's state (every node a cursor moves to has the same): a constant, read without retaining it.
    let state: DecodingState
    @exclusivity(unchecked) private(set) var node: CodingPathNode
    @exclusivity(unchecked) private(set) var object: Int

    /// The UTF-8 of the container's keys, shared by every container of its key type in the decode call; `nil`
    /// past the last key type kept.
    let keyTexts: KeyTexts?

    init(node: CodingPathNode, object: Int, keyTexts: KeyTexts?) {
        state = node.state
        self.node = node
        self.object = object
        self.keyTexts = keyTexts
    }

    /// Points the cursor at another object; only when no container over it is in use.
    @inline(__always) func move(to object: Int, node: CodingPathNode) {
        assert(node.state === state, "a cursor moves only among nodes of its state")
        self.node = node
        self.object = object
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
        var keyTexts: KeyTexts?
        if let box = keptContainers.reusableBox(
            for: keyType, keyTexts: &keyTexts, moving: { $0.move(to: object, node: node) })
        {
            return unsafeBitCast(box, to: KeyedDecodingContainer<Key>.self)
        }
        // Kept only where the container is what this relies on: a single reference, to the box.
        let keeps =
            keyTexts == nil && keptContainers.hasRoom
            && MemoryLayout<KeyedDecodingContainer<Key>>.size == MemoryLayout<AnyObject>.size
        if keeps { keyTexts = KeyTexts() }
        let cursor = KeyedTapeCursor(node: node, object: object, keyTexts: keyTexts)
        let container = KeyedDecodingContainer(KeyedTapeContainer<Key>(cursor: cursor))
        if keeps, let keyTexts {
            keptContainers.keep(
                unsafeBitCast(container, to: AnyObject.self), cursor: cursor, keyTexts: keyTexts, for: keyType)
        }
        return container
    }
}
