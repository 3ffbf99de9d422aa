import Foundation

/// `JSON` is `Codable` with any encoder or decoder, so it can stand for a part of a model whose shape is not
/// fixed (`let extra: JSON`).
///
/// ``TetherJSONEncoder`` and ``TetherJSONDecoder`` treat `JSON` specially and copy it exactly. Through other
/// coders (Foundation's `JSONEncoder` and `JSONDecoder`, property lists) it goes through the generic
/// containers, which lose a little:
/// - Decoding tries, in order, `nil`, `Bool`, `Int64`, `UInt64`, `Double` and `String` from a single-value
///   container, then a keyed container, then an unkeyed one. So a whole `3.0` may come back as the integer `3`,
///   and an integer beyond 64 bits as the nearest `Double`. Object members come in the decoder's `allKeys`
///   order, which Foundation's `JSONDecoder` does not promise to be the text's.
/// - Encoding writes integers as `Int64` or `UInt64`, doubles as `Double`, and an integer beyond 64 bits as a
///   `Decimal` when it has at most 38 digits (Foundation's `JSONEncoder` then writes it exactly), else as the
///   nearest `Double`. Objects are written member by member, in order; a repeated key keeps only one value.
extension JSON: Codable {
    public init(from decoder: any Decoder) throws {
        if let container = try? decoder.singleValueContainer() {
            if container.decodeNil() {
                self = .null
                return
            }
            if let value = try? container.decode(Bool.self) {
                self = .bool(value)
                return
            }
            if let value = try? container.decode(Int64.self) {
                self = .number(Number(value))
                return
            }
            if let value = try? container.decode(UInt64.self) {
                self = .number(Number(value))
                return
            }
            if let value = try? container.decode(Double.self) {
                self = .number(Number(value))
                return
            }
            if let value = try? container.decode(String.self) {
                self = .string(value)
                return
            }
        }
        if let container = try? decoder.container(keyedBy: JSONCodingKey.self) {
            var object = Object()
            for key in container.allKeys {
                object[key.stringValue] = try container.decode(JSON.self, forKey: key)
            }
            self = .object(object)
            return
        }
        if var container = try? decoder.unkeyedContainer() {
            var array: [JSON] = []
            if let count = container.count { array.reserveCapacity(count) }
            while !container.isAtEnd {
                array.append(try container.decode(JSON.self))
            }
            self = .array(array)
            return
        }
        throw DecodingError.dataCorrupted(
            DecodingError.Context(codingPath: decoder.codingPath, debugDescription: "The value is not JSON."))
    }

    public func encode(to encoder: any Encoder) throws {
        switch self {
        case .null:
            var container = encoder.singleValueContainer()
            try container.encodeNil()
        case .bool(let value):
            var container = encoder.singleValueContainer()
            try container.encode(value)
        case .number(let number):
            var container = encoder.singleValueContainer()
            switch number.storage {
            case .int(let value): try container.encode(value)
            case .uint(let value): try container.encode(value)
            case .double(let value): try container.encode(value)
            case .text(let text):
                if let decimal = Decimal(string: text), decimal.description == text {
                    try container.encode(decimal)
                } else {
                    try container.encode(number.double)
                }
            }
        case .string(let value):
            var container = encoder.singleValueContainer()
            try container.encode(value)
        case .array(let array):
            var container = encoder.unkeyedContainer()
            for element in array { try container.encode(element) }
        case .object(let object):
            var container = encoder.container(keyedBy: JSONCodingKey.self)
            for (key, value) in object { try container.encode(value, forKey: JSONCodingKey(stringValue: key)) }
        }
    }
}
