/// Builds a ``JSON`` value from a tape, without recursion: containers under construction are kept on a stack.
///
/// Counts are known from the tape, so every array and object is allocated once at its final size. Object keys
/// repeat across the elements of a page, so they are interned: a key whose bytes match a recent key reuses
/// that key's `String` instead of validating and allocating a new one.
enum JSONTreeBuilder {
    /// A direct-mapped cache of recent keys, by a hash of their bytes.
    private struct KeyCache {
        private static let size = 512

        private struct Slot {
            var offset = -1
            var length = 0
            var string = ""
        }

        // Allocated on first use, so documents without objects pay nothing.
        private var slots: [Slot] = []

        /// Keys longer than this are not worth caching.
        static let maximumLength = 48

        mutating func key(at index: Int, in tape: Tape) -> String {
            guard !tape.isEscaped(index) else { return tape.string(at: index) }
            let raw = tape.rawString(at: index)
            let length = raw.count
            guard length <= KeyCache.maximumLength, let base = raw.baseAddress else { return tape.string(at: index) }
            if slots.isEmpty { slots = [Slot](repeating: Slot(), count: KeyCache.size) }
            // Hash the length and the first and last eight bytes (or every byte of a shorter key).
            var hash = UInt64(truncatingIfNeeded: length) &* 0x9E37_79B9_7F4A_7C15
            if length >= 8 {
                let raw = UnsafeRawPointer(base)
                hash = (hash ^ raw.loadUnaligned(as: UInt64.self)) &* 0xBF58_476D_1CE4_E5B9
                hash = (hash ^ raw.loadUnaligned(fromByteOffset: length - 8, as: UInt64.self)) &* 0x94D0_49BB_1331_11EB
            } else {
                for byte in raw { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01B3 }
            }
            let slot = Int(truncatingIfNeeded: hash >> 32) & (KeyCache.size - 1)
            return slots.withUnsafeMutableBufferPointer { slots in
                let cached = slots[slot]
                if cached.offset >= 0, cached.length == length,
                    Tape.bytesEqual(tape.bytes.baseAddress! + cached.offset, base, length)
                {
                    return cached.string
                }
                let string = tape.string(at: index)
                slots[slot] = Slot(offset: tape.bytes.baseAddress!.distance(to: base), length: length, string: string)
                return string
            }
        }
    }

    private struct Partial {
        var isObject: Bool
        var remaining: Int
        var keys: [String]
        var values: [JSON]
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
        var stack: [Partial] = []
        var keys = KeyCache()
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
                    stack[stack.count - 1].keys.append(keys.key(at: i, in: tape))
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
                    var values: [JSON] = []
                    values.reserveCapacity(count)
                    var keys: [String] = []
                    if isObject { keys.reserveCapacity(count) }
                    stack.append(Partial(isObject: isObject, remaining: count, keys: keys, values: values))
                    pendingKey = isObject
                    i += 1
                    continue
                }
                value = isObject ? .object(JSON.Object()) : .array([])
            }
            i += 1
            // Hand the value to its parent, closing every container it completes.
            while true {
                guard !stack.isEmpty else { return value }
                stack[stack.count - 1].values.append(value)
                stack[stack.count - 1].remaining -= 1
                if stack[stack.count - 1].remaining > 0 {
                    pendingKey = stack[stack.count - 1].isObject
                    break
                }
                let done = stack.removeLast()
                value = done.isObject ? .object(JSON.Object(keys: done.keys, values: done.values)) : .array(done.values)
            }
        }
    }
}
