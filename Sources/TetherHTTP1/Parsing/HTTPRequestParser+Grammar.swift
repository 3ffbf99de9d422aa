/// The pieces of a request the parser reads line by line: pure functions over one line's bytes (without its line
/// end), each throwing the ``HTTP1Error`` the request should be answered with. They loop over buffer pointers by
/// index, as the parser's hot path.
extension HTTPRequestParser {
    /// The header fields the parser acts on.
    enum FieldKind {
        case host, contentLength, transferEncoding, expect, other

        init(name: UnsafeBufferPointer<UInt8>) {
            switch name.count {
            case 4 where equalsLowercased(name, "host"): self = .host
            case 6 where equalsLowercased(name, "expect"): self = .expect
            case 14 where equalsLowercased(name, "content-length"): self = .contentLength
            case 17 where equalsLowercased(name, "transfer-encoding"): self = .transferEncoding
            default: self = .other
            }
        }
    }

    /// `method SP request-target SP HTTP-version`.
    static func parseRequestLine(
        _ line: UnsafeBufferPointer<UInt8>
    ) throws(HTTP1Error) -> (method: HTTPMethod, target: String, version: HTTPVersion) {
        var first = 0
        while first < line.count && line[first] != ASCII.space { first += 1 }
        var last = line.count - 1
        while last > first && line[last] != ASCII.space { last -= 1 }
        guard first < last else {
            throw HTTP1Error(.badRequest, "The request line is not 'method target version'.")
        }
        guard first > 0, isTokenRange(line, 0..<first) else {
            throw HTTP1Error(.badRequest, "The method is not a token.")
        }
        var index = first + 1
        guard index < last else { throw HTTP1Error(.badRequest, "The request target is empty.") }
        while index < last {
            guard line[index] > ASCII.space && line[index] < 0x7F else {
                throw HTTP1Error(.badRequest, "The request target has invalid characters.")
            }
            index += 1
        }
        let version = try parseVersion(UnsafeBufferPointer(rebasing: line[(last + 1)...]))
        let method = String(decoding: UnsafeBufferPointer(rebasing: line[..<first]), as: UTF8.self)
        let target = String(decoding: UnsafeBufferPointer(rebasing: line[(first + 1)..<last]), as: UTF8.self)
        // RFC 9112 §3.2: origin-form starts with "/"; absolute-form has a scheme; "*" and authority-form belong to
        // OPTIONS and CONNECT.
        let isOriginForm = line[first + 1] == UInt8(ascii: "/")
        // Only looked for when the target is not in origin-form, byte by byte (a substring search on `String` cost
        // a few percent of a server's time per request).
        let isAbsoluteForm =
            !isOriginForm && containsSchemeSeparator(UnsafeBufferPointer(rebasing: line[(first + 1)..<last]))
        guard isOriginForm || isAbsoluteForm || (target == "*" && method == "OPTIONS") || method == "CONNECT" else {
            throw HTTP1Error(.badRequest, "The request target must start with '/'.")
        }
        return (HTTPMethod(method), target, version)
    }

    /// Whether `bytes` hold `://`.
    static func containsSchemeSeparator(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard bytes.count >= 3 else { return false }
        for index in 0...(bytes.count - 3)
        where bytes[index] == UInt8(ascii: ":") && bytes[index + 1] == UInt8(ascii: "/")
            && bytes[index + 2] == UInt8(ascii: "/")
        {
            return true
        }
        return false
    }

    /// `HTTP/DIGIT.DIGIT`: 1.0 and 1.1 are supported, other versions are 505.
    static func parseVersion(_ bytes: UnsafeBufferPointer<UInt8>) throws(HTTP1Error) -> HTTPVersion {
        let zero = UInt8(ascii: "0")
        guard bytes.count == 8, bytes[0] == UInt8(ascii: "H"), bytes[1] == UInt8(ascii: "T"),
            bytes[2] == UInt8(ascii: "T"), bytes[3] == UInt8(ascii: "P"), bytes[4] == UInt8(ascii: "/"),
            bytes[5] &- zero < 10, bytes[6] == UInt8(ascii: "."), bytes[7] &- zero < 10
        else {
            throw HTTP1Error(.badRequest, "The HTTP version is malformed.")
        }
        let version = HTTPVersion(major: Int(bytes[5] - zero), minor: Int(bytes[7] - zero))
        guard version == .http11 || version == .http10 else {
            throw HTTP1Error(.httpVersionNotSupported, "\(version) is not supported.")
        }
        return version
    }

    /// `field-name ":" OWS field-value OWS`, with the whitespace trimmed.
    static func parseField(
        _ line: UnsafeBufferPointer<UInt8>
    ) throws(HTTP1Error) -> (name: String, value: String, kind: FieldKind) {
        if line.count > 0 && ASCII.isWhitespace(line[0]) {
            throw HTTP1Error(.badRequest, "Obsolete line folding in the header fields.")
        }
        var colon = 0
        while colon < line.count && line[colon] != ASCII.colon {
            guard ASCII.isTokenCharacter(line[colon]) else {
                throw HTTP1Error(.badRequest, "A header field name is not a token.")
            }
            colon += 1
        }
        guard colon < line.count else { throw HTTP1Error(.badRequest, "A header field line has no colon.") }
        guard colon > 0 else { throw HTTP1Error(.badRequest, "A header field name is empty.") }
        var start = colon + 1
        var end = line.count
        while start < end && ASCII.isWhitespace(line[start]) { start += 1 }
        while end > start && ASCII.isWhitespace(line[end - 1]) { end -= 1 }
        var index = start
        while index < end {
            guard ASCII.isFieldValueCharacter(line[index]) else {
                throw HTTP1Error(.badRequest, "A header field value has a control character.")
            }
            index += 1
        }
        let name = UnsafeBufferPointer(rebasing: line[..<colon])
        let value = UnsafeBufferPointer(rebasing: line[start..<end])
        return (String(decoding: name, as: UTF8.self), String(decoding: value, as: UTF8.self), FieldKind(name: name))
    }

    /// `chunk-size [ chunk-ext ]`: the size in hex; extensions (after `;`) are ignored but may not hold controls.
    static func parseChunkSize(_ line: UnsafeBufferPointer<UInt8>) throws(HTTP1Error) -> Int {
        var index = 0
        var size = 0
        while index < line.count, let digit = ASCII.hexValue(line[index]) {
            guard size <= (Int.max - digit) / 16 else {
                throw HTTP1Error(.payloadTooLarge, "A chunk size is too large.")
            }
            size = size * 16 + digit
            index += 1
        }
        guard index > 0 else { throw HTTP1Error(.badRequest, "A chunk size is not hexadecimal.") }
        while index < line.count && ASCII.isWhitespace(line[index]) { index += 1 }
        if index < line.count {
            guard line[index] == ASCII.semicolon else {
                throw HTTP1Error(.badRequest, "A chunk-size line is malformed.")
            }
            while index < line.count {
                guard ASCII.isFieldValueCharacter(line[index]) else {
                    throw HTTP1Error(.badRequest, "A chunk extension has a control character.")
                }
                index += 1
            }
        }
        return size
    }

    /// The one length every `Content-Length` value (and element of a comma list) states.
    static func parseContentLength(_ values: [String]) throws(HTTP1Error) -> Int {
        var length: Int?
        for value in values {
            for element in value.utf8.split(separator: UInt8(ascii: ","), omittingEmptySubsequences: false) {
                let digits = trimmed(element)
                guard !digits.isEmpty, digits.allSatisfy({ $0 &- UInt8(ascii: "0") < 10 }) else {
                    throw HTTP1Error(.badRequest, "Content-Length is not a decimal number.")
                }
                var number = 0
                for digit in digits {
                    let (times10, overflow1) = number.multipliedReportingOverflow(by: 10)
                    let (sum, overflow2) = times10.addingReportingOverflow(Int(digit - UInt8(ascii: "0")))
                    if overflow1 || overflow2 { throw HTTP1Error(.payloadTooLarge, "Content-Length is too large.") }
                    number = sum
                }
                if let length, length != number {
                    throw HTTP1Error(.badRequest, "Content-Length values disagree.")
                }
                length = number
            }
        }
        guard let length else { throw HTTP1Error(.badRequest, "Content-Length is empty.") }
        return length
    }

    /// Accepts exactly one `chunked` coding: other codings are 501, `chunked` twice or no coding 400.
    static func checkTransferEncoding(_ values: [String]) throws(HTTP1Error) {
        var chunked = 0
        var other = false
        for value in values {
            for element in value.utf8.split(separator: UInt8(ascii: ",")) {
                let coding = trimmed(element)
                if coding.isEmpty { continue }
                if isToken(coding, "chunked") { chunked += 1 } else { other = true }
            }
        }
        if other { throw HTTP1Error(.notImplemented, "Only the chunked transfer coding is supported.") }
        guard chunked == 1 else { throw HTTP1Error(.badRequest, "Transfer-Encoding must be chunked, once.") }
    }

    /// Whether the bytes in `range` of `line` are all token characters.
    static func isTokenRange(_ line: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> Bool {
        var index = range.lowerBound
        while index < range.upperBound {
            if !ASCII.isTokenCharacter(line[index]) { return false }
            index += 1
        }
        return true
    }

    /// Whether `bytes` equal `lowercase` (ASCII lowercase letters and punctuation) ignoring ASCII case.
    static func equalsLowercased(_ bytes: UnsafeBufferPointer<UInt8>, _ lowercase: StaticString) -> Bool {
        guard bytes.count == lowercase.utf8CodeUnitCount else { return false }
        let expected = lowercase.utf8Start
        for index in 0..<bytes.count {
            var byte = bytes[index]
            if byte &- UInt8(ascii: "A") < 26 { byte |= 0x20 }
            if byte != expected[index] { return false }
        }
        return true
    }

    /// Whether `value`, trimmed of whitespace, is `token` compared ASCII case-insensitively.
    static func isToken(_ value: String, _ token: String) -> Bool {
        isToken(trimmed(value.utf8[...]), token)
    }

    static func isToken(_ bytes: some Collection<UInt8>, _ token: String) -> Bool {
        bytes.elementsEqual(token.utf8) { a, b in
            a == b || (a | 0x20 == b | 0x20 && (a | 0x20) >= UInt8(ascii: "a") && (a | 0x20) <= UInt8(ascii: "z"))
        }
    }

    /// `bytes` without leading and trailing SP and HTAB.
    static func trimmed<C: BidirectionalCollection<UInt8>>(_ bytes: C) -> C.SubSequence {
        var start = bytes.startIndex
        var end = bytes.endIndex
        while start < end && ASCII.isWhitespace(bytes[start]) { start = bytes.index(after: start) }
        while end > start && ASCII.isWhitespace(bytes[bytes.index(before: end)]) { end = bytes.index(before: end) }
        return bytes[start..<end]
    }
}
