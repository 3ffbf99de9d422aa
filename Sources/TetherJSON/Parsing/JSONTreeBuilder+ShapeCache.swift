extension JSONTreeBuilder {
    /// The key arrays of recently built objects, found by their keys' bytes, so that objects with the same keys in
    /// the same order (every user of a page of tweets, every `metadata` of a search result) share one `[String]`.
    ///
    /// An object whose keys match a cached array takes it with one retain: no `String` per key, no array to fill,
    /// and nothing per key to release when the tree goes. Matching compares each key's raw bytes in the input with
    /// those of the keys the array was made from (raw bytes, so an escaped key matches only the same escapes, which
    /// decode the same). The arrays are ordinary values: changing one object's keys copies them, as for any array.
    struct ShapeCache {
        /// Objects with more members than this build their keys one by one (they are rarely repeated, and a long
        /// compare that fails late costs more than it saves).
        static let maximumCount = 64
        /// Values below this many tape entries are built without the cache (a 100-byte object took 13% more
        /// instructions to parse with it).
        static let minimumEntries = 256

        /// Where a key's raw bytes are in the input.
        private struct Span {
            var offset: Int
            var length: Int
        }

        private struct Slot {
            /// The member count; 0 for an empty slot.
            var count = 0
            /// The first of the keys' `count` spans in `spans`.
            var firstSpan = 0
            var keys: [String] = []
        }

        // Allocated on first use; freed by `release()`.
        private var slots: UnsafeMutablePointer<Slot>?
        private var size = 0
        /// `64 - log2(size / 2)`: the shift that leaves a set number of a hash.
        private var shift: UInt64 = 64
        /// The spans of every cached array's keys, appended as arrays are cached (evicted ones stay until the end).
        private var spans: GrowableBuffer<Span>?

        /// Slots for a tape of `entries` entries: a power of two from 16 to 256 (128 sets, more than the distinct
        /// object shapes of an API response).
        private static func size(forEntries entries: Int) -> Int {
            var size = 16
            while size < 256 && size < entries / 16 { size *= 2 }
            return size
        }

        /// The keys of the object whose key strings are at the tape entries `indices` (in order, at least one and
        /// at most ``maximumCount``): a cached array when the same keys were seen recently, else a new one (made
        /// with `keyCache`), which is then cached.
        mutating func keys(at indices: UnsafeBufferPointer<Int>, in tape: Tape, keyCache: inout KeyCache) -> [String] {
            let count = indices.count
            let slots: UnsafeMutablePointer<Slot>
            if let existing = self.slots {
                slots = existing
            } else {
                size = ShapeCache.size(forEntries: tape.entries.count)
                shift = 64 - UInt64((size / 2).trailingZeroBitCount)
                slots = .allocate(capacity: size)
                slots.initialize(repeating: Slot(), count: size)
                self.slots = slots
                spans = GrowableBuffer(capacity: 16 * size)
            }
            let input = tape.bytes.baseAddress.unsafelyUnwrapped
            // Hash the count, the first key's length and first byte, and the lengths of the second and last keys.
            let first = tape.entries[indices[0]]
            let firstLength = first.payload & 0xFFFF
            let firstByte: UInt64 = firstLength > 0 ? UInt64(input[first.value]) : 0
            let secondLength = count > 1 ? tape.entries[indices[1]].payload & 0xFFFF : 0
            let lastLength = tape.entries[indices[count - 1]].payload & 0xFFFF
            let hash =
                UInt64(truncatingIfNeeded: count) | firstLength << 8 | firstByte << 24 | secondLength << 32
                | lastLength << 48
            let set = slots + 2 * Int(truncatingIfNeeded: (hash &* 0x9E37_79B9_7F4A_7C15) >> shift)
            if matches(set, indices, tape) { return set[0].keys }
            let found: Slot
            if matches(set + 1, indices, tape) {
                found = (set + 1).move()
            } else {
                (set + 1).deinitialize(count: 1)
                let keys = keyCache.keys(at: indices, in: tape)
                let firstSpan = spans.unsafelyUnwrapped.count
                for index in indices {
                    let entry = tape.entries[index]
                    let length = Int(truncatingIfNeeded: entry.payload & 0xFFFF_FFFF)
                    spans!.append(Span(offset: entry.value, length: length))
                }
                found = Slot(count: count, firstSpan: firstSpan, keys: keys)
            }
            // The most recently used array first, as in the key cache.
            (set + 1).moveInitialize(from: set, count: 1)
            set.initialize(to: found)
            return found.keys
        }

        /// Whether `slot` holds the keys whose strings are at `indices`.
        @inline(__always)
        private func matches(_ slot: UnsafeMutablePointer<Slot>, _ indices: UnsafeBufferPointer<Int>, _ tape: Tape)
            -> Bool
        {
            guard slot.pointee.count == indices.count else { return false }
            let input = tape.bytes.baseAddress.unsafelyUnwrapped
            let spans = self.spans.unsafelyUnwrapped
            var span = slot.pointee.firstSpan
            for index in indices {
                let entry = tape.entries[index]
                let length = Int(truncatingIfNeeded: entry.payload & 0xFFFF_FFFF)
                let cached = spans[span]
                guard cached.length == length,
                    cached.offset == entry.value || Tape.bytesEqual(input + cached.offset, input + entry.value, length)
                else { return false }
                span += 1
            }
            return true
        }

        /// Frees the slots and spans.
        mutating func release() {
            spans?.release()
            guard let slots else { return }
            slots.deinitialize(count: size)
            slots.deallocate()
            self.slots = nil
        }
    }
}
