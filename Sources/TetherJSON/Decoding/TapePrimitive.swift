/// The scalar types the containers read directly from the tape, without creating a decoder.
protocol TapePrimitive {
    static func read(
        _ state: DecodingState, at index: Int, _ parent: CodingPathNode, _ segment: CodingPathNode.Segment
    ) throws -> Self
}

extension Bool: TapePrimitive {
    @inline(__always)
    static func read(_ state: DecodingState, at index: Int, _ parent: CodingPathNode, _ segment: CodingPathNode.Segment)
        throws -> Bool
    { try state.bool(at: index, parent, segment) }
}

extension String: TapePrimitive {
    @inline(__always)
    static func read(_ state: DecodingState, at index: Int, _ parent: CodingPathNode, _ segment: CodingPathNode.Segment)
        throws -> String
    { try state.string(at: index, parent, segment) }
}

extension Double: TapePrimitive {
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
