/// An unkeyed container over one JSON array on the tape; reads elements in order.
struct UnkeyedTapeContainer: UnkeyedDecodingContainer {
    let node: CodingPathNode
    @inline(__always) var state: DecodingState { node.state }
    let count: Int?
    private(set) var currentIndex = 0
    /// The tape index of the current element.
    private var cursor: Int

    init(array: Int, node: CodingPathNode) {
        self.node = node
        self.count = Int(truncatingIfNeeded: node.state.tape.entries[array].payload)
        self.cursor = array + 1
    }

    var codingPath: [any CodingKey] { state.codingPath(of: node) }
    var isAtEnd: Bool { currentIndex >= count! }

    private func checkNotAtEnd(_ type: Any.Type) throws {
        try state.checkActive(node)
        guard !isAtEnd else {
            throw DecodingError.valueNotFound(
                type,
                DecodingError.Context(
                    codingPath: node.path(appending: .index(currentIndex)),
                    debugDescription: "Unkeyed container is at end."))
        }
    }

    private mutating func advance() {
        cursor = state.tape.next(after: cursor)
        currentIndex += 1
    }

    mutating func decodeNil() throws -> Bool {
        try checkNotAtEnd(Never.self)
        guard state.isNull(cursor) else { return false }
        advance()
        return true
    }

    @inline(__always)
    private mutating func primitive<P: TapePrimitive>(_ type: P.Type) throws -> P {
        try checkNotAtEnd(type)
        let value = try P.read(state, at: cursor, node, .index(currentIndex))
        advance()
        return value
    }

    mutating func decode(_ type: Bool.Type) throws -> Bool { try primitive(type) }
    mutating func decode(_ type: String.Type) throws -> String { try primitive(type) }
    mutating func decode(_ type: Double.Type) throws -> Double { try primitive(type) }
    mutating func decode(_ type: Float.Type) throws -> Float { try primitive(type) }
    mutating func decode(_ type: Int.Type) throws -> Int { try primitive(type) }
    mutating func decode(_ type: Int8.Type) throws -> Int8 { try primitive(type) }
    mutating func decode(_ type: Int16.Type) throws -> Int16 { try primitive(type) }
    mutating func decode(_ type: Int32.Type) throws -> Int32 { try primitive(type) }
    mutating func decode(_ type: Int64.Type) throws -> Int64 { try primitive(type) }
    mutating func decode(_ type: UInt.Type) throws -> UInt { try primitive(type) }
    mutating func decode(_ type: UInt8.Type) throws -> UInt8 { try primitive(type) }
    mutating func decode(_ type: UInt16.Type) throws -> UInt16 { try primitive(type) }
    mutating func decode(_ type: UInt32.Type) throws -> UInt32 { try primitive(type) }
    mutating func decode(_ type: UInt64.Type) throws -> UInt64 { try primitive(type) }

    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T {
        try checkNotAtEnd(type)
        let value: T
        if state.isScalar(type) {
            value = try state.decodeValue(type, at: cursor, parent: node, segment: .index(currentIndex))
        } else {
            // One node serves every element in turn: an element's decoder lives only while it is decoded.
            let child = node.temporaryChild(.index(currentIndex))
            value = try state.decodeValue(
                type, at: cursor, parent: node, segment: .index(currentIndex), reusing: child)
        }
        advance()
        return value
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws
        -> KeyedDecodingContainer<NestedKey>
    {
        try checkNotAtEnd(KeyedDecodingContainer<NestedKey>.self)
        let container = try childDecoder().container(keyedBy: type)
        advance()
        return container
    }

    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
        try checkNotAtEnd((any UnkeyedDecodingContainer).self)
        let container = try childDecoder().unkeyedContainer()
        advance()
        return container
    }

    mutating func superDecoder() throws -> any Decoder {
        try checkNotAtEnd((any Decoder).self)
        let decoder = childDecoder()
        advance()
        return decoder
    }

    private func childDecoder() -> TapeDecoder {
        TapeDecoder(index: cursor, node: CodingPathNode(parent: node, segment: .index(currentIndex)))
    }
}
