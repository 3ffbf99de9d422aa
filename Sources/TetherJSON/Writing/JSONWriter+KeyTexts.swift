// The keys of objects that share one keys array, written from texts made once per write.
//
// Objects of the same shape usually share one `[String]` of keys: the parser makes them so (its shape cache), and
// so does code that builds many objects from one literal. Writing such a key costs more than copying it: the
// `String` is opened, its bytes checked for escapes, then copied with its quotes and colon. The walk makes each
// shared array's keys into their quoted, escaped text followed by the separator once, the second time it meets the
// array, and copies those texts for every object after that.
//
// Every key is still formatted from the tree in the write that outputs it: the texts live only as long as the
// write, and a text is found again only through the very storage of the keys it was made from (see ``lookUp``).

extension JSONWriter {
    /// Where one key's text is in ``KeyTextCache/text``.
    struct KeyText {
        var start: Int32
        var length: Int32
    }

    /// The key texts of one write: made by ``lookUp(_:count:escapingSlashes:separator:)``, read with
    /// ``appendKey(_:to:)``. Its owner calls ``deallocate()`` when the write ends.
    ///
    /// Lifetime: arrays are recognised by the address of their first key. The tree is alive and unchanged for the
    /// whole write (see ``JSONWriter/write(_:into:depth:flush:)``), so no keys array is freed, and no other array can
    /// take its address, while the texts exist; two arrays at one address are the same array.
    struct KeyTextCache {
        /// A keys array met before: `firstText` is where its keys' texts start in ``texts``, or -1 when it was met
        /// once only (a one-off object's keys are written directly, never made into texts).
        private struct Slot {
            var keys: UnsafePointer<String>?
            var count: Int
            var firstText: Int
        }

        /// The texts stop growing at this size (texts already made stay valid: open objects may be using them).
        static let textLimit = 1 << 20
        private static let slotCount = 256

        /// Arrays by their address, one per slot (a newcomer replaces the slot's array; texts made stay).
        private var slots: [Slot] = Array(repeating: Slot(keys: nil, count: 0, firstText: -1), count: slotCount)
        private(set) var texts: [KeyText] = []
        /// Every text made, each padded with zeros to a multiple of eight bytes so it can be copied in whole words.
        private(set) var text = ByteBuffer(capacity: 1024)

        func deallocate() {
            text.deallocate()
        }

        /// Where the texts of the `count` keys at `keys` start in ``texts``, the keys followed by `separator` (one or
        /// two bytes, as a little-endian word, `separatorCount` of them); -1 when the keys are to be written
        /// directly. `keys` must be a non-empty keys array of the tree being written.
        @inline(__always)
        mutating func lookUp(
            _ keys: UnsafePointer<String>, count: Int, escapingSlashes: Bool, separator: UInt64, separatorCount: Int
        ) -> Int {
            let address = UInt(bitPattern: keys)
            let index = Int(truncatingIfNeeded: (address >> 4) ^ (address >> 12)) & (Self.slotCount - 1)
            let slot = slots[index]
            if slot.keys == keys, slot.count == count {
                if slot.firstText >= 0 { return slot.firstText }
                return make(
                    keys, count: count, slot: index, escapingSlashes: escapingSlashes, separator: separator,
                    separatorCount: separatorCount)
            }
            slots[index] = Slot(keys: keys, count: count, firstText: -1)
            return -1
        }

        /// Makes the texts of the keys at `keys`, for the array's second meeting (see ``lookUp``).
        @inline(never)
        private mutating func make(
            _ keys: UnsafePointer<String>, count: Int, slot: Int, escapingSlashes: Bool, separator: UInt64,
            separatorCount: Int
        ) -> Int {
            guard text.count < Self.textLimit else { return -1 }
            let first = texts.count
            for i in 0..<count {
                let start = text.count
                if !JSONWriter.append(JSONWriter.inPlaceKey(keys + i), escapingSlashes: escapingSlashes, to: &text) {
                    JSONWriter.appendString(keys[i], escapingSlashes: escapingSlashes, to: &text)
                }
                text.append(word: separator, count: separatorCount)
                let length = text.count - start
                // Zeros up to the next multiple of eight, so that ``appendKey`` may read whole words.
                text.append(word: 0, count: (8 - text.count % 8) % 8)
                guard length <= Int(Int32.max), text.count <= Int(Int32.max) else {
                    // A key this long is written directly (and there is no room for more texts).
                    texts.removeSubrange(first...)
                    return -1
                }
                texts.append(KeyText(start: Int32(start), length: Int32(length)))
            }
            slots[slot].firstText = first
            return first
        }

        /// Appends a comma when `afterComma`, then the text at `position` of ``texts`` (its key, quoted and escaped,
        /// and the separator), and reserves `more` bytes of room after it, in one reservation.
        @inline(__always)
        func appendKey(_ position: Int, afterComma comma: Bool, reservingMore more: Int, to bytes: inout ByteBuffer) {
            let key = texts[position]
            let length = Int(key.length)
            bytes.reserve(1 + ((length + 7) & ~7) + more)
            if comma { bytes.appendReserved(UInt8(ascii: ",")) }
            // Bounds: the text starts at a multiple of eight and is padded to one, inside `text`'s bytes.
            bytes.appendReserved(paddedWords: UnsafeRawPointer(text.base + Int(key.start)), count: length)
        }
    }
}
