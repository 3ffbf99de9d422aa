/// A growing run of values in one allocation, for the scanner and the tree builder: appends check the capacity and
/// nothing else (an `Array` also checks on every append that its storage is uniquely referenced, a runtime call),
/// and values move in and out without reference counting.
///
/// Not a value type in spirit: copies share the storage, which the owner frees once with ``release()``.
struct GrowableBuffer<Element> {
    private var base: UnsafeMutablePointer<Element>
    private var capacity: Int
    private(set) var count = 0

    /// An empty buffer with room for `capacity` values (at least one) before it grows.
    init(capacity: Int) {
        self.capacity = Swift.max(1, capacity)
        base = .allocate(capacity: self.capacity)
        adviseHugePages()
    }

    /// Asks the kernel to back a buffer of at least ``hugePageThreshold`` bytes with transparent huge pages (Linux,
    /// where they are usually in `madvise` mode): with it, a 50 MB Rakuten decode took 3,000 page faults instead of
    /// 9,600 and about half the system time (Docs/Benchmarks.md, "Round 4"). Only the 2 MiB pages the buffer
    /// touches are ever faulted in, so the most it can waste is one such page.
    @inline(__always) private func adviseHugePages() {
        #if canImport(Glibc)
            let bytes = capacity * MemoryLayout<Element>.stride
            guard bytes >= Self.hugePageThreshold else { return }
            let hugePage = 2 << 20
            let address = Int(bitPattern: UnsafeRawPointer(base))
            let start = (address + hugePage - 1) & ~(hugePage - 1)
            let end = (address + bytes) & ~(hugePage - 1)
            guard end > start, let aligned = UnsafeMutableRawPointer(bitPattern: start) else { return }
            _ = madvise(aligned, end - start, MADV_HUGEPAGE)  // a hint: a kernel without THP says no, and that is fine
        #endif
    }

    /// The size from which a buffer gets the huge-page hint: 8 MiB, four huge pages.
    static var hugePageThreshold: Int { 8 << 20 }

    @inline(__always) mutating func append(_ element: consuming Element) {
        if count == capacity { grow() }
        (base + count).initialize(to: element)
        count += 1
    }

    @inline(__always) subscript(index: Int) -> Element {
        get { base[index] }
        nonmutating set { base[index] = newValue }
    }

    /// The last value, to read or change in place (the buffer must not be empty).
    @inline(__always) var last: UnsafeMutablePointer<Element> { base + count - 1 }

    /// Destroys the last value.
    @inline(__always) mutating func removeLast() {
        count -= 1
        (base + count).deinitialize(count: 1)
    }

    /// Moves the last `n` values, in order, into a new array.
    @inline(__always) mutating func popArray(_ n: Int) -> [Element] {
        count -= n
        let first = base + count
        // `reserveCapacity` on an empty array, then appends: specialized for the element type, while
        // `init(unsafeUninitializedCapacity:initializingWith:)` calls the standard library's generic buffer
        // allocation, which looks the storage class's metadata up at run time for every array.
        var array: [Element] = []
        array.reserveCapacity(n)
        for offset in 0..<n { array.append((first + offset).move()) }
        return array
    }

    /// Removes the last `n` values of a trivial type (integers, say) and returns them, valid until the next append.
    @inline(__always) mutating func dropLast(_ n: Int) -> UnsafeBufferPointer<Element> {
        count -= n
        return UnsafeBufferPointer(start: base + count, count: n)
    }

    /// The values, valid until the buffer grows or is released.
    var elements: UnsafeBufferPointer<Element> { UnsafeBufferPointer(start: base, count: count) }

    /// Destroys the values and frees the storage; the buffer must not be used afterwards.
    func release() {
        base.deinitialize(count: count)
        base.deallocate()
    }

    @inline(never) private mutating func grow() {
        let grown = UnsafeMutablePointer<Element>.allocate(capacity: capacity * 2)
        grown.moveInitialize(from: base, count: count)
        base.deallocate()
        base = grown
        capacity *= 2
        adviseHugePages()
    }
}

#if canImport(Glibc)
    import Glibc
#endif
