/// Lays out a ``JSON`` value as a tape, so ``TetherJSONDecoder`` can decode it without writing and re-parsing
/// text. Strings are stored unescaped (their entries carry no escape flag, and the ASCII flag when they are ASCII);
/// numbers store their JSON text.
enum JSONTapeWriter {
    static func layOut(_ json: JSON) -> (bytes: [UInt8], entries: [Tape.Entry]) {
        var bytes: [UInt8] = []
        var entries: [Tape.Entry] = []
        append(json, to: &entries, bytes: &bytes)
        return (bytes, entries)
    }

    private static func append(_ json: JSON, to entries: inout [Tape.Entry], bytes: inout [UInt8]) {
        switch json {
        case .null: entries.append(Tape.Entry(tag: .null))
        case .bool(let b): entries.append(Tape.Entry(tag: b ? .true : .false))
        case .number(let number):
            let start = bytes.count
            let text = number.description
            bytes.append(contentsOf: text.utf8)
            switch number.storage {
            case .int(let v): entries.append(Tape.Entry(tag: .int, value: start, payload: UInt64(bitPattern: v)))
            case .uint(let v): entries.append(Tape.Entry(tag: .uint, value: start, payload: v))
            case .double(let d): entries.append(Tape.Entry(tag: .double, value: start, payload: d.bitPattern))
            case .text(let t):
                entries.append(Tape.Entry(tag: .bigNumber, value: start, payload: UInt64(t.utf8.count)))
            }
        case .string(let s):
            appendString(s, to: &entries, bytes: &bytes)
        case .array(let elements):
            let open = entries.count
            entries.append(Tape.Entry(tag: .array))
            for element in elements { append(element, to: &entries, bytes: &bytes) }
            entries[open] = Tape.Entry(tag: .array, value: entries.count, payload: UInt64(elements.count))
        case .object(let object):
            let open = entries.count
            entries.append(Tape.Entry(tag: .object))
            for (key, value) in zip(object.keys, object.values) {
                appendString(key, to: &entries, bytes: &bytes)
                append(value, to: &entries, bytes: &bytes)
            }
            entries[open] = Tape.Entry(tag: .object, value: entries.count, payload: UInt64(object.count))
        }
    }

    private static func appendString(_ s: String, to entries: inout [Tape.Entry], bytes: inout [UInt8]) {
        let start = bytes.count
        bytes.append(contentsOf: s.utf8)
        // Marked ASCII when it is, as the scanner does: a `String` made without the mark is not known to be in
        // normal form, so hashing and comparing it take the standard library's slow paths.
        let ascii = bytes[start...].allSatisfy { $0 < 0x80 }
        let flags = ascii ? Tape.asciiFlag : 0
        entries.append(Tape.Entry(tag: .string, value: start, payload: UInt64(bytes.count - start) | flags))
    }
}
