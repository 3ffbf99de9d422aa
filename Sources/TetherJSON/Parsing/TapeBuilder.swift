/// The scanner: validates a JSON text and records it as a ``Tape`` in one pass, with no recursion.
///
/// Strict RFC 8259: one value, surrounded only by whitespace (space, tab, line feed, carriage return);
/// no comments, no trailing commas, no leading zeros, no single quotes; control characters must be escaped
/// inside strings; the input must be valid UTF-8. Open containers are kept on an explicit stack, so the
/// depth limit is the only bound on nesting and deep input can never overflow the call stack.
struct TapeBuilder {
    private let base: UnsafePointer<UInt8>
    private let end: Int
    private var p: Int
    private var entries: GrowableBuffer<Tape.Entry>
    /// Open containers, innermost last.
    private var stack: GrowableBuffer<OpenContainer>
    private let options: JSONParser.Options

    /// Scans `bytes` into a tape.
    ///
    /// Every string, key or value, is checked here, UTF-8 included, and marked ``Tape/asciiFlag`` when all its
    /// bytes are ASCII: the tape's readers make `String`s from those bytes without checking them again.
    static func build(_ bytes: UnsafeBufferPointer<UInt8>, options: JSONParser.Options) throws(JSONError) -> TapeStorage
    {
        guard bytes.count <= options.maximumInputSize else {
            throw JSONError(
                .inputTooLarge,
                "the input is \(bytes.count) bytes, more than the limit of \(options.maximumInputSize)")
        }
        guard let base = bytes.baseAddress, bytes.count > 0 else {
            throw JSONError(
                .syntax, "expected a JSON value, found the end of the input",
                location: JSONErrorLocator.locate(0, in: bytes))
        }
        var builder = TapeBuilder(base: base, count: bytes.count, options: options)
        defer { builder.stack.release() }
        do throws(Failure) {
            try builder.run()
        } catch {
            builder.entries.release()
            throw error.error(in: bytes)
        }
        return TapeStorage(bytes: bytes, entries: builder.entries)
    }

    private init(base: UnsafePointer<UInt8>, count: Int, options: JSONParser.Options) {
        self.base = base
        self.end = count
        self.p = 0
        self.options = options
        self.entries = GrowableBuffer(capacity: Swift.max(16, count / 10))
        self.stack = GrowableBuffer(capacity: 32)
    }

    /// An open container: its entry's tape index, how many elements it has so far, and whether it is an object.
    struct OpenContainer {
        var index: Int
        var count: Int
        var isObject: Bool
    }

    /// A failure found while scanning: cheap to throw, turned into a ``JSONError`` with a location at the top.
    struct Failure: Error {
        var code: JSONError.Code
        var message: String
        var offset: Int

        func error(in bytes: UnsafeBufferPointer<UInt8>) -> JSONError {
            JSONError(code, message, location: JSONErrorLocator.locate(offset, in: bytes))
        }
    }

    // MARK: - Structure

    private mutating func run() throws(Failure) {
        if end >= 3, base[0] == 0xEF, base[1] == 0xBB, base[2] == 0xBF {
            guard options.allowsByteOrderMark else {
                throw Failure(
                    code: .syntax,
                    message: "expected a JSON value, found a UTF-8 byte order mark, which JSON does not allow "
                        + "(set allowsByteOrderMark to skip it)",
                    offset: 0)
            }
            p = 3
        }
        valueLoop: while true {
            // A value; a non-empty container is only opened, and its first element comes next.
            if try parseValue() { continue valueLoop }
            // After a value: close containers or move to the next element.
            while true {
                guard stack.count > 0 else { break valueLoop }
                let top = stack.last
                skipWhitespace()
                guard p < end else {
                    throw unexpected(
                        top.pointee.isObject
                            ? "',' or '}' after an object member" : "',' or ']' after an array element")
                }
                let c = base[p]
                if top.pointee.isObject {
                    if c == UInt8(ascii: ",") {
                        p += 1
                        top.pointee.count += 1
                        try parseKeyAndColon()
                        continue valueLoop
                    } else if c == UInt8(ascii: "}") {
                        p += 1
                        close(countingLast: true)
                    } else {
                        throw unexpected("',' or '}' after an object member")
                    }
                } else {
                    if c == UInt8(ascii: ",") {
                        p += 1
                        top.pointee.count += 1
                        continue valueLoop
                    } else if c == UInt8(ascii: "]") {
                        p += 1
                        close(countingLast: true)
                    } else {
                        throw unexpected("',' or ']' after an array element")
                    }
                }
            }
        }
        skipWhitespace()
        if p < end { throw unexpected("the end of the input after the JSON value") }
    }

    /// Parses one value; for a non-empty container, only opens it (and reads the first key) and returns `true`.
    @inline(__always)
    private mutating func parseValue() throws(Failure) -> Bool {
        skipWhitespace()
        guard p < end else { throw unexpected("a JSON value") }
        switch base[p] {
        case UInt8(ascii: "\""):
            p += 1
            try parseString()
        case UInt8(ascii: "{"):
            try open(.object)
            skipWhitespace()
            if p < end, base[p] == UInt8(ascii: "}") {
                p += 1
                close(countingLast: false)
            } else {
                try parseKeyAndColon()
                return true
            }
        case UInt8(ascii: "["):
            try open(.array)
            skipWhitespace()
            if p < end, base[p] == UInt8(ascii: "]") {
                p += 1
                close(countingLast: false)
            } else {
                return true
            }
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            try parseNumber()
        case UInt8(ascii: "t"):
            try literal("true", .true)
        case UInt8(ascii: "f"):
            try literal("false", .false)
        case UInt8(ascii: "n"):
            try literal("null", .null)
        default:
            throw unexpected("a JSON value")
        }
        return false
    }

    private mutating func open(_ tag: Tape.Tag) throws(Failure) {
        guard stack.count < options.maximumDepth else {
            throw Failure(
                code: .depthLimitExceeded,
                message: "arrays and objects nest deeper than the limit of \(options.maximumDepth)", offset: p)
        }
        p += 1
        stack.append(OpenContainer(index: entries.count, count: 0, isObject: tag == .object))
        entries.append(Tape.Entry(tag: tag))
    }

    @inline(__always)
    private mutating func close(countingLast: Bool) {
        let top = stack.last.pointee
        stack.removeLast()
        let count = countingLast ? top.count + 1 : 0
        entries[top.index] = Tape.Entry(
            tag: top.isObject ? .object : .array, value: entries.count, payload: UInt64(count))
    }

    private mutating func parseKeyAndColon() throws(Failure) {
        skipWhitespace()
        guard p < end, base[p] == UInt8(ascii: "\"") else { throw unexpected("a string key") }
        p += 1
        try parseString()
        skipWhitespace()
        guard p < end, base[p] == UInt8(ascii: ":") else { throw unexpected("':' after an object key") }
        p += 1
        // Pretty-printed input puts one space after the colon: step over it here, so that the value's whitespace
        // check passes at once instead of calling the run skipper for one byte.
        if p + 1 < end, base[p] == UInt8(ascii: " "), base[p + 1] > 0x20 { p += 1 }
    }

    @inline(__always)
    private mutating func skipWhitespace() {
        // Fast exit: most values follow their delimiter directly.
        if p < end, base[p] > 0x20 { return }
        skipWhitespaceRun()
    }

    private mutating func skipWhitespaceRun() {
        // Pretty-printed input is a line break, then indentation: runs of spaces, skipped eight at a time (the
        // spaces before the first other byte of a word are counted from the XOR with eight spaces).
        // In a local, written back once (see `parseString`).
        var q = p
        defer { p = q }
        while q &+ 8 <= end {
            let other = UnsafeRawPointer(base + q).loadUnaligned(as: UInt64.self).littleEndian ^ 0x2020_2020_2020_2020
            if other == 0 {
                q &+= 8
                continue
            }
            q &+= other.trailingZeroBitCount &>> 3
            let c = base[q]
            guard c == 0x0A || c == 0x0D || c == 0x09 else { return }
            q &+= 1
        }
        while q < end {
            let c = base[q]
            guard c == 0x20 || c == 0x0A || c == 0x0D || c == 0x09 else { return }
            q &+= 1
        }
    }

    private mutating func literal(_ word: StaticString, _ tag: Tape.Tag) throws(Failure) {
        let length = word.utf8CodeUnitCount
        let text = word.utf8Start
        // Fast path: the first four bytes in one compare (`true`, `null`, and `fals` before the `e`).
        if p + length <= end,
            UnsafeRawPointer(base + p).loadUnaligned(as: UInt32.self)
                == UnsafeRawPointer(text).loadUnaligned(as: UInt32.self),
            length == 4 || base[p + 4] == text[4]
        {
            p += length
            entries.append(Tape.Entry(tag: tag))
            return
        }
        // Report the first byte that differs, or the end of the input where the word is cut off.
        for i in 0..<length where p + i >= end || base[p + i] != text[i] {
            throw Failure(code: .syntax, message: "expected '\(word)', found \(describeByte(at: p + i))", offset: p + i)
        }
        p += length
        entries.append(Tape.Entry(tag: tag))
    }

    // MARK: - Strings

    /// Scans a string whose opening quote is just behind `p`, checking its escapes and its UTF-8.
    @inline(__always)
    private mutating func parseString() throws(Failure) {
        let start = p
        // The position, in a local while the loop runs (`p` is a stored property, written back to memory at
        // every step otherwise); handed to `p` around the calls that move it.
        var q = p
        var escaped = false
        var ascii = true
        while true {
            // Eight bytes at a time while none is special: quote, backslash, control, or non-ASCII.
            while q &+ 8 <= end {
                let word = UInt64(littleEndian: UnsafeRawPointer(base + q).loadUnaligned(as: UInt64.self))
                let mask = TapeBuilder.specialBytes(word)
                if mask != 0 {
                    q &+= mask.trailingZeroBitCount &>> 3
                    break
                }
                q &+= 8
            }
            guard q < end else { throw unterminatedString(quote: start - 1) }
            let c = base[q]
            if c == UInt8(ascii: "\"") {
                break
            } else if c == UInt8(ascii: "\\") {
                escaped = true
                p = q
                try parseEscape(quote: start - 1)
                q = p
            } else if c < 0x20 {
                throw Failure(
                    code: .syntax,
                    message: "expected a character or the end of the string, found an unescaped control character "
                        + "(U+\(hex4(UInt16(c)))); write it as an escape such as \\n or \\u\(hex4(UInt16(c)))",
                    offset: q)
            } else if c >= 0x80 {
                ascii = false
                p = q
                try validateUTF8Run()
                q = p
            } else {
                q &+= 1
            }
        }
        let length = q - start
        guard length <= Int(UInt32.max) else {
            throw Failure(code: .inputTooLarge, message: "a string is longer than 4 GiB", offset: start)
        }
        p = q &+ 1  // past the closing quote
        let flags = (escaped ? Tape.escapedFlag : 0) | (ascii ? Tape.asciiFlag : 0)
        entries.append(Tape.Entry(tag: .string, value: start, payload: UInt64(length) | flags))
    }

    /// Bytes that end the fast path: `"`, `\`, anything below 0x20, anything from 0x80. Lowest flagged byte is exact.
    @inline(__always)
    static func specialBytes(_ x: UInt64) -> UInt64 {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highs: UInt64 = 0x8080_8080_8080_8080
        let quote = x ^ (ones &* 0x22)
        let backslash = x ^ (ones &* 0x5C)
        let hasQuote = (quote &- ones) & ~quote
        let hasBackslash = (backslash &- ones) & ~backslash
        let hasControl = (x &- ones &* 0x20) & ~x
        return (hasQuote | hasBackslash | hasControl | x) & highs
    }

    /// A string that the end of the input cuts off, reported at its opening quote.
    private func unterminatedString(quote: Int) -> Failure {
        Failure(
            code: .syntax, message: "expected '\"' to end the string that starts here, found the end of the input",
            offset: quote)
    }

    private mutating func parseEscape(quote: Int) throws(Failure) {
        // base[p] is the backslash.
        guard p + 1 < end else { throw unterminatedString(quote: quote) }
        switch base[p + 1] {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "b"), UInt8(ascii: "f"),
            UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
            p += 2
        case UInt8(ascii: "u"):
            let escapeStart = p
            let unit = try hexEscape(at: p, quote: quote)
            p += 6
            if unit >= 0xD800, unit <= 0xDBFF {
                // A high surrogate must be followed by an escaped low surrogate.
                if p + 1 < end, base[p] == UInt8(ascii: "\\"), base[p + 1] == UInt8(ascii: "u") {
                    let low = try hexEscape(at: p, quote: quote)
                    if low >= 0xDC00, low <= 0xDFFF {
                        p += 6
                        return
                    }
                }
                try loneSurrogate(unit, at: escapeStart)
            } else if unit >= 0xDC00, unit <= 0xDFFF {
                try loneSurrogate(unit, at: escapeStart)
            }
        default:
            throw Failure(
                code: .syntax,
                message: "expected one of \\\" \\\\ \\/ \\b \\f \\n \\r \\t \\u after a backslash, found "
                    + describeByte(at: p + 1),
                offset: p + 1)
        }
    }

    private func loneSurrogate(_ unit: UInt16, at offset: Int) throws(Failure) {
        if options.loneSurrogates == .reject {
            throw Failure(
                code: .invalidUnicodeEscape,
                message: "\\u\(hex4(unit)) is a lone UTF-16 surrogate, which no Unicode text can hold", offset: offset)
        }
    }

    /// Reads the four hex digits of the `\uXXXX` escape that starts at `offset`.
    private func hexEscape(at offset: Int, quote: Int) throws(Failure) -> UInt16 {
        var value: UInt16 = 0
        for i in 2..<6 {
            guard offset + i < end else { throw unterminatedString(quote: quote) }
            let c = base[offset + i]
            let digit: UInt8
            switch c {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = c &- UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = c &- UInt8(ascii: "a") &+ 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = c &- UInt8(ascii: "A") &+ 10
            default:
                throw Failure(
                    code: .syntax, message: "expected four hex digits after \\u, found \(describeByte(at: offset + i))",
                    offset: offset + i)
            }
            value = value << 4 | UInt16(digit)
        }
        return value
    }

    /// Checks consecutive multi-byte characters from `p`, as in Japanese text, until an ASCII byte.
    ///
    /// The common three-byte characters (U+1000 to U+FFFF but for surrogates) take a fast path.
    @inline(__always)
    private mutating func validateUTF8Run() throws(Failure) {
        while p + 3 <= end {
            let lead = base[p]
            guard lead >= 0x80 else { return }
            if lead >= 0xE1, lead != 0xED, lead <= 0xEF, base[p + 1] & 0xC0 == 0x80, base[p + 2] & 0xC0 == 0x80 {
                p += 3
            } else {
                try validateUTF8Sequence()
            }
        }
        if p < end, base[p] >= 0x80 { try validateUTF8Sequence() }
    }

    /// Checks the multi-byte UTF-8 sequence at `p` (RFC 3629: no overlongs, no surrogates, at most U+10FFFF).
    @inline(__always)
    private mutating func validateUTF8Sequence() throws(Failure) {
        let lead = base[p]
        guard let (length, low, high) = UTF8Validation.rule(forLead: lead) else {
            throw Failure(
                code: .invalidUTF8,
                message: "invalid UTF-8: expected the first byte of a character, found byte 0x\(hex2(lead))", offset: p)
        }
        guard p + length <= end else {
            throw Failure(
                code: .invalidUTF8,
                message: "invalid UTF-8: expected \(length - 1) more bytes after byte 0x\(hex2(lead)), "
                    + "found the end of the input",
                offset: p)
        }
        let second = base[p + 1]
        guard second >= low, second <= high else { throw badContinuation(p + 1, low: low, high: high) }
        if length > 2 {
            guard base[p + 2] & 0xC0 == 0x80 else { throw badContinuation(p + 2, low: 0x80, high: 0xBF) }
            if length > 3 {
                guard base[p + 3] & 0xC0 == 0x80 else { throw badContinuation(p + 3, low: 0x80, high: 0xBF) }
            }
        }
        p += length
    }

    /// A byte inside a multi-byte character that is not in the range `low...high` allowed there.
    private func badContinuation(_ offset: Int, low: UInt8, high: UInt8) -> Failure {
        Failure(
            code: .invalidUTF8,
            message: "invalid UTF-8: expected a continuation byte (0x\(hex2(low)) to 0x\(hex2(high))) of the character "
                + "that starts with byte 0x\(hex2(base[p])), found \(describeByte(at: offset))",
            offset: offset)
    }

    // MARK: - Numbers

    private mutating func parseNumber() throws(Failure) {
        let start = p
        do {
            let (entry, next) = try JSONNumberParser.scan(base, from: p, end: end)
            // Every number entry records where its text starts (for exact Decimal decoding); a big number's
            // payload is its text length.
            let payload = entry.tag == .bigNumber ? UInt64(next - start) : entry.payload
            entries.append(Tape.Entry(tag: entry.tag, value: start, payload: payload))
            p = next
        } catch {
            throw Failure(
                code: .syntax, message: "\(error.message), found \(describeByte(at: error.offset))",
                offset: error.offset)
        }
    }

    // MARK: - Messages

    private func unexpected(_ expected: String) -> Failure {
        Failure(code: .syntax, message: "expected \(expected), found \(describeByte(at: p))", offset: p)
    }

    private func describeByte(at offset: Int) -> String {
        guard offset < end else { return "the end of the input" }
        return JSONErrorLocator.describeCharacter(at: offset, in: UnsafeBufferPointer(start: base, count: end))
    }
}

func hex2(_ value: UInt8) -> String {
    let digits = Array("0123456789ABCDEF")
    return String([digits[Int(value >> 4)], digits[Int(value & 0xF)]])
}

func hex4(_ value: UInt16) -> String {
    hex2(UInt8(value >> 8)) + hex2(UInt8(value & 0xFF))
}
