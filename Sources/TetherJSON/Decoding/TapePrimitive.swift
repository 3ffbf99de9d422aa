/// The scalar types the containers read directly from the tape, without creating a decoder.
protocol TapePrimitive {
    static func read(
        _ state: DecodingState, at index: Int, _ parent: CodingPathNode, _ segment: CodingPathNode.Segment
    ) throws -> Self

    /// The value when the entry holds one as it is (no conversion, no error to describe), else `nil`: the common
    /// case, read without building the coding-path segment an error would need.
    static func readPlain(_ state: DecodingState, at index: Int) throws -> Self?
}

extension TapePrimitive {
    @inline(__always)
    static func readPlain(_ state: DecodingState, at index: Int) throws -> Self? { nil }
}

extension Bool: TapePrimitive {
    @inline(__always)
    static func readPlain(_ state: DecodingState, at index: Int) throws -> Bool? {
        switch state.tape.entries[index].tag {
        case .true: true
        case .false: false
        default: nil
        }
    }

    @inline(__always)
    static func read(_ state: DecodingState, at index: Int, _ parent: CodingPathNode, _ segment: CodingPathNode.Segment)
        throws -> Bool
    { try state.bool(at: index, parent, segment) }
}

extension String: TapePrimitive {
    @inline(__always)
    static func readPlain(_ state: DecodingState, at index: Int) throws -> String? {
        try state.stringIfString(at: index)
    }

    @inline(__always)
    static func read(_ state: DecodingState, at index: Int, _ parent: CodingPathNode, _ segment: CodingPathNode.Segment)
        throws -> String
    { try state.string(at: index, parent, segment) }
}

extension Double: TapePrimitive {
    @inline(__always)
    static func readPlain(_ state: DecodingState, at index: Int) throws -> Double? {
        let entry = state.tape.entries[index]
        switch entry.tag {
        case .double:
            // Not finite: out of range, which the full read reports.
            let value = Double(bitPattern: entry.payload)
            return value.isFinite ? value : nil
        case .int: return Double(Int64(bitPattern: entry.payload))
        default: return nil
        }
    }

    @inline(__always)
    static func read(_ state: DecodingState, at index: Int, _ parent: CodingPathNode, _ segment: CodingPathNode.Segment)
        throws -> Double
    { try state.double(at: index, parent, segment) }
}

extension Float: TapePrimitive {
    @inline(__always)
    static func read(_ state: DecodingState, at index: Int, _ parent: CodingPathNode, _ segment: CodingPathNode.Segment)
        throws -> Float
    { try state.float(at: index, parent, segment) }
}

/// Every fixed-width integer reads through one generic conversion.
protocol TapeInteger: TapePrimitive, FixedWidthInteger {}

extension TapeInteger {
    @inline(__always)
    static func readPlain(_ state: DecodingState, at index: Int) throws -> Self? {
        let entry = state.tape.entries[index]
        return entry.tag == .int ? Self(exactly: Int64(bitPattern: entry.payload)) : nil
    }

    @inline(__always)
    static func read(_ state: DecodingState, at index: Int, _ parent: CodingPathNode, _ segment: CodingPathNode.Segment)
        throws -> Self
    { try state.integer(Self.self, at: index, parent, segment) }
}

extension Int: TapeInteger {}
extension Int8: TapeInteger {}
extension Int16: TapeInteger {}
extension Int32: TapeInteger {}
extension Int64: TapeInteger {}
extension UInt: TapeInteger {}
extension UInt8: TapeInteger {}
extension UInt16: TapeInteger {}
extension UInt32: TapeInteger {}
extension UInt64: TapeInteger {}
