// Reading the tree in place for JSONWriter's walk: a value, or a key, is looked at through a pointer to where it
// lives in the tree, and what the walk needs of it (a number's bits, a string's UTF-8 bytes, a container's element
// storage) is taken out without copying the value itself.
//
// Copying a `JSON` out of the tree costs a retain and a release of its payload (a string's storage, an array's or
// an object's three buffers): measured, a quarter of the writer's time. A copy whose whole lifetime is these few
// reads, with no call and no write to memory in between, needs neither, and the compiler leaves them out; the
// walk's writes to the output then work on plain pointers and integers only.

extension JSONWriter {
    /// The UTF-8 bytes of a string in the tree: four words, so that it is handed back in registers.
    ///
    /// A string of up to 15 bytes may be stored inside the `String` value itself, whose bytes are only lent for
    /// the length of a call: its bytes are copied out into ``short``. A longer string's bytes live in its storage
    /// object (or, for a literal, in the binary), which the tree keeps alive and unchanged for the whole walk (see
    /// ``JSONWriter/write(_:into:depth:flush:)``): ``base`` points at them there.
    struct UTF8Text {
        /// The first byte in the string's own storage, or `nil` when the bytes are in ``short``.
        var base: UnsafePointer<UInt8>?
        /// The number of bytes, or -1 for a string without contiguous UTF-8 (whose bytes are not here).
        var count: Int
        /// A short string's bytes, the first in the lowest byte of the first word, zeros after the last.
        var short: (UInt64, UInt64)

        static var notContiguous: UTF8Text { UTF8Text(base: nil, count: -1, short: (0, 0)) }

        /// Calls `body` with the bytes (of a text with contiguous bytes).
        @inline(__always)
        func withBytes<R>(_ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
            if let base { return body(UnsafeBufferPointer(start: base, count: count)) }
            var words = (short.0.littleEndian, short.1.littleEndian)
            return withUnsafeBytes(of: &words) { raw in
                // Bounds: `count` ≤ 15 < the 16 bytes of the two words.
                body(UnsafeBufferPointer(start: raw.baseAddress!.assumingMemoryBound(to: UInt8.self), count: count))
            }
        }
    }

    /// A value of the tree as the walk writes it.
    enum InPlaceValue {
        case null
        case bool(Bool)
        case int(Int64)
        case uint(UInt64)
        /// A finite double.
        case double(Double)
        /// A string: its bytes come from ``inPlaceString(_:)``.
        case string
        /// An array: its elements (`nil` when empty) and their count.
        case array(UnsafePointer<JSON>?, Int)
        /// An object: its member values and keys (`nil` when empty) and their count.
        case object(UnsafePointer<JSON>?, UnsafePointer<String>?, Int)
        /// Anything else (a non-finite double, a number kept as text): the walk copies the value and writes it the
        /// general way.
        case other
    }

    /// What the walk needs of the value at `value`, which must point into a tree kept alive and unchanged while the
    /// result is used.
    @inline(__always)
    static func inPlace(_ value: UnsafePointer<JSON>) -> InPlaceValue {
        switch value.pointee {
        case .null: return .null
        case .bool(let b): return .bool(b)
        case .number(let number):
            switch number.storage {
            case .int(let v): return .int(v)
            case .uint(let v): return .uint(v)
            case .double(let d): return d.isFinite ? .double(d) : .other
            case .text: return .other
            }
        case .string: return .string
        case .array(let array):
            return .array(array.isEmpty ? nil : elementPointer(array), array.count)
        case .object(let object):
            guard !object.isEmpty else { return .object(nil, nil, 0) }
            return .object(elementPointer(object.values), elementPointer(object.keys), object.count)
        }
    }

    /// The UTF-8 bytes of the string value at `value` (see ``inPlace(_:)``).
    @inline(__always)
    static func inPlaceString(_ value: UnsafePointer<JSON>) -> UTF8Text {
        guard case .string(let string) = value.pointee else { return .notContiguous }
        return utf8Text(string)
    }

    /// The UTF-8 bytes of the key at `key`, which must point into a tree kept alive and unchanged while the result
    /// is used.
    @inline(__always)
    static func inPlaceKey(_ key: UnsafePointer<String>) -> UTF8Text {
        utf8Text(key.pointee)
    }

    /// The bytes of `string`, which must be a string of the tree (see ``UTF8Text``).
    @inline(__always)
    private static func utf8Text(_ string: String) -> UTF8Text {
        let text = string.utf8.withContiguousStorageIfAvailable { utf8 -> UTF8Text in
            guard utf8.count > 15 else {
                guard let source = utf8.baseAddress else { return UTF8Text(base: nil, count: 0, short: (0, 0)) }
                return UTF8Text(base: nil, count: utf8.count, short: shortWords(source, utf8.count))
            }
            // More than 15 bytes: never stored in the `String` value itself, so the pointer is into storage the
            // tree owns (see ``UTF8Text``), valid after this closure returns.
            return UTF8Text(base: utf8.baseAddress, count: utf8.count, short: (0, 0))
        }
        return text ?? .notContiguous
    }

    /// The `count` bytes (at most 15) at `source` as two little-endian words, zeros after them: read in at most
    /// two loads, each within the `count` bytes (two overlapping ones cover a run of 8 to 15, or of 4 to 7).
    @inline(__always)
    private static func shortWords(_ source: UnsafePointer<UInt8>, _ count: Int) -> (UInt64, UInt64) {
        let raw = UnsafeRawPointer(source)
        if count >= 8 {
            // Bytes 0..<8, then bytes count-8..<count shifted so that byte 8 lands in the second word's lowest byte.
            let first = UInt64(littleEndian: raw.loadUnaligned(as: UInt64.self))
            guard count > 8 else { return (first, 0) }
            let last = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: count - 8, as: UInt64.self))
            return (first, last >> UInt64(8 * (16 - count)))
        }
        if count >= 4 {
            let first = UInt64(UInt32(littleEndian: raw.loadUnaligned(as: UInt32.self)))
            let last = UInt64(UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: count - 4, as: UInt32.self)))
            return (first | last << UInt64(8 * (count - 4)), 0)
        }
        var word: UInt64 = 0
        for i in 0..<count { word |= UInt64(source[i]) << UInt64(8 * i) }
        return (word, 0)
    }

    /// The address of the first element of `array`, which must not be empty and must be an array of the tree.
    ///
    /// The pointer outlives the closure that handed it out, which the standard library does not promise in
    /// general; it holds here because (1) the storage belongs to the tree, not to the closure: every array of a
    /// `JSON` tree is native and contiguous (`[JSON]` cannot be bridged from Objective-C, and `JSON.Object`
    /// copies a bridged `[String]` of keys into native storage when it is made), so `withUnsafeBufferPointer`
    /// hands out the array's own buffer, never a temporary copy; (2) the tree is kept alive and unchanged by the
    /// walk (a parameter of it, immutable until it returns), so no buffer is freed, moved or written meanwhile.
    @inline(__always)
    static func elementPointer<Element>(_ array: [Element]) -> UnsafePointer<Element> {
        array.withUnsafeBufferPointer { $0.baseAddress! }
    }
}
