@testable import TetherJSON

/// `JSONWriter` as it was before issue 38: an array of frames over `[UInt8]`. Kept as the reference that the
/// faster writer's output is compared with, byte for byte, under every option.
struct ReferenceJSONWriter {
    var options: JSONWriter.Options
    var indentWidth = 2

    private struct Frame {
        var values: [JSON]
        var keys: [String]?
        var order: [Int]?
        var next: Int

        var current: Int { order?[next - 1] ?? next - 1 }
    }

    /// The text of `json`, or `nil` where the writer throws (a non-finite number).
    func bytes(_ json: JSON) -> [UInt8]? {
        var bytes: [UInt8] = []
        return write(json, into: &bytes) ? bytes : nil
    }

    private func write(_ json: JSON, into bytes: inout [UInt8]) -> Bool {
        let pretty = options.contains(.prettyPrinted)
        let sorted = options.contains(.sortedKeys)
        let escapesSlashes = !options.contains(.withoutEscapingSlashes)
        let indent = max(0, indentWidth)
        var stack: [Frame] = []
        var value = json

        func newline(depth: Int, into bytes: inout [UInt8]) {
            guard pretty else { return }
            bytes.append(UInt8(ascii: "\n"))
            bytes.append(contentsOf: repeatElement(UInt8(ascii: " "), count: depth * indent))
        }

        func member(_ key: String, into bytes: inout [UInt8]) {
            JSONWriter.appendString(key, escapingSlashes: escapesSlashes, to: &bytes)
            bytes.append(UInt8(ascii: ":"))
            if pretty { bytes.append(UInt8(ascii: " ")) }
        }

        while true {
            switch value {
            case .null:
                bytes.append(contentsOf: Array("null".utf8))
            case .bool(let b):
                bytes.append(contentsOf: Array((b ? "true" : "false").utf8))
            case .number(let number):
                switch number.storage {
                case .int(let v): ReferenceNumberFormatter.append(v, to: &bytes)
                case .uint(let v): ReferenceNumberFormatter.append(v, to: &bytes)
                case .double(let d):
                    guard d.isFinite else { return false }
                    ReferenceNumberFormatter.append(d, to: &bytes)
                case .text(let text): bytes.append(contentsOf: text.utf8)
                }
            case .string(let string):
                JSONWriter.appendString(string, escapingSlashes: escapesSlashes, to: &bytes)
            case .array(let array):
                guard let first = array.first else {
                    bytes.append(contentsOf: Array("[]".utf8))
                    break
                }
                bytes.append(UInt8(ascii: "["))
                stack.append(Frame(values: array, keys: nil, order: nil, next: 1))
                newline(depth: stack.count, into: &bytes)
                value = first
                continue
            case .object(let object):
                guard !object.isEmpty else {
                    bytes.append(contentsOf: Array("{}".utf8))
                    break
                }
                let order = sorted ? Self.sortedOrder(of: object.keys) : nil
                let first = order?[0] ?? 0
                bytes.append(UInt8(ascii: "{"))
                stack.append(Frame(values: object.values, keys: object.keys, order: order, next: 1))
                newline(depth: stack.count, into: &bytes)
                member(object.keys[first], into: &bytes)
                value = object.values[first]
                continue
            }

            while true {
                let last = stack.count - 1
                guard last >= 0 else { return true }
                if stack[last].next < stack[last].values.count {
                    stack[last].next += 1
                    let position = stack[last].current
                    bytes.append(UInt8(ascii: ","))
                    newline(depth: stack.count, into: &bytes)
                    if let keys = stack[last].keys { member(keys[position], into: &bytes) }
                    value = stack[last].values[position]
                    break
                }
                let isObject = stack.removeLast().keys != nil
                newline(depth: stack.count, into: &bytes)
                bytes.append(isObject ? UInt8(ascii: "}") : UInt8(ascii: "]"))
            }
        }
    }

    private static func sortedOrder(of keys: [String]) -> [Int] {
        Array(keys.indices).sorted { a, b in
            if keys[a].utf8.lexicographicallyPrecedes(keys[b].utf8) { return true }
            if keys[b].utf8.lexicographicallyPrecedes(keys[a].utf8) { return false }
            return a < b
        }
    }
}
