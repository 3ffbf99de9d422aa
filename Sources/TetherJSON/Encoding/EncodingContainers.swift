// The three containers of JSONValueEncoder. Each writes into a node box it shares with its parent, so values
// may be added in any order and nested containers may outlive the call that made them.

/// Encodes object members into an ``EncodedObject``.
struct KeyedNodeContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let encoder: JSONValueEncoder
    let object: EncodedObject
    let codingPath: [any CodingKey]

    private var context: EncodingContext { encoder.context }

    private func objectKey(_ key: Key) -> String {
        context.objectKey(for: key, codingPath: codingPath + [key])
    }

    private func set(_ json: JSON, for key: Key) {
        object.set(.value(json), for: objectKey(key))
    }

    mutating func encodeNil(forKey key: Key) throws { set(.null, for: key) }
    mutating func encode(_ value: Bool, forKey key: Key) throws { set(.bool(value), for: key) }
    mutating func encode(_ value: String, forKey key: Key) throws { set(.string(value), for: key) }
    mutating func encode(_ value: Double, forKey key: Key) throws {
        set(try context.box(value, at: .key(key), in: codingPath), for: key)
    }
    mutating func encode(_ value: Float, forKey key: Key) throws {
        set(try context.box(value, at: .key(key), in: codingPath), for: key)
    }
    mutating func encode(_ value: Int, forKey key: Key) throws { set(.number(JSON.Number(value)), for: key) }
    mutating func encode(_ value: Int8, forKey key: Key) throws { set(.number(JSON.Number(Int64(value))), for: key) }
    mutating func encode(_ value: Int16, forKey key: Key) throws { set(.number(JSON.Number(Int64(value))), for: key) }
    mutating func encode(_ value: Int32, forKey key: Key) throws { set(.number(JSON.Number(Int64(value))), for: key) }
    mutating func encode(_ value: Int64, forKey key: Key) throws { set(.number(JSON.Number(value)), for: key) }
    mutating func encode(_ value: UInt, forKey key: Key) throws { set(.number(JSON.Number(UInt64(value))), for: key) }
    mutating func encode(_ value: UInt8, forKey key: Key) throws { set(.number(JSON.Number(UInt64(value))), for: key) }
    mutating func encode(_ value: UInt16, forKey key: Key) throws {
        set(.number(JSON.Number(UInt64(value))), for: key)
    }
    mutating func encode(_ value: UInt32, forKey key: Key) throws {
        set(.number(JSON.Number(UInt64(value))), for: key)
    }
    mutating func encode(_ value: UInt64, forKey key: Key) throws { set(.number(JSON.Number(value)), for: key) }

    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
        object.set(try context.box(value, at: .key(key), in: codingPath), for: objectKey(key))
    }

    mutating func nestedContainer<NestedKey: CodingKey>(
        keyedBy keyType: NestedKey.Type, forKey key: Key
    ) -> KeyedEncodingContainer<NestedKey> {
        let name = objectKey(key)
        let nested: EncodedObject
        if case .object(let existing) = object.value(for: name) {
            nested = existing
        } else {
            nested = EncodedObject()
            object.set(.object(nested), for: name)
        }
        return KeyedEncodingContainer(
            KeyedNodeContainer<NestedKey>(encoder: encoder, object: nested, codingPath: codingPath + [key]))
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        let name = objectKey(key)
        let nested: EncodedArray
        if case .array(let existing) = object.value(for: name) {
            nested = existing
        } else {
            nested = EncodedArray()
            object.set(.array(nested), for: name)
        }
        return UnkeyedNodeContainer(encoder: encoder, array: nested, codingPath: codingPath + [key])
    }

    mutating func superEncoder() -> any Encoder {
        let nested = JSONValueEncoder(context: context, codingPath: codingPath + [JSONCodingKey.super])
        object.set(.encoder(nested), for: context.objectKey(for: JSONCodingKey.super, codingPath: codingPath))
        return nested
    }

    mutating func superEncoder(forKey key: Key) -> any Encoder {
        let nested = JSONValueEncoder(context: context, codingPath: codingPath + [key])
        object.set(.encoder(nested), for: objectKey(key))
        return nested
    }
}

/// Encodes array elements into an ``EncodedArray``.
struct UnkeyedNodeContainer: UnkeyedEncodingContainer {
    let encoder: JSONValueEncoder
    let array: EncodedArray
    let codingPath: [any CodingKey]

    var count: Int { array.elements.count }

    private var context: EncodingContext { encoder.context }

    private func append(_ json: JSON) { array.elements.append(.value(json)) }

    mutating func encodeNil() throws { append(.null) }
    mutating func encode(_ value: Bool) throws { append(.bool(value)) }
    mutating func encode(_ value: String) throws { append(.string(value)) }
    mutating func encode(_ value: Double) throws { append(try context.box(value, at: .index(count), in: codingPath)) }
    mutating func encode(_ value: Float) throws { append(try context.box(value, at: .index(count), in: codingPath)) }
    mutating func encode(_ value: Int) throws { append(.number(JSON.Number(value))) }
    mutating func encode(_ value: Int8) throws { append(.number(JSON.Number(Int64(value)))) }
    mutating func encode(_ value: Int16) throws { append(.number(JSON.Number(Int64(value)))) }
    mutating func encode(_ value: Int32) throws { append(.number(JSON.Number(Int64(value)))) }
    mutating func encode(_ value: Int64) throws { append(.number(JSON.Number(value))) }
    mutating func encode(_ value: UInt) throws { append(.number(JSON.Number(UInt64(value)))) }
    mutating func encode(_ value: UInt8) throws { append(.number(JSON.Number(UInt64(value)))) }
    mutating func encode(_ value: UInt16) throws { append(.number(JSON.Number(UInt64(value)))) }
    mutating func encode(_ value: UInt32) throws { append(.number(JSON.Number(UInt64(value)))) }
    mutating func encode(_ value: UInt64) throws { append(.number(JSON.Number(value))) }

    mutating func encode<T: Encodable>(_ value: T) throws {
        array.elements.append(try context.box(value, at: .index(count), in: codingPath))
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type)
        -> KeyedEncodingContainer<NestedKey>
    {
        let path = codingPath + [JSONCodingKey(count)]
        let nested = EncodedObject()
        array.elements.append(.object(nested))
        return KeyedEncodingContainer(KeyedNodeContainer<NestedKey>(encoder: encoder, object: nested, codingPath: path))
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
        let path = codingPath + [JSONCodingKey(count)]
        let nested = EncodedArray()
        array.elements.append(.array(nested))
        return UnkeyedNodeContainer(encoder: encoder, array: nested, codingPath: path)
    }

    mutating func superEncoder() -> any Encoder {
        let nested = JSONValueEncoder(context: context, codingPath: codingPath + [JSONCodingKey(count)])
        array.elements.append(.encoder(nested))
        return nested
    }
}

/// Encodes one value as the encoder's whole node.
struct SingleValueNodeContainer: SingleValueEncodingContainer {
    let encoder: JSONValueEncoder

    var codingPath: [any CodingKey] { encoder.codingPath }

    private var context: EncodingContext { encoder.context }

    private func set(_ json: JSON) { encoder.node = .value(json) }

    mutating func encodeNil() throws { set(.null) }
    mutating func encode(_ value: Bool) throws { set(.bool(value)) }
    mutating func encode(_ value: String) throws { set(.string(value)) }
    mutating func encode(_ value: Double) throws { set(try context.box(value, at: .none, in: codingPath)) }
    mutating func encode(_ value: Float) throws { set(try context.box(value, at: .none, in: codingPath)) }
    mutating func encode(_ value: Int) throws { set(.number(JSON.Number(value))) }
    mutating func encode(_ value: Int8) throws { set(.number(JSON.Number(Int64(value)))) }
    mutating func encode(_ value: Int16) throws { set(.number(JSON.Number(Int64(value)))) }
    mutating func encode(_ value: Int32) throws { set(.number(JSON.Number(Int64(value)))) }
    mutating func encode(_ value: Int64) throws { set(.number(JSON.Number(value))) }
    mutating func encode(_ value: UInt) throws { set(.number(JSON.Number(UInt64(value)))) }
    mutating func encode(_ value: UInt8) throws { set(.number(JSON.Number(UInt64(value)))) }
    mutating func encode(_ value: UInt16) throws { set(.number(JSON.Number(UInt64(value)))) }
    mutating func encode(_ value: UInt32) throws { set(.number(JSON.Number(UInt64(value)))) }
    mutating func encode(_ value: UInt64) throws { set(.number(JSON.Number(value))) }

    mutating func encode<T: Encodable>(_ value: T) throws {
        encoder.node = try context.box(value, at: .none, in: codingPath)
    }
}
