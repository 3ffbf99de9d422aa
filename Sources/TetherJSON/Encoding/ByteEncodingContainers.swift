// The `Encoder` and containers of the byte-writing encoder. Each is a few words (the state, a depth, and which
// container or value it stands for), so handing one out as `any Encoder` or `any UnkeyedEncodingContainer`
// does not allocate. All writing goes through ``ByteEncodingState``, which checks that the container is still
// the place to write; when it is not, the state falls back and these calls do nothing.

/// The `Encoder` for the value at `depth` that starts at byte `start`; also its single-value container.
struct ByteEncoder: Encoder, SingleValueEncodingContainer {
    let state: ByteEncodingState
    let depth: Int
    let start: Int

    var codingPath: [any CodingKey] { state.codingPath(depth: depth) }
    var userInfo: [CodingUserInfoKey: Any] { state.context.userInfo }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        let serial = state.openContainer(isObject: true, depth: depth, owner: start)
        return state.keyedContainer(keyedBy: type, depth: depth, serial: serial)
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        UnkeyedByteContainer(
            state: state, depth: depth, serial: state.openContainer(isObject: false, depth: depth, owner: start))
    }

    func singleValueContainer() -> any SingleValueEncodingContainer { self }

    // MARK: SingleValueEncodingContainer

    @inline(__always) private var begin: Bool { state.beginSingleValue(depth: depth, start: start) }

    func encodeNil() throws { if begin { state.appendNull() } }
    func encode(_ value: Bool) throws { if begin { state.append(value) } }
    func encode(_ value: String) throws { if begin { state.append(value) } }
    func encode(_ value: Double) throws { if begin { try state.append(value, depth: depth, step: .none) } }
    func encode(_ value: Float) throws { if begin { try state.append(value, depth: depth, step: .none) } }
    func encode(_ value: Int) throws { if begin { state.append(Int64(value)) } }
    func encode(_ value: Int8) throws { if begin { state.append(Int64(value)) } }
    func encode(_ value: Int16) throws { if begin { state.append(Int64(value)) } }
    func encode(_ value: Int32) throws { if begin { state.append(Int64(value)) } }
    func encode(_ value: Int64) throws { if begin { state.append(value) } }
    func encode(_ value: UInt) throws { if begin { state.append(UInt64(value)) } }
    func encode(_ value: UInt8) throws { if begin { state.append(UInt64(value)) } }
    func encode(_ value: UInt16) throws { if begin { state.append(UInt64(value)) } }
    func encode(_ value: UInt32) throws { if begin { state.append(UInt64(value)) } }
    func encode(_ value: UInt64) throws { if begin { state.append(value) } }
    func encode<T: Encodable>(_ value: T) throws { if begin { try state.encode(value, depth: depth, step: .none) } }
}

/// An object being written at its cursor's `depth`. The cursor lets the state hand the container's box out again
/// for the next object with the same keys (see `ByteEncodingState.keyedContainer(keyedBy:depth:serial:)`).
struct KeyedByteContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let cursor: KeyedByteCursor
    @inline(__always) var state: ByteEncodingState { cursor.state }
    @inline(__always) var depth: Int { cursor.depth }
    @inline(__always) var serial: Int { cursor.serial }

    var codingPath: [any CodingKey] { state.codingPath(depth: depth) }

    /// Starts the member for `key` if this object is still the place to write.
    @inline(__always)
    private func begin(_ key: Key) -> Bool {
        guard state.activate(depth, serial) else { return false }
        if state.usesDefaultKeys, let keyTexts = cursor.keyTexts, let index = KeyTexts.index(of: key) {
            let text = keyTexts.text(at: index) { state.quotedKey(key.stringValue) }
            return state.beginMember(depth, quotedKey: text.bytes, count: text.count, hash: text.hash)
        }
        return state.beginMember(depth, key: objectKey(key))
    }

    @inline(__always)
    private func objectKey(_ key: Key) -> String {
        if state.usesDefaultKeys { return key.stringValue }
        return state.context.objectKey(for: key, codingPath: state.codingPath(depth: depth) + [key])
    }

    mutating func encodeNil(forKey key: Key) throws { if begin(key) { state.appendNull() } }
    mutating func encode(_ value: Bool, forKey key: Key) throws { if begin(key) { state.append(value) } }
    mutating func encode(_ value: String, forKey key: Key) throws { if begin(key) { state.append(value) } }
    mutating func encode(_ value: Double, forKey key: Key) throws {
        if begin(key) { try state.append(value, depth: depth + 1, step: .key(key)) }
    }
    mutating func encode(_ value: Float, forKey key: Key) throws {
        if begin(key) { try state.append(value, depth: depth + 1, step: .key(key)) }
    }
    mutating func encode(_ value: Int, forKey key: Key) throws { if begin(key) { state.append(Int64(value)) } }
    mutating func encode(_ value: Int8, forKey key: Key) throws { if begin(key) { state.append(Int64(value)) } }
    mutating func encode(_ value: Int16, forKey key: Key) throws { if begin(key) { state.append(Int64(value)) } }
    mutating func encode(_ value: Int32, forKey key: Key) throws { if begin(key) { state.append(Int64(value)) } }
    mutating func encode(_ value: Int64, forKey key: Key) throws { if begin(key) { state.append(value) } }
    mutating func encode(_ value: UInt, forKey key: Key) throws { if begin(key) { state.append(UInt64(value)) } }
    mutating func encode(_ value: UInt8, forKey key: Key) throws { if begin(key) { state.append(UInt64(value)) } }
    mutating func encode(_ value: UInt16, forKey key: Key) throws { if begin(key) { state.append(UInt64(value)) } }
    mutating func encode(_ value: UInt32, forKey key: Key) throws { if begin(key) { state.append(UInt64(value)) } }
    mutating func encode(_ value: UInt64, forKey key: Key) throws { if begin(key) { state.append(value) } }

    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
        if begin(key) { try state.encode(value, depth: depth + 1, step: .key(key)) }
    }

    mutating func nestedContainer<NestedKey: CodingKey>(
        keyedBy keyType: NestedKey.Type, forKey key: Key
    ) -> KeyedEncodingContainer<NestedKey> {
        var serial = 0
        if begin(key) {
            state.setStep(.key(key), at: depth + 1)
            serial = state.openContainer(isObject: true, depth: depth + 1, owner: -1)
        }
        return state.keyedContainer(keyedBy: keyType, depth: depth + 1, serial: serial)
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        var serial = 0
        if begin(key) {
            state.setStep(.key(key), at: depth + 1)
            serial = state.openContainer(isObject: false, depth: depth + 1, owner: -1)
        }
        return UnkeyedByteContainer(state: state, depth: depth + 1, serial: serial)
    }

    mutating func superEncoder() -> any Encoder {
        state.detachedEncoder(codingPath: codingPath + [JSONCodingKey.super])
    }

    mutating func superEncoder(forKey key: Key) -> any Encoder {
        state.detachedEncoder(codingPath: codingPath + [key])
    }
}

/// An array being written at `depth`.
struct UnkeyedByteContainer: UnkeyedEncodingContainer {
    let state: ByteEncodingState
    let depth: Int
    let serial: Int

    var codingPath: [any CodingKey] { state.codingPath(depth: depth) }
    var count: Int { state.count(depth, serial) }

    /// Starts the next element if this array is still the place to write.
    @inline(__always)
    private func begin() -> Bool {
        guard state.activate(depth, serial) else { return false }
        state.beginElement(depth)
        return true
    }

    /// The step to the element just started.
    private var step: CodingPathStep { .index(state.frames[depth].count - 1) }

    mutating func encodeNil() throws { if begin() { state.appendNull() } }
    mutating func encode(_ value: Bool) throws { if begin() { state.append(value) } }
    mutating func encode(_ value: String) throws { if begin() { state.append(value) } }
    mutating func encode(_ value: Double) throws {
        if begin() { try state.append(value, depth: depth + 1, step: step) }
    }
    mutating func encode(_ value: Float) throws { if begin() { try state.append(value, depth: depth + 1, step: step) } }
    mutating func encode(_ value: Int) throws { if begin() { state.append(Int64(value)) } }
    mutating func encode(_ value: Int8) throws { if begin() { state.append(Int64(value)) } }
    mutating func encode(_ value: Int16) throws { if begin() { state.append(Int64(value)) } }
    mutating func encode(_ value: Int32) throws { if begin() { state.append(Int64(value)) } }
    mutating func encode(_ value: Int64) throws { if begin() { state.append(value) } }
    mutating func encode(_ value: UInt) throws { if begin() { state.append(UInt64(value)) } }
    mutating func encode(_ value: UInt8) throws { if begin() { state.append(UInt64(value)) } }
    mutating func encode(_ value: UInt16) throws { if begin() { state.append(UInt64(value)) } }
    mutating func encode(_ value: UInt32) throws { if begin() { state.append(UInt64(value)) } }
    mutating func encode(_ value: UInt64) throws { if begin() { state.append(value) } }

    mutating func encode<T: Encodable>(_ value: T) throws {
        if begin() { try state.encode(value, depth: depth + 1, step: step) }
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type)
        -> KeyedEncodingContainer<NestedKey>
    {
        var serial = 0
        if begin() {
            state.setStep(step, at: depth + 1)
            serial = state.openContainer(isObject: true, depth: depth + 1, owner: -1)
        }
        return state.keyedContainer(keyedBy: keyType, depth: depth + 1, serial: serial)
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
        var serial = 0
        if begin() {
            state.setStep(step, at: depth + 1)
            serial = state.openContainer(isObject: false, depth: depth + 1, owner: -1)
        }
        return UnkeyedByteContainer(state: state, depth: depth + 1, serial: serial)
    }

    mutating func superEncoder() -> any Encoder {
        state.detachedEncoder(codingPath: codingPath + [JSONCodingKey(count)])
    }
}

extension ByteEncodingState {
    /// An encoder for `superEncoder()`, whose value could be written at any later time: the byte encoder falls
    /// back, and the tree encoder encodes the value again. The returned encoder only collects what it is given.
    func detachedEncoder(codingPath: [any CodingKey]) -> any Encoder {
        fallBack()
        return JSONValueEncoder(context: context, codingPath: codingPath)
    }
}
