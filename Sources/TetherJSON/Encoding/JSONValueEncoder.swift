import Foundation

/// Where a value sits relative to the encoder boxing it: at the encoder itself, under a key, or at an index.
///
/// Coding keys for array indices are made only when a path is needed (a nested encoder or an error).
enum CodingPathStep {
    case none
    case key(any CodingKey)
    case index(Int)

    func appended(to path: [any CodingKey]) -> [any CodingKey] {
        switch self {
        case .none: path
        case .key(let key): path + [key]
        case .index(let index): path + [JSONCodingKey(index)]
        }
    }
}

/// The `Encoder` behind ``TetherJSONEncoder``: it encodes one value into an ``EncodedNode``.
///
/// One is made for the top-level value and one for each nested value that is not boxed directly by
/// ``EncodingContext`` (structs, classes, arrays, dictionaries, and dates or data under a deferring or custom
/// strategy).
final class JSONValueEncoder: Encoder {
    let context: EncodingContext
    let codingPath: [any CodingKey]
    /// What has been encoded so far, if anything.
    var node: EncodedNode?

    var userInfo: [CodingUserInfoKey: Any] { context.userInfo }

    init(context: EncodingContext, codingPath: [any CodingKey]) {
        self.context = context
        self.codingPath = codingPath
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        let object: EncodedObject
        if case .object(let existing) = node {
            object = existing
        } else {
            object = EncodedObject()
            node = .object(object)
        }
        return KeyedEncodingContainer(KeyedNodeContainer<Key>(encoder: self, object: object, codingPath: codingPath))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        let array: EncodedArray
        if case .array(let existing) = node {
            array = existing
        } else {
            array = EncodedArray()
            node = .array(array)
        }
        return UnkeyedNodeContainer(encoder: self, array: array, codingPath: codingPath)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer {
        SingleValueNodeContainer(encoder: self)
    }
}
