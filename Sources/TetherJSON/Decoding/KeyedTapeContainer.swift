/// A keyed container over one JSON object on the tape.
///
/// Lookup compares the coding key's UTF-8 bytes with the raw member keys, starting just past the member
/// found last (see ``CodingPathNode/hint``), so decoding members in document order is O(1) per key.
/// Converting key strategies and case-insensitive matching take a slower path that compares `String`s.
///
/// It holds one reference, its cursor (which holds the node, which holds the state): the standard library's box
/// copies the container for every member it reads. The cursor lets the decoding state reuse a box for the next
/// object read with the same keys (see `DecodingState.keyedContainer(keyedBy:object:node:)`).
struct KeyedTapeContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let cursor: KeyedTapeCursor
    @inline(__always) var node: CodingPathNode { cursor.node }
    @inline(__always) var object: Int { cursor.object }
    @inline(__always) var state: DecodingState { cursor.state }

    init(cursor: KeyedTapeCursor) {
        self.cursor = cursor
    }

    var codingPath: [any CodingKey] { state.codingPath(of: node) }

    var allKeys: [Key] {
        guard state.isActive else { return [] }
        var keys: [Key] = []
        forEachMember { keyIndex, _ in
            if let key = Key(stringValue: matchableKey(at: keyIndex)) { keys.append(key) }
        }
        return keys
    }

    // MARK: - Finding members

    private func forEachMember(_ body: (_ keyIndex: Int, _ valueIndex: Int) -> Void) {
        let tape = state.tape
        let end = tape.entries[object].value
        var k = object + 1
        while k < end {
            body(k, k + 1)
            k = tape.next(after: k + 1)
        }
    }

    private func matchableKey(at keyIndex: Int) -> String {
        if state.usesDefaultKeys { return state.tape.string(at: keyIndex) }
        return state.convertedKey(at: keyIndex, codingPath: node.path)
    }

    /// The tape index of the value for `key`, or `nil`.
    @inline(__always)
    private func find(_ key: Key) -> Int? {
        guard state.isActive else { return nil }
        if state.usesDefaultKeys, let found = findBytes(key) {
            return found
        }
        return findSlow(key)
    }

    @inline(__always)
    private func findBytes(_ key: Key) -> Int? {
        let tape = state.tape
        let end = tape.entries[object].value
        guard end > object + 1 else { return nil }
        if let keyTexts = cursor.keyTexts, let index = KeyTexts.index(of: key) {
            let text = keyTexts.text(at: index) { (Array(key.stringValue.utf8), 0) }
            return findBytes(
                UnsafeBufferPointer(start: text.bytes.assumingMemoryBound(to: UInt8.self), count: text.count),
                tape: tape, end: end)
        }
        var name = key.stringValue
        return name.withUTF8 { findBytes($0, tape: tape, end: end) }
    }

    /// The tape index of the value whose key is `bytes`, in this object, which ends before tape index `end`.
    @inline(__always)
    private func findBytes(_ bytes: UnsafeBufferPointer<UInt8>, tape: Tape, end: Int) -> Int? {
        var k = node.hintObject == object ? node.hint : object + 1
        if let table = node.keyTable, table.object == object {
            // The same member, and the same hint afterwards, as the scan below would give.
            guard let found = table.find(bytes, in: tape, from: k) else { return nil }
            let next = tape.next(after: found + 1)
            node.hintObject = object
            node.hint = next < end ? next : object + 1
            return found + 1
        }
        let start = k
        var steps = 0
        repeat {
            let next = tape.next(after: k + 1)
            if tape.string(at: k, equals: bytes) {
                node.hintObject = object
                node.hint = next < end ? next : object + 1
                if steps > KeyTable.scanLimit { buildKeyTable() }
                return k + 1
            }
            k = next < end ? next : object + 1
            steps += 1
        } while k != start
        // Not there: an optional member the document leaves out. Scanning again is cheaper than a table
        // unless this object keeps missing keys (a table costs about four scans of a 25-member object, and
        // makes the in-order lookups after it hash their keys).
        if node.missObject == object {
            node.misses += 1
            if node.misses >= KeyTable.missLimit { buildKeyTable() }
        } else {
            node.missObject = object
            node.misses = 1
        }
        return nil
    }

    /// Members are being read out of document order: index this object's keys for the lookups to come.
    private func buildKeyTable() {
        guard Int(truncatingIfNeeded: state.tape.entries[object].payload) >= KeyTable.minimumMembers else { return }
        node.keyTable = KeyTable(object: object, tape: state.tape)
    }

    private func findSlow(_ key: Key) -> Int? {
        let name = key.stringValue
        var found: Int?
        if !state.usesDefaultKeys {  // with default keys, the exact byte comparison has already failed
            forEachMember { keyIndex, valueIndex in
                if found == nil, matchableKey(at: keyIndex) == name { found = valueIndex }
            }
        }
        if found == nil, state.matchesKeysCaseInsensitively {
            let lowered = name.lowercased()
            forEachMember { keyIndex, valueIndex in
                if found == nil, matchableKey(at: keyIndex).lowercased() == lowered { found = valueIndex }
            }
        }
        return found
    }

    private func require(_ key: Key) throws -> Int {
        try state.checkActive(node)
        guard let index = find(key) else {
            throw DecodingError.keyNotFound(
                key,
                DecodingError.Context(
                    codingPath: node.path,
                    debugDescription: "No value associated with key \(describe(key))."))
        }
        return index
    }

    private func describe(_ key: Key) -> String {
        if let int = key.intValue { return "\(key) (\"\(key.stringValue)\", \(int))" }
        return "\(key) (\"\(key.stringValue)\")"
    }

    // MARK: - Decoding

    func contains(_ key: Key) -> Bool { find(key) != nil }

    func decodeNil(forKey key: Key) throws -> Bool { state.isNull(try require(key)) }

    @inline(__always)
    private func primitive<P: TapePrimitive>(_ type: P.Type, _ key: Key) throws -> P {
        let index = try require(key)
        if let value = try P.readPlain(state, at: index) { return value }
        return try P.read(state, at: index, node, .key(key))
    }

    @inline(__always)
    private func primitiveIfPresent<P: TapePrimitive>(_ type: P.Type, _ key: Key) throws -> P? {
        guard let index = find(key), !state.isNull(index) else { return nil }
        if let value = try P.readPlain(state, at: index) { return value }
        return try P.read(state, at: index, node, .key(key))
    }

    func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool { try primitive(type, key) }
    func decode(_ type: String.Type, forKey key: Key) throws -> String { try primitive(type, key) }
    func decode(_ type: Double.Type, forKey key: Key) throws -> Double { try primitive(type, key) }
    func decode(_ type: Float.Type, forKey key: Key) throws -> Float { try primitive(type, key) }
    func decode(_ type: Int.Type, forKey key: Key) throws -> Int { try primitive(type, key) }
    func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 { try primitive(type, key) }
    func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 { try primitive(type, key) }
    func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 { try primitive(type, key) }
    func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 { try primitive(type, key) }
    func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt { try primitive(type, key) }
    func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 { try primitive(type, key) }
    func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 { try primitive(type, key) }
    func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 { try primitive(type, key) }
    func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 { try primitive(type, key) }

    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
        let index = try require(key)
        if state.isScalar(type) { return try state.decodeValue(type, at: index, parent: node, segment: .key(key)) }
        return try state.decodeValue(
            type, at: index, parent: node, segment: .key(key), reusing: node.temporaryChild(.key(key)))
    }

    func decodeIfPresent(_ type: Bool.Type, forKey key: Key) throws -> Bool? { try primitiveIfPresent(type, key) }
    func decodeIfPresent(_ type: String.Type, forKey key: Key) throws -> String? { try primitiveIfPresent(type, key) }
    func decodeIfPresent(_ type: Double.Type, forKey key: Key) throws -> Double? { try primitiveIfPresent(type, key) }
    func decodeIfPresent(_ type: Float.Type, forKey key: Key) throws -> Float? { try primitiveIfPresent(type, key) }
    func decodeIfPresent(_ type: Int.Type, forKey key: Key) throws -> Int? { try primitiveIfPresent(type, key) }
    func decodeIfPresent(_ type: Int8.Type, forKey key: Key) throws -> Int8? { try primitiveIfPresent(type, key) }
    func decodeIfPresent(_ type: Int16.Type, forKey key: Key) throws -> Int16? { try primitiveIfPresent(type, key) }
    func decodeIfPresent(_ type: Int32.Type, forKey key: Key) throws -> Int32? { try primitiveIfPresent(type, key) }
    func decodeIfPresent(_ type: Int64.Type, forKey key: Key) throws -> Int64? { try primitiveIfPresent(type, key) }
    func decodeIfPresent(_ type: UInt.Type, forKey key: Key) throws -> UInt? { try primitiveIfPresent(type, key) }
    func decodeIfPresent(_ type: UInt8.Type, forKey key: Key) throws -> UInt8? { try primitiveIfPresent(type, key) }
    func decodeIfPresent(_ type: UInt16.Type, forKey key: Key) throws -> UInt16? { try primitiveIfPresent(type, key) }
    func decodeIfPresent(_ type: UInt32.Type, forKey key: Key) throws -> UInt32? { try primitiveIfPresent(type, key) }
    func decodeIfPresent(_ type: UInt64.Type, forKey key: Key) throws -> UInt64? { try primitiveIfPresent(type, key) }

    func decodeIfPresent<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? {
        guard let index = find(key), !state.isNull(index) else { return nil }
        if state.isScalar(type) { return try state.decodeValue(type, at: index, parent: node, segment: .key(key)) }
        return try state.decodeValue(
            type, at: index, parent: node, segment: .key(key), reusing: node.temporaryChild(.key(key)))
    }

    // MARK: - Nesting

    func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws
        -> KeyedDecodingContainer<NestedKey>
    {
        let index = try require(key)
        return try TapeDecoder(index: index, node: CodingPathNode(parent: node, segment: .key(key)))
            .container(keyedBy: type)
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        let index = try require(key)
        return try TapeDecoder(index: index, node: CodingPathNode(parent: node, segment: .key(key)))
            .unkeyedContainer()
    }

    func superDecoder() throws -> any Decoder {
        try superDecoder(named: AnyStringKey("super"))
    }

    func superDecoder(forKey key: Key) throws -> any Decoder {
        try superDecoder(named: key)
    }

    private func superDecoder(named key: any CodingKey) throws -> any Decoder {
        try state.checkActive(node)
        let name = key.stringValue
        var found: Int?
        forEachMember { keyIndex, valueIndex in
            if found == nil, matchableKey(at: keyIndex) == name { found = valueIndex }
        }
        // A missing key gives a decoder over null, as Foundation's does.
        let childState = found == nil ? state.nullState : state
        let child = CodingPathNode(parent: node, segment: .key(key), state: childState)
        return TapeDecoder(index: found ?? 0, node: child)
    }
}
