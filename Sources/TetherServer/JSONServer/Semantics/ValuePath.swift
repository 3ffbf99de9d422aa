import TetherJSON

/// A property path as lodash's `_.get` and `_.has` read it: `author.name`, `tags.0`, `tags[0].label`.
///
/// A key that exists literally (a member named `"a.b"`) wins over the path reading, as in lodash.
struct ValuePath: Sendable, Hashable {
    /// The path as written.
    let text: String
    /// The segments after splitting on `.` and brackets.
    let segments: [String]

    init(_ text: String) {
        self.text = text
        var segments: [String] = []
        var current = ""
        for character in text {
            switch character {
            case ".", "[", "]":
                if !current.isEmpty { segments.append(current) }
                current = ""
            default:
                current.append(character)
            }
        }
        if !current.isEmpty { segments.append(current) }
        self.segments = segments
    }

    /// `_.get(value, path)`: the value at the path, or `nil` (`undefined`).
    func value(in root: JSON) -> JSON? {
        if case .object(let object) = root, let literal = object[text] { return literal }
        var current = root
        for segment in segments {
            switch current {
            case .object(let object):
                guard let next = object[segment] else { return nil }
                current = next
            case .array(let array):
                guard let index = Int(segment), array.indices.contains(index) else { return nil }
                current = array[index]
            default:
                return nil
            }
        }
        return segments.isEmpty ? nil : current
    }

    /// `_.has(value, path)`: whether the path leads to a member (even one holding `null`).
    func exists(in root: JSON) -> Bool { value(in: root) != nil }
}
