/// Arrays decoded straight off the tape.
///
/// The standard library's `Array.init(from:)` goes through an unkeyed container and appends element by
/// element without reserving capacity, in code that is not specialized for the element type, so every growth
/// copies the elements through value witnesses. The tape knows the element count up front: this path
/// allocates the array once and decodes each element in place of the container calls, with the same
/// results and errors (including coding paths) as the standard path.
protocol TapeDecodableArray {
    static func decode(
        from state: DecodingState, at index: Int, parent: CodingPathNode, segment: CodingPathNode.Segment,
        reusing: CodingPathNode?
    ) throws -> Self
}

extension TapeDecodableArray {
    /// ``decode(from:at:parent:segment:reusing:)`` for a caller that knows the type only as `R`, which must be
    /// `Self`: the result is handed back as it is, with no runtime cast.
    @inline(__always)
    static func decode<R>(
        as type: R.Type, from state: DecodingState, at index: Int, parent: CodingPathNode,
        segment: CodingPathNode.Segment, reusing: CodingPathNode?
    ) throws -> R {
        precondition(R.self == Self.self)
        return unsafeBitCast(
            try decode(from: state, at: index, parent: parent, segment: segment, reusing: reusing), to: R.self)
    }
}

extension Array: TapeDecodableArray where Element: Decodable {
    static func decode(
        from state: DecodingState, at index: Int, parent: CodingPathNode, segment: CodingPathNode.Segment,
        reusing: CodingPathNode?
    ) throws -> [Element] {
        let entry = state.tape.entries[index]
        guard entry.tag == .array else { throw state.mismatch([Element].self, at: index, parent, segment) }
        let count = Int(truncatingIfNeeded: entry.payload)
        // The shared empty array: no storage, and none of the runtime's look-ups of the element type's metadata
        // that making storage for an unspecialized element type costs (real-world documents are full of `[]`).
        if count == 0 { return [] }
        var elements: [Element] = []
        elements.reserveCapacity(count)
        let node = reusing ?? CodingPathNode(parent: parent, segment: segment)
        let scalar = state.isScalar(Element.self)
        var cursor = index + 1
        for position in 0..<count {
            // Each element goes into the array as it comes out of its decode, moved rather than copied: a copy
            // through the generic value witnesses retains every reference the element holds, then releases them.
            if scalar {
                elements.append(
                    try state.decodeValue(Element.self, at: cursor, parent: node, segment: .index(position)))
            } else {
                elements.append(
                    try state.decodeValue(
                        Element.self, at: cursor, parent: node, segment: .index(position),
                        reusing: node.temporaryChild(.index(position))))
            }
            cursor = state.tape.next(after: cursor)
        }
        return elements
    }
}
