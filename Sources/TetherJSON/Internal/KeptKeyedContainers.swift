/// The keyed containers a decoding or encoding state keeps to hand out again, one per `CodingKey` type: for each,
/// the standard library's box (the only stored property of a `KeyedDecodingContainer` or `KeyedEncodingContainer`)
/// and the cursor inside it, which says where the container reads or writes.
///
/// Making a keyed container allocates the box and looks up its generic metadata, and that of the container inside,
/// for every object. A state keeps one per key type instead and, when nothing else holds the box any more (the
/// `init(from:)` or `encode(to:)` that used it has returned), moves its cursor to the next object and hands the same
/// box out again; a box still in use (a type nested in itself, a container kept by its caller) is left alone.
///
/// In one block of its own, not an array of structs: checking whether a kept box is referenced elsewhere must read
/// the box's reference in place (a copy of the array, or of a struct holding the box, is one more reference). A
/// handle: copies share the block, freed once by ``deallocate()``.
///
/// Each key type kept here also has its ``KeyTexts``, which every container for that type shares, kept or not.
struct KeptKeyedContainers<Cursor: AnyObject> {
    /// At most this many `CodingKey` types keep a container (a model has a few dozen at most).
    static var capacity: Int { 32 }

    /// The count, the count of key texts made, then `capacity` key types, boxes, cursors and key texts.
    private let block: UnsafeMutableRawPointer

    init() {
        block = .allocate(byteCount: 8 * (2 + 4 * Self.capacity), alignment: 8)
        block.initializeMemory(as: Int.self, repeating: 0, count: 2)
    }

    @inline(__always) private var count: UnsafeMutablePointer<Int> { block.assumingMemoryBound(to: Int.self) }
    @inline(__always) private var textsCount: UnsafeMutablePointer<Int> {
        (block + 8).assumingMemoryBound(to: Int.self)
    }
    @inline(__always) private var keyTypes: UnsafeMutablePointer<ObjectIdentifier> {
        (block + 8 * 2).assumingMemoryBound(to: ObjectIdentifier.self)
    }
    @inline(__always) private var boxes: UnsafeMutablePointer<AnyObject> {
        (block + 8 * (2 + Self.capacity)).assumingMemoryBound(to: AnyObject.self)
    }
    @inline(__always) private var cursors: UnsafeMutablePointer<Cursor> {
        (block + 8 * (2 + 2 * Self.capacity)).assumingMemoryBound(to: Cursor.self)
    }
    @inline(__always) private var texts: UnsafeMutablePointer<KeyTexts> {
        (block + 8 * (2 + 3 * Self.capacity)).assumingMemoryBound(to: KeyTexts.self)
    }

    /// Whether another key type can be kept.
    var hasRoom: Bool { count.pointee < Self.capacity }

    /// The kept box for `keyType`, its cursor first `moving` to the next object, if one is kept and nothing else
    /// holds it. `keyTexts` is set to the key type's texts when the type is kept, whether or not its box is free.
    @inline(__always)
    func reusableBox(for keyType: ObjectIdentifier, keyTexts: inout KeyTexts?, moving: (Cursor) -> Void)
        -> AnyObject?
    {
        for i in 0..<count.pointee where keyTypes[i] == keyType {
            keyTexts = texts[i]
            guard isKnownUniquelyReferenced(&boxes[i]) else { return nil }
            moving(cursors[i])
            return boxes[i]
        }
        return nil
    }

    /// Keeps `box` (whose container goes through `cursor`) and `keyTexts` (which it frees) for `keyType`; only when
    /// ``hasRoom``.
    func keep(_ box: AnyObject, cursor: Cursor, keyTexts: KeyTexts, for keyType: ObjectIdentifier) {
        let i = count.pointee
        precondition(i < Self.capacity, "no room to keep another keyed container")
        (keyTypes + i).initialize(to: keyType)
        (boxes + i).initialize(to: box)
        (cursors + i).initialize(to: cursor)
        if i < textsCount.pointee {
            // Kept again after `removeAll()` (the call had ended): the old texts are no longer read.
            texts[i].deallocate()
            texts[i] = keyTexts
        } else {
            (texts + i).initialize(to: keyTexts)
            textsCount.pointee = i + 1
        }
        count.pointee = i + 1
    }

    /// Lets every kept container go (their cursors hold the state that keeps them). The key texts stay until
    /// ``deallocate()``: a container that outlived its call may still hold them.
    func removeAll() {
        boxes.deinitialize(count: count.pointee)
        cursors.deinitialize(count: count.pointee)
        count.pointee = 0
    }

    /// Lets every kept container go and frees the block and the key texts; the handle must not be used afterwards.
    func deallocate() {
        removeAll()
        for i in 0..<textsCount.pointee { texts[i].deallocate() }
        block.deallocate()
    }
}
