/// Turns a byte offset into a line, a column and an excerpt, for error messages. Runs only on the error path.
enum JSONErrorLocator {
    static let excerptRadius = 30

    static func locate(_ offset: Int, in bytes: UnsafeBufferPointer<UInt8>) -> JSONError.Location {
        let offset = min(offset, bytes.count)
        var line = 1
        var lineStart = 0
        for i in 0..<offset where bytes[i] == 0x0A {
            line += 1
            lineStart = i + 1
        }
        // Columns count Unicode scalars: every byte that is not a UTF-8 continuation byte.
        var column = 1
        for i in lineStart..<offset where bytes[i] & 0xC0 != 0x80 { column += 1 }

        var lineEnd = offset
        while lineEnd < bytes.count, bytes[lineEnd] != 0x0A, bytes[lineEnd] != 0x0D { lineEnd += 1 }
        // Take up to `excerptRadius` scalars on each side, cut on character boundaries.
        var from = offset
        var scalarsBefore = 0
        while from > lineStart, scalarsBefore < excerptRadius {
            from -= 1
            while from > lineStart, bytes[from] & 0xC0 == 0x80 { from -= 1 }
            scalarsBefore += 1
        }
        var to = offset
        var scalarsAfter = 0
        while to < lineEnd, scalarsAfter < excerptRadius {
            to += 1
            while to < lineEnd, bytes[to] & 0xC0 == 0x80 { to += 1 }
            scalarsAfter += 1
        }
        var excerpt = ""
        if from < to {
            let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[from..<to]), as: UTF8.self)
            excerpt = String(
                String.UnicodeScalarView(text.unicodeScalars.map { $0.value < 0x20 || $0.value == 0x7F ? "·" : $0 }))
        }
        return JSONError.Location(
            offset: offset, line: line, column: column, excerpt: excerpt, excerptColumn: scalarsBefore)
    }

    /// Names the character at `offset` for a message: `'x'`, `a tab`, `byte 0xFF`.
    static func describeCharacter(at offset: Int, in bytes: UnsafeBufferPointer<UInt8>) -> String {
        guard offset < bytes.count else { return "the end of the input" }
        let c = bytes[offset]
        switch c {
        case 0x09: return "a tab"
        case 0x0A: return "a line feed"
        case 0x0D: return "a carriage return"
        case 0x20: return "a space"
        case 0x27: return "a single quote (JSON strings take double quotes)"
        case 0x00..<0x20, 0x7F: return "the control character U+\(hex4(UInt16(c)))"
        case 0x20..<0x80: return "'\(Character(Unicode.Scalar(c)))'"
        default:
            // A whole UTF-8 character if one starts here, else the byte.
            var length = 0
            if c >= 0xC2, c <= 0xDF {
                length = 2
            } else if c >= 0xE0, c <= 0xEF {
                length = 3
            } else if c >= 0xF0, c <= 0xF4 {
                length = 4
            }
            if length > 0, offset + length <= bytes.count {
                let slice = UnsafeBufferPointer(rebasing: bytes[offset..<offset + length])
                if let scalar = String(validating: slice, as: UTF8.self) { return "'\(scalar)'" }
            }
            return "byte 0x\(hex2(c))"
        }
    }
}
