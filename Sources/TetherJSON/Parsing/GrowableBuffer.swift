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
    }

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
    }
}
