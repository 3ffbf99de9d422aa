#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#elseif canImport(ucrt)
    import ucrt
#endif

/// The scanner's growing list of tape entries: one `malloc`ed block, appended to with a capacity check and nothing
/// else (an `Array` also checks that its storage is uniquely referenced on every append, a runtime call).
///
/// Not a value type in spirit: copies share the block. The scanner owns it while it runs; ``TapeStorage`` takes it
/// over (and frees it) when the scan succeeds, and the scanner frees it when the scan fails.
struct EntryBuffer {
    private(set) var base: UnsafeMutablePointer<Tape.Entry>
    private(set) var count = 0
    private var capacity: Int

    /// An empty buffer with room for `capacity` entries (at least one).
    init(capacity: Int) {
        self.capacity = Swift.max(1, capacity)
        base = EntryBuffer.allocate(self.capacity)
    }

    @inline(__always) mutating func append(_ entry: Tape.Entry) {
        if count == capacity { grow() }
        (base + count).initialize(to: entry)
        count += 1
    }

    @inline(__always) subscript(index: Int) -> Tape.Entry {
        get { base[index] }
        nonmutating set { base[index] = newValue }
    }

    /// The entries, for as long as the buffer is not freed or appended to.
    var entries: UnsafeBufferPointer<Tape.Entry> { UnsafeBufferPointer(start: base, count: count) }

    /// Frees the block; the buffer must not be used afterwards.
    func free() {
        releaseBlock(base)
    }

    @inline(never) private mutating func grow() {
        let newCapacity = capacity * 2
        guard let grown = realloc(base, newCapacity * MemoryLayout<Tape.Entry>.stride) else {
            fatalError("out of memory: \(newCapacity) tape entries")
        }
        base = grown.bindMemory(to: Tape.Entry.self, capacity: newCapacity)
        capacity = newCapacity
    }

    private static func allocate(_ capacity: Int) -> UnsafeMutablePointer<Tape.Entry> {
        guard let block = malloc(capacity * MemoryLayout<Tape.Entry>.stride) else {
            fatalError("out of memory: \(capacity) tape entries")
        }
        return block.bindMemory(to: Tape.Entry.self, capacity: capacity)
    }
}

/// The C library's `free`, under a name that ``EntryBuffer/free()`` does not shadow.
@inline(__always) private func releaseBlock(_ pointer: UnsafeMutablePointer<Tape.Entry>) {
    free(UnsafeMutableRawPointer(pointer))
}
