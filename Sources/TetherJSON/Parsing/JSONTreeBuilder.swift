/// Builds a ``JSON`` value from a tape, without recursion: containers under construction are kept on a stack.
///
/// Counts are known from the tape, so every array and object is allocated once at its final size. Object keys
/// repeat across the elements of a page, so they are interned twice over: an object whose keys are those of a recent
/// object shares that object's key array (``ShapeCache``), and a key whose bytes match a recent key reuses that key's
/// `String` instead of allocating a new one (``KeyCache``).
enum JSONTreeBuilder {
    /// An open container: whether it is an object, its member or element count, and how many are still to come.
    private struct Open {
        var isObject: Bool
        var count: Int
        var remaining: Int
    }

    static func build(_ tape: Tape) -> JSON {
        build(tape, at: 0)
    }

    /// The value at `root`.
    static func build(_ tape: Tape, at root: Int) -> JSON {
        var open = GrowableBuffer<Open>(capacity: 32)
        var values = GrowableBuffer<JSON>(capacity: 64)
        // The tape indices of the open objects' keys: their `String`s are made (or found) when the object closes.
        var keys = GrowableBuffer<Int>(capacity: 64)
        var keyCache = KeyCache()
        var shapes = ShapeCache()
        // A small document rarely repeats an object's keys: setting the cache up would cost more than it saves.
        let usesShapes = tape.next(after: root) - root >= ShapeCache.minimumEntries
        defer {
            open.release()
            values.release()
            keys.release()
            keyCache.release()
            shapes.release()
        }
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
                    keys.append(i)
                    pendingKey = false
                    i += 1
                    continue
                }
                value = .string(tape.string(at: i))
            case .array, .object:
                let count = Int(truncatingIfNeeded: entry.payload)
                let isObject = entry.tag == .object
                if count > 0 {
                    open.append(Open(isObject: isObject, count: count, remaining: count))
                    pendingKey = isObject
                    i += 1
                    continue
                }
                value = isObject ? .object(JSON.Object()) : .array([])
            }
            i += 1
            // Hand the value to its parent, closing every container it completes.
            while true {
                guard open.count > 0 else { return value }
                values.append(value)
                let top = open.last
                top.pointee.remaining -= 1
                if top.pointee.remaining > 0 {
                    pendingKey = top.pointee.isObject
                    break
                }
                let (isObject, count) = (top.pointee.isObject, top.pointee.count)
                open.removeLast()
                let members = values.popArray(count)
                if isObject {
                    let indices = keys.dropLast(count)
                    let names =
                        usesShapes && count <= ShapeCache.maximumCount
                        ? shapes.keys(at: indices, in: tape, keyCache: &keyCache) : keyCache.keys(at: indices, in: tape)
                    value = .object(JSON.Object(keys: names, values: members))
                } else {
                    value = .array(members)
                }
            }
        }
    }
}
