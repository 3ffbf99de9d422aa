/// The `Decoder` handed to `init(from:)`: a position on the tape and the coding path to it.
///
/// Two words, so passing it as `any Decoder` needs no allocation. It is also its own single-value container.
/// The state is the node's.
struct TapeDecoder: Decoder, SingleValueDecodingContainer {
    let node: CodingPathNode
    let index: Int
    @inline(__always) var state: DecodingState { node.state }

    init(index: Int, node: CodingPathNode) {
        self.node = node
        self.index = index
    }

    var codingPath: [any CodingKey] { state.codingPath(of: node) }
    var userInfo: [CodingUserInfoKey: Any] { state.userInfo }

    func decodeValue<T: Decodable>(_ type: T.Type) throws -> T {
        try state.checkActive(node)
        return try state.decodeValue(type, at: index, parent: node, segment: .none)
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        try state.checkActive(node)
        guard state.tape.entries[index].tag == .object else {
            throw state.mismatch([String: Any].self, at: index, node, .none)
        }
        return state.keyedContainer(keyedBy: type, object: index, node: node)
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        try state.checkActive(node)
        guard state.tape.entries[index].tag == .array else {
            throw state.mismatch([Any].self, at: index, node, .none)
        }
        return UnkeyedTapeContainer(array: index, node: node)
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer {
        try state.checkActive(node)
        return self
    }

    // MARK: - SingleValueDecodingContainer

    func decodeNil() -> Bool { state.isActive && state.isNull(index) }
    func decode(_ type: Bool.Type) throws -> Bool { try read(type) }
    func decode(_ type: String.Type) throws -> String { try read(type) }
    func decode(_ type: Double.Type) throws -> Double { try read(type) }
    func decode(_ type: Float.Type) throws -> Float { try read(type) }
    func decode(_ type: Int.Type) throws -> Int { try read(type) }
    func decode(_ type: Int8.Type) throws -> Int8 { try read(type) }
    func decode(_ type: Int16.Type) throws -> Int16 { try read(type) }
    func decode(_ type: Int32.Type) throws -> Int32 { try read(type) }
    func decode(_ type: Int64.Type) throws -> Int64 { try read(type) }
    func decode(_ type: UInt.Type) throws -> UInt { try read(type) }
    func decode(_ type: UInt8.Type) throws -> UInt8 { try read(type) }
    func decode(_ type: UInt16.Type) throws -> UInt16 { try read(type) }
    func decode(_ type: UInt32.Type) throws -> UInt32 { try read(type) }
    func decode(_ type: UInt64.Type) throws -> UInt64 { try read(type) }

    @inline(__always)
    private func read<P: TapePrimitive>(_ type: P.Type) throws -> P {
        try state.checkActive(node)
        return try P.read(state, at: index, node, .none)
    }

    func decode<T: Decodable>(_ type: T.Type) throws -> T { try decodeValue(type) }
}
