/// Builds a ``JSON`` value from a tape, without recursion: containers under construction are kept on a stack.
///
/// Counts are known from the tape, so every array and object is allocated once at its final size. Object keys
/// repeat across the elements of a page, so they are interned: a key whose bytes match a recent key reuses
/// that key's `String` instead of validating and allocating a new one.
enum JSONTreeBuilder {
    /// A two-way set-associative cache of recent keys, by a hash of their bytes.
    private struct KeyCache {
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

        /// Frees the slots.
        mutating func release() {
            guard let slots else { return }
            slots.deinitialize(count: size)
            slots.deallocate()
            self.slots = nil
        }
    }

    /// An open container: whether it is an object, its member or element count, and how many are still to come.
    private struct Open {
        var isObject: Bool
        var count: Int
        var remaining: Int
    }

    static func build(_ tape: Tape) -> JSON {
        build(tape, at: 0)
    }

    /// The whole tape's value, checking the UTF-8 of the string values the scan left unchecked (see
    /// ``Tape/uncheckedFlag``); `nil` when one is invalid.
    static func build(checking tape: Tape) -> JSON? {
        build(tape, at: 0, checksStrings: true)
    }

    /// The value at `root`. Without `checksStrings`, unchecked string values are made as they are (invalid bytes
    /// repaired): the caller checks them.
    static func build(_ tape: Tape, at root: Int) -> JSON {
        build(tape, at: root, checksStrings: false)!
    }

    @inline(__always)
    private static func build(_ tape: Tape, at root: Int, checksStrings: Bool) -> JSON? {
        var open = GrowableBuffer<Open>(capacity: 32)
        var values = GrowableBuffer<JSON>(capacity: 64)
        var keys = GrowableBuffer<String>(capacity: 64)
        var keyCache = KeyCache()
        defer {
            open.release()
            values.release()
            keys.release()
            keyCache.release()
        }
        var i = root
        var pendingKey = false
        while true {
            var value: JSON
            let entry = tape.entries[i]
            switch entry.tag {
            case .null: value = .null
            case .true: value = .bool(true)
            case .false: value = .bool(false)
            case .int, .uint, .double, .bigNumber: value = .number(tape.number(at: i))
            case .string:
                if pendingKey {
                    keys.append(keyCache.key(at: i, in: tape))
                    pendingKey = false
                    i += 1
                    continue
                }
                if checksStrings, entry.payload & Tape.uncheckedFlag != 0 {
                    let raw = tape.rawString(at: i)
                    let string =
                        tape.isEscaped(i)
                        ? JSONStringUnescaper.unescapeValidating(raw) : UTF8Validation.string(raw)
                    guard let string else { return nil }
                    value = .string(string)
                } else {
                    value = .string(tape.string(at: i))
                }
            case .array, .object:
                let count = Int(truncatingIfNeeded: entry.payload)
                let isObject = entry.tag == .object
                if count > 0 {
                    open.append(Open(isObject: isObject, count: count, remaining: count))
                    pendingKey = isObject
                    i += 1
                    continue
                }
                value = isObject ? .object(JSON.Object()) : .array([])
            }
            i += 1
            // Hand the value to its parent, closing every container it completes.
            while true {
                guard open.count > 0 else { return value }
                values.append(value)
                let top = open.last
                top.pointee.remaining -= 1
                if top.pointee.remaining > 0 {
                    pendingKey = top.pointee.isObject
                    break
                }
                let (isObject, count) = (top.pointee.isObject, top.pointee.count)
                open.removeLast()
                let members = values.popArray(count)
                value =
                    isObject ? .object(JSON.Object(keys: keys.popArray(count), values: members)) : .array(members)
            }
        }
    }
}
