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

    /// The container's keys as members write them, shared by every container of its key type in the encode call;
    /// `nil` past the last key type kept.
    let keyTexts: KeyTexts?

    init(state: ByteEncodingState, depth: Int, serial: Int, keyTexts: KeyTexts?) {
        self.state = state
        self.depth = depth
        self.serial = serial
        self.keyTexts = keyTexts
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
        var keyTexts: KeyTexts?
        if let box = keptContainers.reusableBox(
            for: keyType, keyTexts: &keyTexts, moving: { $0.move(depth: depth, serial: serial) })
        {
            return unsafeBitCast(box, to: KeyedEncodingContainer<Key>.self)
        }
        // Kept only where the container is what this relies on: a single reference, to the box.
        let keeps =
            keyTexts == nil && keptContainers.hasRoom
            && MemoryLayout<KeyedEncodingContainer<Key>>.size == MemoryLayout<AnyObject>.size
        if keeps { keyTexts = KeyTexts() }
        let cursor = KeyedByteCursor(state: self, depth: depth, serial: serial, keyTexts: keyTexts)
        let container = KeyedEncodingContainer(KeyedByteContainer<Key>(cursor: cursor))
        if keeps, let keyTexts {
            keptContainers.keep(
                unsafeBitCast(container, to: AnyObject.self), cursor: cursor, keyTexts: keyTexts, for: keyType)
        }
        return container
    }
}
