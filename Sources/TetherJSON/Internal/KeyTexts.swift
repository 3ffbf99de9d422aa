/// The text of one `CodingKey` type's keys, made once per key and then looked up by the key's value: for the
/// keyed containers of one decode or encode call, which otherwise ask each key for its `stringValue` (a call through
/// the protocol, a `switch` over the cases, a `String` retained and released) for every member they read or write.
///
/// Only for keys whose value is one byte or none and holds no references (``index(of:)``): the synthesized
/// `CodingKeys` enums. Two such keys with the same byte are the same value, and a key's `stringValue` is taken to
/// depend on its value only, as every `CodingKey` in practice does.
///
/// What the text is, is up to the owner: the decoder keeps a key's UTF-8, the encoder its quoted, escaped form and
/// the hash it checks repeated keys with. A handle: copies share the storage, freed once by ``deallocate()``.
struct KeyTexts {
    /// Where one key's text is in ``Storage/text``, and its hash; `length` is `UInt32.max` for a key not made yet.
    struct Entry {
        var start: UInt32
        var length: UInt32
        var hash: UInt64
    }

    struct Storage {
        /// One entry per key value seen so far (values are the enum's case indices, so this stays small).
        var entries: UnsafeMutablePointer<Entry>
        var entryCount: Int
        /// The texts, each padded to a multiple of eight bytes so that they can be copied a word at a time.
        var text: UnsafeMutableRawPointer
        var textCount: Int
        var textCapacity: Int
    }

    private let storage: UnsafeMutablePointer<Storage>

    init() {
        storage = .allocate(capacity: 1)
        let entries = UnsafeMutablePointer<Entry>.allocate(capacity: 16)
        entries.initialize(repeating: Entry(start: 0, length: .max, hash: 0), count: 16)
        storage.initialize(
            to: Storage(
                entries: entries, entryCount: 16, text: .allocate(byteCount: 256, alignment: 8), textCount: 0,
                textCapacity: 256))
    }

    func deallocate() {
        storage.pointee.entries.deallocate()
        storage.pointee.text.deallocate()
        storage.deallocate()
    }

    /// The table index of `key`: its one byte (0 for a type of no bytes), or `nil` for a key that is larger or
    /// holds references.
    @inline(__always)
    static func index<Key>(of key: Key) -> Int? {
        guard _isPOD(Key.self) else { return nil }
        switch MemoryLayout<Key>.size {
        case 0:
            return 0
        case 1:
            return Int(unsafeBitCast(key, to: UInt8.self))
        default:
            return nil
        }
    }

    /// The text kept for the key at `index`, made by `make` (which returns its bytes and hash) the first time.
    /// The pointer stays valid until the next call that makes a text.
    @inline(__always)
    func text(at index: Int, make: () -> (bytes: [UInt8], hash: UInt64)) -> (
        bytes: UnsafeRawPointer, count: Int, hash: UInt64
    ) {
        let s = storage
        if index < s.pointee.entryCount {
            let entry = s.pointee.entries[index]
            if entry.length != .max {
                return (UnsafeRawPointer(s.pointee.text + Int(entry.start)), Int(entry.length), entry.hash)
            }
        }
        return add(at: index, make())
    }

    @inline(never)
    private func add(at index: Int, _ made: (bytes: [UInt8], hash: UInt64)) -> (
        bytes: UnsafeRawPointer, count: Int, hash: UInt64
    ) {
        let s = storage
        if index >= s.pointee.entryCount {
            var count = s.pointee.entryCount
            while count <= index { count *= 2 }
            let entries = UnsafeMutablePointer<Entry>.allocate(capacity: count)
            entries.moveInitialize(from: s.pointee.entries, count: s.pointee.entryCount)
            (entries + s.pointee.entryCount).initialize(
                repeating: Entry(start: 0, length: .max, hash: 0), count: count - s.pointee.entryCount)
            s.pointee.entries.deallocate()
            s.pointee.entries = entries
            s.pointee.entryCount = count
        }
        let length = made.bytes.count
        let padded = (length + 7) & ~7
        let start = s.pointee.textCount
        if start + padded > s.pointee.textCapacity {
            let capacity = max(2 * s.pointee.textCapacity, start + padded)
            let text = UnsafeMutableRawPointer.allocate(byteCount: capacity, alignment: 8)
            text.copyMemory(from: s.pointee.text, byteCount: start)
            s.pointee.text.deallocate()
            s.pointee.text = text
            s.pointee.textCapacity = capacity
        }
        let destination = s.pointee.text + start
        destination.initializeMemory(as: UInt8.self, repeating: 0, count: padded)
        if length > 0 {
            made.bytes.withUnsafeBytes { destination.copyMemory(from: $0.baseAddress!, byteCount: length) }
        }
        s.pointee.textCount = start + padded
        s.pointee.entries[index] = Entry(start: UInt32(start), length: UInt32(length), hash: made.hash)
        return (UnsafeRawPointer(destination), length, made.hash)
    }
}
