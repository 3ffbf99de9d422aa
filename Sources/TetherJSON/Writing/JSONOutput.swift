#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#else
    import Darwin
#endif

/// Where JSON text is written: a `[UInt8]` (``JSONWriter``) or a ``ByteBuffer`` (the encoder).
///
/// The string escaping and number formatting are generic over it, so each writer gets code specialized for its
/// buffer.
protocol JSONOutput {
    var count: Int { get }
    mutating func append(_ byte: UInt8)
    mutating func append(_ bytes: UnsafeBufferPointer<UInt8>)
    mutating func append(repeating byte: UInt8, count: Int)
    /// Appends `count` bytes that `body` writes through the pointer it is given (to the first of them).
    mutating func appendUninitialized(count: Int, _ body: (UnsafeMutablePointer<UInt8>) -> Void)
}

extension Array: JSONOutput where Element == UInt8 {
    @inline(__always)
    mutating func append(_ bytes: UnsafeBufferPointer<UInt8>) {
        append(contentsOf: bytes)
    }

    @inline(__always)
    mutating func append(repeating byte: UInt8, count: Int) {
        append(contentsOf: repeatElement(byte, count: count))
    }

    @inline(__always)
    mutating func appendUninitialized(count: Int, _ body: (UnsafeMutablePointer<UInt8>) -> Void) {
        let start = self.count
        append(contentsOf: repeatElement(0, count: count))
        withUnsafeMutableBufferPointer { body($0.baseAddress! + start) }
    }
}

/// A growable byte buffer on the heap, managed by hand: appends are a capacity check and a store, with none of
/// an array's uniqueness checks. Its owner must call ``deallocate()`` or take the memory (``takeMemory()``).
///
/// The memory is the C heap's (`malloc`), so that growing is a `realloc`: a large buffer grows by remapping its
/// pages instead of copying them, and never holds the old and the new block at once.
struct ByteBuffer: JSONOutput {
    private(set) var base: UnsafeMutablePointer<UInt8>
    private(set) var count = 0
    private var capacity: Int

    init(capacity: Int) {
        self.capacity = max(capacity, 16)
        guard let memory = malloc(self.capacity) else { fatalError("out of memory for \(self.capacity) bytes") }
        base = memory.assumingMemoryBound(to: UInt8.self)
    }

    func deallocate() {
        free(base)
    }

    /// The bytes written, in memory of exactly their size that the caller now owns and frees with `free`.
    mutating func takeMemory() -> UnsafeMutableRawPointer {
        if capacity > count + 64, let shrunk = realloc(base, max(count, 1)) {
            base = shrunk.assumingMemoryBound(to: UInt8.self)
            capacity = max(count, 1)
        }
        return UnsafeMutableRawPointer(base)
    }

    /// Drops the bytes from `offset` on (keeping the memory).
    mutating func truncate(to offset: Int) {
        count = min(count, max(0, offset))
    }

    /// Makes room for `extra` more bytes.
    @inline(__always)
    mutating func reserve(_ extra: Int) {
        if count + extra > capacity { grow(count + extra) }
    }

    @inline(never)
    private mutating func grow(_ needed: Int) {
        let newCapacity = max(needed, capacity * 2)
        guard let memory = realloc(base, newCapacity) else { fatalError("out of memory for \(newCapacity) bytes") }
        base = memory.assumingMemoryBound(to: UInt8.self)
        capacity = newCapacity
    }

    @inline(__always)
    mutating func append(_ byte: UInt8) {
        reserve(1)
        appendReserved(byte)
    }

    // The `appendReserved` forms write into room made before by ``reserve(_:)`` (for several appends at once), with
    // no check of their own: the caller's reservation is the bounds argument. Debug builds assert it.

    /// Appends `byte` into reserved room.
    @inline(__always)
    mutating func appendReserved(_ byte: UInt8) {
        assert(count < capacity, "no room reserved")
        base[count] = byte
        count += 1
    }

    /// Appends up to eight bytes given as a little-endian word (see ``append(word:count:)``) into eight bytes of
    /// reserved room.
    @inline(__always)
    mutating func appendReserved(word: UInt64, count n: Int) {
        assert(count + 8 <= capacity, "no room reserved")
        UnsafeMutableRawPointer(base + count).storeBytes(of: word.littleEndian, as: UInt64.self)
        count += n
    }

    /// Lets `body` write into reserved room (`n` bytes of it), as ``appendUninitialized(upTo:_:)`` does.
    @inline(__always)
    mutating func appendReserved(upTo n: Int, _ body: (UnsafeMutablePointer<UInt8>) -> Int) {
        assert(count + n <= capacity, "no room reserved")
        count += body(base + count)
    }

    @inline(__always)
    mutating func append(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard let source = bytes.baseAddress else { return }
        reserve(bytes.count)
        (base + count).update(from: source, count: bytes.count)
        count += bytes.count
    }

    @inline(__always)
    mutating func append(repeating byte: UInt8, count n: Int) {
        reserve(n)
        (base + count).update(repeating: byte, count: n)
        count += n
    }

    @inline(__always)
    mutating func appendUninitialized(count n: Int, _ body: (UnsafeMutablePointer<UInt8>) -> Void) {
        reserve(n)
        body(base + count)
        count += n
    }

    /// Reserves `n` bytes and lets `body` write into them; `body` returns how many it wrote (at most `n`).
    @inline(__always)
    mutating func appendUninitialized(upTo n: Int, _ body: (UnsafeMutablePointer<UInt8>) -> Int) {
        reserve(n)
        appendReserved(upTo: n, body)
    }

    /// Appends up to eight bytes given as a little-endian word: the first byte in the lowest bits.
    @inline(__always)
    mutating func append(word: UInt64, count n: Int) {
        reserve(8)
        appendReserved(word: word, count: n)
    }

    /// Appends `n` bytes from `source`, 8-byte aligned memory that may be read in whole words up to the next
    /// multiple of eight (``KeyTexts`` pads its texts so): a key is copied in a word or two, without a call.
    @inline(__always)
    mutating func append(paddedWords source: UnsafeRawPointer, count n: Int) {
        reserve((n + 7) & ~7)
        appendReserved(paddedWords: source, count: n)
    }

    /// ``append(paddedWords:count:)`` into reserved room (`n` rounded up to a multiple of eight bytes of it).
    @inline(__always)
    mutating func appendReserved(paddedWords source: UnsafeRawPointer, count n: Int) {
        let padded = (n + 7) & ~7
        assert(count + padded <= capacity, "no room reserved")
        let destination = UnsafeMutableRawPointer(base + count)
        var i = 0
        while i < padded {
            destination.storeBytes(
                of: source.load(fromByteOffset: i, as: UInt64.self), toByteOffset: i, as: UInt64.self)
            i += 8
        }
        count += n
    }

    subscript(index: Int) -> UInt8 {
        get { base[index] }
        nonmutating set { base[index] = newValue }
    }

    /// The bytes written, copied into an array.
    var array: [UInt8] { Array(UnsafeBufferPointer(start: base, count: count)) }
}
