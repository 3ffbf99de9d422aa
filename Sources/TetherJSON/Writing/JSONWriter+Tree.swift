#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#else
    import Darwin
#endif

// The tree walk of JSONWriter: one pass over a `JSON` value that writes its text into a `ByteBuffer`.
//
// Where the time goes in a writer of a tree is mostly not the text: it is the dispatch on each value, the
// reference counting of the arrays and strings it visits, and the buffer's checks. So the walk reads the tree in
// place through pointers to the arrays' elements (no copy of a child value, so no retain and release per value),
// keeps the container being written in local variables (the stack of the ones around it is touched only when a
// container opens or closes), and appends to a `ByteBuffer`, whose append is a capacity check and a store.

extension JSONWriter {
    /// A container whose writing was interrupted by a child container: where to carry on once the child is done.
    struct OpenContainer {
        /// The container's values (an array's elements or an object's member values), `count` of them.
        var values: UnsafePointer<JSON>
        /// An object's keys, parallel to `values`; `nil` for an array.
        var keys: UnsafePointer<String>?
        var count: Int
        /// How many members or elements have been started.
        var next: Int
        /// Where the sorted order of an object's members starts in the walk's order storage, or -1 when they are
        /// written in their own order.
        var orderStart: Int
        /// Where an object's key texts start in the walk's ``KeyTextCache``, or -1 when its keys are written directly.
        var keyText: Int
    }

    /// The containers around the one being written, outermost first: a stack in memory of its own, so that a
    /// push or a pop is a capacity check and a copy, without an array's checks that its storage is not shared.
    /// Its owner calls ``deallocate()``.
    struct ContainerStack {
        private var base = UnsafeMutablePointer<OpenContainer>.allocate(capacity: 16)
        private var capacity = 16
        private(set) var count = 0

        func deallocate() {
            // `OpenContainer` holds no references: nothing to deinitialize.
            base.deallocate()
        }

        @inline(__always)
        mutating func push(_ container: OpenContainer) {
            if count == capacity { grow() }
            // Bounds: count < capacity after growing.
            (base + count).initialize(to: container)
            count += 1
        }

        /// The innermost container, removed; `nil` when there is none.
        @inline(__always)
        mutating func pop() -> OpenContainer? {
            guard count > 0 else { return nil }
            count -= 1
            // Bounds: 0 ≤ count, below the number pushed.
            return (base + count).move()
        }

        @inline(never)
        private mutating func grow() {
            let bigger = UnsafeMutablePointer<OpenContainer>.allocate(capacity: capacity * 2)
            bigger.moveInitialize(from: base, count: count)
            base.deallocate()
            base = bigger
            capacity *= 2
        }

        /// The containers, outermost first (for the path of an error).
        var array: [OpenContainer] { Array(UnsafeBufferPointer(start: base, count: count)) }
    }

    /// Where the writer hands its text on before it is all written (the streaming forms); `nil` to keep it all.
    struct Flush {
        /// Text is handed on once the buffer holds at least this many bytes.
        var threshold: Int
        /// Takes the buffer's bytes and empties it (`truncate(to: 0)`); returns `false` to stop the writing.
        var body: (inout ByteBuffer) -> Bool
    }

    /// Appends the JSON text of `json` to `bytes`, as a value nested `baseDepth` levels deep (for the indentation
    /// of pretty-printed text). On an error, the bytes written so far stay in `bytes`.
    ///
    /// With `flush`, the text written so far is handed on whenever the buffer holds `flush.threshold` bytes or
    /// more at the start of a value (so the buffer stays within the threshold plus one scalar's text, a string's
    /// being at most six times its UTF-8 bytes); the last bytes stay in `bytes` for the caller.
    func write(
        _ json: JSON, into bytes: inout ByteBuffer, depth baseDepth: Int = 0, flush: Flush? = nil
    ) throws(JSONError) {
        let pretty = options.contains(.prettyPrinted)
        let sorted = options.contains(.sortedKeys)
        let escapesSlashes = !options.contains(.withoutEscapingSlashes)
        if !pretty, !sorted, flush == nil {
            // The usual case gets a walk of its own, compiled without the branches of the other options.
            if escapesSlashes {
                try writeCompact(json, into: &bytes, escapingSlashes: true)
            } else {
                try writeCompact(json, into: &bytes, escapingSlashes: false)
            }
            return
        }
        try walk(
            json, into: &bytes, depth: baseDepth, pretty: pretty, sorted: sorted, escapesSlashes: escapesSlashes,
            flush: flush)
    }

    /// ``write(_:into:depth:flush:)`` without pretty-printing, sorting or flushing.
    @inline(never)
    private func writeCompact(_ json: JSON, into bytes: inout ByteBuffer, escapingSlashes: Bool) throws(JSONError) {
        try walk(
            json, into: &bytes, depth: 0, pretty: false, sorted: false, escapesSlashes: escapingSlashes, flush: nil)
    }

    /// The walk of ``write(_:into:depth:flush:)``, inlined into its callers so that each gets the options it passes
    /// as constants.
    @inline(__always)
    private func walk(
        _ json: JSON, into bytes: inout ByteBuffer, depth baseDepth: Int, pretty: Bool, sorted: Bool,
        escapesSlashes: Bool, flush: Flush?
    ) throws(JSONError) {
        let indent = max(0, indentWidth)
        let flushThreshold = flush?.threshold ?? Int.max

        // The container being written.
        var values: UnsafePointer<JSON>
        var keys: UnsafePointer<String>?
        var count: Int
        var next = 0
        var orderStart = -1
        var keyText = -1
        // The containers around it, outermost first, and the sorted orders of the objects among them.
        var open = ContainerStack()
        defer { open.deallocate() }
        var orders: [Int] = []
        var scratch = SortScratch()
        var keyTexts = KeyTextCache()
        defer { keyTexts.deallocate() }
        let separator: UInt64 = pretty ? 0x203A : 0x3A  // ": " or ":"
        let separatorCount = pretty ? 2 : 1

        // Lifetimes (for every pointer below): the pointers point into the element storage of the arrays of
        // `json`'s tree. `json` is this function's parameter, alive and unchanged until it returns (a `JSON` is a
        // value; nothing can change the arrays it holds), so every array in it stays allocated and in place.
        // Native Swift arrays keep their elements contiguous, and `elementPointer(_:)` takes the pointer of a
        // non-empty array only; the strings' bytes are read in place as `inPlace(_:)` explains (for the same
        // reason). Bounds: a container's pointers are read at positions below its `count`, which is its array's
        // count.
        switch json {
        case .array(let array) where !array.isEmpty:
            values = Self.elementPointer(array)
            keys = nil
            count = array.count
            bytes.append(UInt8(ascii: "["))
        case .object(let object) where !object.isEmpty:
            let objectKeys = Self.elementPointer(object.keys)
            values = Self.elementPointer(object.values)
            keys = objectKeys
            count = object.count
            keyText = keyTexts.lookUp(
                objectKeys, count: count, escapingSlashes: escapesSlashes, separator: separator,
                separatorCount: separatorCount)
            if sorted {
                orderStart = 0
                Self.appendSortedOrder(
                    of: UnsafeBufferPointer(start: keys, count: object.count), to: &orders, scratch: &scratch)
            }
            bytes.append(UInt8(ascii: "{"))
        default:
            guard Self.appendScalar(json, to: &bytes, escapesSlashes: escapesSlashes, nonFinite: writesNonFiniteNumbers)
            else { throw Self.nonFiniteError(json, path: []) }
            return
        }

        while true {
            guard next < count else {
                // The container is complete: close it and carry on with the one around it.
                if pretty { Self.appendNewline(depth: (baseDepth + open.count) * indent, to: &bytes) }
                bytes.append(keys == nil ? UInt8(ascii: "]") : UInt8(ascii: "}"))
                if orderStart >= 0 { orders.removeSubrange(orderStart...) }
                guard let outer = open.pop() else { return }
                values = outer.values
                keys = outer.keys
                count = outer.count
                next = outer.next
                orderStart = outer.orderStart
                keyText = outer.keyText
                continue
            }
            if bytes.count >= flushThreshold, let flush {
                guard flush.body(&bytes) else {
                    let current = OpenContainer(
                        values: values, keys: keys, count: count, next: next + 1, orderStart: orderStart,
                        keyText: keyText)
                    throw JSONError(
                        .invalidValue, "the output stopped the writing", path: Self.path(open.array + [current], orders)
                    )
                }
            }
            let position = orderStart >= 0 ? orders[orderStart + next] : next
            let comma = next > 0
            next += 1
            // What comes before the value, then room for the value's text unless it is a string (which makes its
            // own): at most ``valueRoom`` bytes, so that the appends of the value below need no check. Compact text
            // takes both in one reservation.
            if !pretty, keyText >= 0 {
                keyTexts.appendKey(keyText + position, afterComma: comma, reservingMore: Self.valueRoom, to: &bytes)
            } else if !pretty, keys == nil {
                bytes.reserve(1 + Self.valueRoom)
                if comma { bytes.appendReserved(UInt8(ascii: ",")) }
            } else {
                if comma { bytes.append(UInt8(ascii: ",")) }
                if pretty { Self.appendNewline(depth: (baseDepth + open.count + 1) * indent, to: &bytes) }
                if let keys {
                    if keyText >= 0 {
                        keyTexts.appendKey(keyText + position, afterComma: false, reservingMore: 0, to: &bytes)
                    } else {
                        if !Self.append(Self.inPlaceKey(keys + position), escapingSlashes: escapesSlashes, to: &bytes) {
                            Self.appendString(keys[position], escapingSlashes: escapesSlashes, to: &bytes)
                        }
                        bytes.append(word: separator, count: separatorCount)
                    }
                }
                bytes.reserve(Self.valueRoom)
            }
            switch Self.inPlace(values + position) {
            case .null:
                bytes.appendReserved(word: 0x6C6C_756E, count: 4)  // null
            case .bool(let b):
                if b {
                    bytes.appendReserved(word: 0x6575_7274, count: 4)  // true
                } else {
                    bytes.appendReserved(word: 0x65_736C_6166, count: 5)  // false
                }
            case .int(let v):
                JSONNumberFormatter.appendReserved(v, to: &bytes)
            case .uint(let v):
                JSONNumberFormatter.appendReserved(v, to: &bytes)
            case .double(let d):
                JSONNumberFormatter.appendReserved(d, to: &bytes)
            case .string:
                if !Self.append(Self.inPlaceString(values + position), escapingSlashes: escapesSlashes, to: &bytes) {
                    Self.appendScalar(
                        values[position], to: &bytes, escapesSlashes: escapesSlashes, nonFinite: writesNonFiniteNumbers)
                }
            case .other:
                guard
                    Self.appendScalar(
                        values[position], to: &bytes, escapesSlashes: escapesSlashes, nonFinite: writesNonFiniteNumbers)
                else {
                    let current = OpenContainer(
                        values: values, keys: keys, count: count, next: next, orderStart: orderStart,
                        keyText: keyText)
                    throw Self.nonFiniteError(values[position], path: Self.path(open.array + [current], orders))
                }
            case .array(let elements, let elementCount):
                guard let elements else {
                    bytes.appendReserved(word: 0x5D5B, count: 2)  // []
                    break
                }
                bytes.appendReserved(UInt8(ascii: "["))
                open.push(
                    OpenContainer(
                        values: values, keys: keys, count: count, next: next, orderStart: orderStart, keyText: keyText))
                values = elements
                keys = nil
                count = elementCount
                next = 0
                orderStart = -1
                keyText = -1
            case .object(let memberValues, let memberKeys, let memberCount):
                guard let memberValues, let memberKeys else {
                    bytes.appendReserved(word: 0x7D7B, count: 2)  // {}
                    break
                }
                bytes.appendReserved(UInt8(ascii: "{"))
                open.push(
                    OpenContainer(
                        values: values, keys: keys, count: count, next: next, orderStart: orderStart, keyText: keyText))
                values = memberValues
                keys = memberKeys
                count = memberCount
                next = 0
                keyText = keyTexts.lookUp(
                    memberKeys, count: memberCount, escapingSlashes: escapesSlashes, separator: separator,
                    separatorCount: separatorCount)
                if sorted {
                    orderStart = orders.count
                    Self.appendSortedOrder(
                        of: UnsafeBufferPointer(start: memberKeys, count: memberCount), to: &orders,
                        scratch: &scratch)
                } else {
                    orderStart = -1
                }
            }
        }
    }

    /// The most bytes a value that is not a string takes in the walk's reserved room: a double's 40 (what
    /// `JSONNumberFormatter` reserves for one), more than an integer's 27 and the eight of a word (`null`, `true`,
    /// `false`, `[]`, `{}`, `[` or `{`, each written as a whole word).
    static let valueRoom = 40

    /// Writes a value that is not a non-empty container; returns `false` for a non-finite number it may not write.
    @discardableResult
    private static func appendScalar(
        _ json: JSON, to bytes: inout ByteBuffer, escapesSlashes: Bool, nonFinite: Bool
    ) -> Bool {
        switch json {
        case .null: bytes.append(word: 0x6C6C_756E, count: 4)
        case .bool(let b): b ? bytes.append(word: 0x6575_7274, count: 4) : bytes.append(word: 0x65_736C_6166, count: 5)
        case .string(let string): appendString(string, escapingSlashes: escapesSlashes, to: &bytes)
        case .number(let number): return appendNumber(number, to: &bytes, nonFinite: nonFinite)
        case .array: bytes.append(word: 0x5D5B, count: 2)
        case .object: bytes.append(word: 0x7D7B, count: 2)
        }
        return true
    }

    /// The path to the value being written, from the containers around it (the innermost last).
    private static func path(_ containers: [OpenContainer], _ orders: [Int]) -> [JSON.PathElement] {
        containers.map { container in
            let position =
                container.orderStart >= 0 ? orders[container.orderStart + container.next - 1] : container.next - 1
            if let keys = container.keys { return .key(keys[position]) }
            return .index(position)
        }
    }

    /// The error for a non-finite number, `json`, at `path`.
    private static func nonFiniteError(_ json: JSON, path: [JSON.PathElement]) -> JSONError {
        let d = json.double ?? .nan
        let name = d.isNaN ? "NaN" : d < 0 ? "negative infinity" : "infinity"
        return JSONError(.invalidValue, "\(name) cannot be written as a JSON number", path: path)
    }

    /// Appends a newline and `spaces` spaces.
    @inline(__always)
    private static func appendNewline(depth spaces: Int, to bytes: inout ByteBuffer) {
        bytes.appendUninitialized(count: spaces + 1) { out in
            out[0] = UInt8(ascii: "\n")
            (out + 1).update(repeating: UInt8(ascii: " "), count: spaces)
        }
    }

    /// Appends `number`; returns `false`, having appended nothing, for a non-finite number unless `nonFinite`.
    @inline(__always)
    static func appendNumber(_ number: JSON.Number, to bytes: inout ByteBuffer, nonFinite: Bool) -> Bool {
        switch number.storage {
        case .int(let v):
            JSONNumberFormatter.append(v, to: &bytes)
        case .double(let d) where d.isFinite:
            JSONNumberFormatter.append(d, to: &bytes)
        case .double(let d):
            guard nonFinite else { return false }
            let text = d.isNaN ? "NaN" : d < 0 ? "-Infinity" : "Infinity"
            for byte in text.utf8 { bytes.append(byte) }
        case .uint(let v):
            JSONNumberFormatter.append(v, to: &bytes)
        case .text(let text):
            for byte in text.utf8 { bytes.append(byte) }
        }
        return true
    }

    /// The memory the sorting of objects' keys uses, kept from one object to the next, and the orders found.
    ///
    /// Objects of the same shape often share one keys array (the parser makes them so): its order is sorted once
    /// per walk and found again by the address of the array's storage. The address identifies the array for the
    /// whole walk, as the tree is alive and unchanged until it ends (no storage is freed and reused meanwhile).
    struct SortScratch {
        var texts: [UTF8Text] = []
        var prefixes: [UInt64] = []
        /// Where each keys array's sorted order is in ``sortedOrders``, by the address of its first key.
        var known: [UnsafePointer<String>: Range<Int>] = [:]
        var sortedOrders: [Int] = []
    }

    /// Appends the positions of `keys` in ascending UTF-8 byte order (equal keys keep their order) to `orders`:
    /// the same order as ``sortedOrder(of:)``. The keys' bytes are read in place (``inPlaceKey(_:)``), and compared
    /// by their first eight bytes as one integer (made once per key), and by all their bytes (`memcmp`) only when
    /// those are equal. `keys` must be keys of the tree being written.
    private static func appendSortedOrder(
        of keys: UnsafeBufferPointer<String>, to orders: inout [Int], scratch: inout SortScratch
    ) {
        guard let first = keys.baseAddress else { return }
        if let known = scratch.known[first], known.count == keys.count {
            orders.append(contentsOf: scratch.sortedOrders[known])
            return
        }
        let start = orders.count
        orders.reserveCapacity(max(64, start + keys.count))
        orders.append(contentsOf: keys.indices)
        defer {
            let stored = scratch.sortedOrders.count
            scratch.sortedOrders.append(contentsOf: orders[start...])
            scratch.known[first] = stored..<(stored + keys.count)
        }
        scratch.texts.removeAll(keepingCapacity: true)
        scratch.prefixes.removeAll(keepingCapacity: true)
        for i in keys.indices {
            let text = inPlaceKey(first + i)
            scratch.texts.append(text)
            scratch.prefixes.append(prefixWord(text))
        }
        let texts = scratch.texts
        let prefixes = scratch.prefixes
        // Bounds: `orders` holds positions in `keys`, which `texts` and `prefixes` parallel.
        func precedes(_ a: Int, _ b: Int) -> Bool {
            if prefixes[a] != prefixes[b] { return prefixes[a] < prefixes[b] }
            let order =
                texts[a].count >= 0 && texts[b].count >= 0
                ? compareUTF8(texts[a], texts[b]) : compareUTF8(keys[a], keys[b])
            return order < 0 || (order == 0 && a < b)
        }
        let count = keys.count
        guard count > 16 else {
            // Insertion sort: a key moves only past keys after it in the order.
            for i in (start + 1)..<(start + count) {
                let moving = orders[i]
                var j = i
                while j > start, precedes(moving, orders[j - 1]) {
                    orders[j] = orders[j - 1]
                    j -= 1
                }
                orders[j] = moving
            }
            return
        }
        orders[start...].sort(by: precedes)
    }

    /// The first eight UTF-8 bytes of `text` as a big-endian integer, zeros after a shorter key's end: integers
    /// in the keys' byte order, equal when one key is a prefix of the other within eight bytes or they share
    /// their first eight. 0 for a key without contiguous bytes (compared as a `String` then).
    private static func prefixWord(_ text: UTF8Text) -> UInt64 {
        if let base = text.base {
            // Bounds: a key with a `base` has more than 15 bytes.
            return UInt64(bigEndian: UnsafeRawPointer(base).loadUnaligned(as: UInt64.self))
        }
        // A short key's first word holds its first eight bytes, zeros after its end.
        return text.count >= 0 ? text.short.0.byteSwapped : 0
    }

    /// The order of `a` and `b` (in-place texts with contiguous bytes) by their UTF-8 bytes: negative, zero or
    /// positive.
    private static func compareUTF8(_ a: UTF8Text, _ b: UTF8Text) -> Int {
        a.withBytes { a in
            b.withBytes { b in
                // Bounds: memcmp reads the first min(a.count, b.count) bytes of each buffer.
                let common = min(a.count, b.count)
                if common > 0, let a = a.baseAddress, let b = b.baseAddress {
                    let order = memcmp(a, b, common)
                    if order != 0 { return Int(order) }
                }
                return a.count - b.count
            }
        }
    }

    /// The order of `a` and `b` by their UTF-8 bytes: negative, zero or positive.
    @inline(__always)
    private static func compareUTF8(_ a: String, _ b: String) -> Int {
        let order = a.utf8.withContiguousStorageIfAvailable { a in
            b.utf8.withContiguousStorageIfAvailable { b -> Int in
                // Bounds: memcmp reads the first min(a.count, b.count) bytes of each buffer.
                let common = min(a.count, b.count)
                if common > 0, let a = a.baseAddress, let b = b.baseAddress {
                    let order = memcmp(a, b, common)
                    if order != 0 { return Int(order) }
                }
                return a.count - b.count
            }
        }
        if let order = order ?? nil { return order }
        if a.utf8.lexicographicallyPrecedes(b.utf8) { return -1 }
        return b.utf8.lexicographicallyPrecedes(a.utf8) ? 1 : 0
    }
}
