/// A value under construction by ``JSONValueEncoder``.
///
/// Containers are reference boxes because `Encodable` hands out containers that keep being filled after they
/// are inserted into their parent; a nested encoder (`superEncoder()`) is referenced and read only at the end,
/// when ``json`` turns the finished tree into a ``JSON`` value.
enum EncodedNode {
    case value(JSON)
    case array(EncodedArray)
    case object(EncodedObject)
    /// Whatever the encoder ends up holding; an encoder that was given nothing is `{}`.
    case encoder(JSONValueEncoder)

    /// The finished value.
    var json: JSON {
        switch self {
        case .value(let json): json
        case .array(let array): .array(array.elements.map(\.json))
        case .object(let object): .object(object.finished())
        case .encoder(let encoder): encoder.node?.json ?? .object(JSON.Object())
        }
    }
}

/// An array under construction.
final class EncodedArray {
    var elements: [EncodedNode] = []
}

/// An object under construction: members in the order they were encoded.
final class EncodedObject {
    private var keys: [String] = []
    private var values: [EncodedNode] = []

    /// Adds a member. Encoding a key again replaces its value but keeps its first position, as in a
    /// dictionary.
    func set(_ value: EncodedNode, for key: String) {
        keys.append(key)
        values.append(value)
    }

    /// The value last set for `key`, if any.
    func value(for key: String) -> EncodedNode? {
        keys.lastIndex(of: key).map { values[$0] }
    }

    /// The finished members; a repeated key keeps its last value at its first position.
    func finished() -> JSON.Object {
        let finishedValues = values.map(\.json)
        guard hasRepeatedKeys else { return JSON.Object(keys: keys, values: finishedValues) }
        return JSON.Object(zip(keys, finishedValues))
    }

    private var hasRepeatedKeys: Bool {
        if keys.count > 12 { return Set(keys).count != keys.count }
        for i in keys.indices.dropFirst() where keys[..<i].contains(keys[i]) { return true }
        return false
    }
}
