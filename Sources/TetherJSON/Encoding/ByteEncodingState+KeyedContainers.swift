/// Where a ``KeyedByteContainer`` writes: its state, and its depth and serial, which change when the state hands its
/// box out again.
///
/// One allocation; the changing fields are exempt from Swift's run-time exclusivity checks (a container reads them
/// for every member, and only the state writes them, while no container over the cursor is in use).
final class KeyedByteCursor {
    /// A constant, read without retaining it.
    let state: ByteEncodingState
    @exclusivity(unchecked) private(set) var depth: Int
    @exclusivity(unchecked) private(set) var serial: Int

    init(state: ByteEncodingState, depth: Int, serial: Int) {
        self.state = state
        self.depth = depth
        self.serial = serial
    }

    /// Points the cursor at another object of the same state; only when no container over it is in use.
    @inline(__always) func move(depth: Int, serial: Int) {
        self.depth = depth
        self.serial = serial
    }
}

extension ByteEncodingState {
    /// A keyed container for the object at `depth` opened as `serial`: a kept one when its box is free (see
    /// ``KeptKeyedContainers``), else a new one, kept if none is for `Key` yet.
    func keyedContainer<Key: CodingKey>(keyedBy type: Key.Type, depth: Int, serial: Int) -> KeyedEncodingContainer<Key>
    {
        let keyType = ObjectIdentifier(type)
        var isKept = false
        if let box = keptContainers.reusableBox(
            for: keyType, isKept: &isKept, moving: { $0.move(depth: depth, serial: serial) })
        {
            return unsafeBitCast(box, to: KeyedEncodingContainer<Key>.self)
        }
        let cursor = KeyedByteCursor(state: self, depth: depth, serial: serial)
        let container = KeyedEncodingContainer(KeyedByteContainer<Key>(cursor: cursor))
        // Kept only where the container is what this relies on: a single reference, to the box.
        if !isKept, MemoryLayout<KeyedEncodingContainer<Key>>.size == MemoryLayout<AnyObject>.size {
            keptContainers.keep(unsafeBitCast(container, to: AnyObject.self), cursor: cursor, for: keyType)
        }
        return container
    }
}
