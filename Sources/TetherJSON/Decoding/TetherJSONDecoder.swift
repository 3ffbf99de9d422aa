public struct TetherJSONDecoder: Sendable {
    public init() {}
    public func decode<T: Decodable>(_ type: T.Type, from json: JSON) throws -> T { fatalError() }
}
