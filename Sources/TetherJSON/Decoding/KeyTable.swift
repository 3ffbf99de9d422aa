/// An open-addressing hash table from an object's raw member keys to their tape indices.
///
/// Built for objects whose members a `Decodable` reads in another order than the JSON has them (keys sent
/// sorted, or by a dictionary in hash order): it turns each later lookup from a scan into one probe or two.
struct KeyTable {
    let object: Int
    private var slots: [Int]
    private let mask: Int

    /// Objects smaller than this are scanned; larger ones get a table once a lookup scans past `scanLimit`.
    static let minimumMembers = 12
    static let scanLimit = 8
    /// Lookups of members an object does not have scan all of it; this many in one object get it a table. (A
    /// tweet leaves out two or three optional members: tables for those cost more than the scans.)
    static let missLimit = 4

    /// Builds the table, or returns `nil` when a key holds escapes (those are compared decoded, by scanning).
    init?(object: Int, tape: Tape) {
        let count = Int(truncatingIfNeeded: tape.entries[object].payload)
        var size = 16
        while size < count * 2 { size <<= 1 }
        self.object = object
        self.mask = size - 1
        self.slots = [Int](repeating: -1, count: size)
        let end = tape.entries[object].value
        var k = object + 1
        while k < end {
            if tape.isEscaped(k) { return nil }
            var slot = KeyTable.hash(tape.rawString(at: k)) & mask
            while slots[slot] >= 0 { slot = (slot + 1) & mask }
            slots[slot] = k
            k = tape.next(after: k + 1)
        }
    }

    /// The tape index of the member key equal to `key`. When the key repeats, the member a scan starting at
    /// `start` would meet first, so a table lookup and a scan always agree.
    @inline(__always)
    func find(_ key: UnsafeBufferPointer<UInt8>, in tape: Tape, from start: Int) -> Int? {
        var slot = KeyTable.hash(key) & mask
        var found: Int?
        var foundDistance = Int.max
        while true {
            let k = slots[slot]
            if k < 0 { return found }
            if tape.string(at: k, equals: key) {
                // Distance from `start` in scan order, wrapping past the object's end.
                let distance = k >= start ? k - start : k - start + Int.max / 2
                if distance < foundDistance {
                    found = k
                    foundDistance = distance
                }
            }
            slot = (slot + 1) & mask
        }
    }

    /// A cheap hash of a short byte string: its length and its first and last eight bytes.
    @inline(__always)
    static func hash(_ bytes: UnsafeBufferPointer<UInt8>) -> Int {
        let count = bytes.count
        var h = UInt64(truncatingIfNeeded: count) &* 0x9E37_79B9_7F4A_7C15
        guard let base = bytes.baseAddress, count > 0 else { return Int(truncatingIfNeeded: h >> 7) }
        let raw = UnsafeRawPointer(base)
        if count >= 8 {
            h ^= raw.loadUnaligned(as: UInt64.self)
            h = (h ^ (h >> 29)) &* 0xBF58_476D_1CE4_E5B9
            h ^= raw.loadUnaligned(fromByteOffset: count - 8, as: UInt64.self)
        } else {
            var word: UInt64 = 0
            for i in 0..<count { word |= UInt64(base[i]) << (UInt64(i) * 8) }
            h ^= word
        }
        h = (h ^ (h >> 32)) &* 0x94D0_49BB_1331_11EB
        return Int(truncatingIfNeeded: h ^ (h >> 29))
    }
}
