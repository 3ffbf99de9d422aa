/// Builds a ``JSON`` value from a tape, without recursion: containers under construction are kept on a stack.
///
/// Counts are known from the tape, so every array and object is allocated once at its final size.
enum JSONTreeBuilder {
    private struct Partial {
        var isObject: Bool
        var remaining: Int
        var keys: [String]
        var values: [JSON]
    }

    static func build(_ tape: Tape) -> JSON {
        build(tape, at: 0)
    }

    static func build(_ tape: Tape, at root: Int) -> JSON {
        var stack: [Partial] = []
        var i = root
        var pendingKey = false
        while true {
            var value: JSON
            let entry = tape.entries[i]
            switch entry.tag {
            case .null: value = .null
            case .true: value = .bool(true)
            case .false: value = .bool(false)
            case .int, .uint, .double, .bigNumber: value = .number(tape.number(at: i))
            case .string:
                if pendingKey {
                    stack[stack.count - 1].keys.append(tape.string(at: i))
                    pendingKey = false
                    i += 1
                    continue
                }
                value = .string(tape.string(at: i))
            case .array, .object:
                let count = Int(truncatingIfNeeded: entry.payload)
                let isObject = entry.tag == .object
                if count > 0 {
                    var values: [JSON] = []
                    values.reserveCapacity(count)
                    var keys: [String] = []
                    if isObject { keys.reserveCapacity(count) }
                    stack.append(Partial(isObject: isObject, remaining: count, keys: keys, values: values))
                    pendingKey = isObject
                    i += 1
                    continue
                }
                value = isObject ? .object(JSON.Object()) : .array([])
            }
            i += 1
            // Hand the value to its parent, closing every container it completes.
            while true {
                guard !stack.isEmpty else { return value }
                stack[stack.count - 1].values.append(value)
                stack[stack.count - 1].remaining -= 1
                if stack[stack.count - 1].remaining > 0 {
                    pendingKey = stack[stack.count - 1].isObject
                    break
                }
                let done = stack.removeLast()
                value = done.isObject ? .object(JSON.Object(keys: done.keys, values: done.values)) : .array(done.values)
            }
        }
    }
}
