extension JSONTreeBuilder {
    /// A two-way set-associative cache of recent keys, by a hash of their bytes.
    struct KeyCache {
        /// Slots for a tape of `entries` entries: a power of two, from 16 (a small object pays little to set
        /// them up) to 1,024 (512 sets: twitter.json's 94 distinct keys then miss only once each).
        private static func size(forEntries entries: Int) -> Int {
            var size = 16
            while size < 1024 && size < entries / 2 { size *= 2 }
            return size
        }

        private struct Slot {
            var offset = -1
            var length = 0
            var string = ""
        }

        // Allocated on first use, so documents without objects pay nothing; freed by `release()`.
        private var slots: UnsafeMutablePointer<Slot>?
        private var size = 0
        /// `64 - log2(size / 2)`: the shift that leaves a set number of a hash.
        private var shift: UInt64 = 64

        /// Keys longer than this are not worth caching.
        static let maximumLength = 48

        mutating func key(at index: Int, in tape: Tape) -> String {
            guard !tape.isEscaped(index) else { return tape.string(at: index) }
            let raw = tape.rawString(at: index)
            let length = raw.count
            guard length <= KeyCache.maximumLength, let base = raw.baseAddress else { return tape.string(at: index) }
            let slots: UnsafeMutablePointer<Slot>
            if let existing = self.slots {
                slots = existing
            } else {
                size = KeyCache.size(forEntries: tape.entries.count)
                shift = 64 - UInt64((size / 2).trailingZeroBitCount)
                slots = .allocate(capacity: size)
                slots.initialize(repeating: Slot(), count: size)
                self.slots = slots
            }
            // Hash the length and the first and last eight bytes (or every byte of a shorter key).
            var hash = UInt64(truncatingIfNeeded: length) &* 0x9E37_79B9_7F4A_7C15
            if length >= 8 {
                let raw = UnsafeRawPointer(base)
                hash = (hash ^ raw.loadUnaligned(as: UInt64.self)) &* 0xBF58_476D_1CE4_E5B9
                hash = (hash ^ raw.loadUnaligned(fromByteOffset: length - 8, as: UInt64.self)) &* 0x94D0_49BB_1331_11EB
            } else {
                for byte in raw { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01B3 }
            }
            // A two-way set per hash: its number from the top bits of one more multiply (Fibonacci hashing, so that
            // every bit of `hash` reaches them), the most recently used key in its first slot. Two keys of one set
            // that alternate (`id` and `id_str` in every tweet) both stay; a third pushes out the older one.
            let set = slots + 2 * Int(truncatingIfNeeded: (hash &* 0x9E37_79B9_7F4A_7C15) >> shift)
            let input = tape.bytes.baseAddress!
            if set[0].length == length, set[0].offset >= 0, Tape.bytesEqual(input + set[0].offset, base, length) {
                return set[0].string
            }
            let found: Slot
            if set[1].length == length, set[1].offset >= 0, Tape.bytesEqual(input + set[1].offset, base, length) {
                found = (set + 1).move()
            } else {
                (set + 1).deinitialize(count: 1)
                found = Slot(offset: input.distance(to: base), length: length, string: tape.string(at: index))
            }
            (set + 1).moveInitialize(from: set, count: 1)
            set.initialize(to: found)
            return found.string
        }

        /// The keys whose strings are at the tape entries `indices`, in order.
        mutating func keys(at indices: UnsafeBufferPointer<Int>, in tape: Tape) -> [String] {
            var keys: [String] = []
            keys.reserveCapacity(indices.count)
            for index in indices { keys.append(key(at: index, in: tape)) }
            return keys
        }

        /// Frees the slots.
        mutating func release() {
            guard let slots else { return }
            slots.deinitialize(count: size)
            slots.deallocate()
            self.slots = nil
        }
    }
}
