/// The pieces of a request the parser reads line by line: pure functions over one line's bytes (without its line
/// end), each throwing the ``HTTP1Error`` the request should be answered with.
extension HTTPRequestParser {
    /// `method SP request-target SP HTTP-version`.
    static func parseRequestLine(
        _ line: ArraySlice<UInt8>
    ) throws(HTTP1Error) -> (method: HTTPMethod, target: String, version: HTTPVersion) {
        guard let first = line.firstIndex(of: ASCII.space), let last = line.lastIndex(of: ASCII.space),
            first < last
        else {
            throw HTTP1Error(.badRequest, "The request line is not 'method target version'.")
        }
        let method = line[line.startIndex..<first]
        let target = line[(first + 1)..<last]
        guard ASCII.isToken(method) else { throw HTTP1Error(.badRequest, "The method is not a token.") }
        guard !target.isEmpty, target.allSatisfy({ $0 > ASCII.space && $0 < 0x7F }) else {
            throw HTTP1Error(.badRequest, "The request target is empty or has invalid characters.")
        }
        let version = try parseVersion(line[(last + 1)...])
        return (HTTPMethod(String(decoding: method, as: UTF8.self)), String(decoding: target, as: UTF8.self), version)
    }

    /// `HTTP/DIGIT.DIGIT`: 1.0 and 1.1 are supported, other versions are 505.
    static func parseVersion(_ bytes: ArraySlice<UInt8>) throws(HTTP1Error) -> HTTPVersion {
        let digits = UInt8(ascii: "0")...UInt8(ascii: "9")
        guard bytes.count == 8, bytes.starts(with: "HTTP/".utf8),
            case let major = bytes[bytes.startIndex + 5], digits.contains(major),
            bytes[bytes.startIndex + 6] == UInt8(ascii: "."),
            case let minor = bytes[bytes.startIndex + 7], digits.contains(minor)
        else {
            throw HTTP1Error(.badRequest, "The HTTP version is malformed.")
        }
        let version = HTTPVersion(major: Int(major - digits.lowerBound), minor: Int(minor - digits.lowerBound))
        guard version == .http11 || version == .http10 else {
            throw HTTP1Error(.httpVersionNotSupported, "\(version) is not supported.")
        }
        return version
    }

    /// `field-name ":" OWS field-value OWS`, with the whitespace trimmed.
    static func parseField(_ line: ArraySlice<UInt8>) throws(HTTP1Error) -> (name: String, value: String) {
        if let first = line.first, ASCII.isWhitespace(first) {
            throw HTTP1Error(.badRequest, "Obsolete line folding in the header fields.")
        }
        guard let colon = line.firstIndex(of: ASCII.colon) else {
            throw HTTP1Error(.badRequest, "A header field line has no colon.")
        }
        let name = line[line.startIndex..<colon]
        guard ASCII.isToken(name) else {
            throw HTTP1Error(.badRequest, "A header field name is empty or not a token.")
        }
        var start = colon + 1
        var end = line.endIndex
        while start < end && ASCII.isWhitespace(line[start]) { start += 1 }
        while end > start && ASCII.isWhitespace(line[end - 1]) { end -= 1 }
        let value = line[start..<end]
        guard value.allSatisfy(ASCII.isFieldValueCharacter) else {
            throw HTTP1Error(.badRequest, "A header field value has a control character.")
        }
        return (String(decoding: name, as: UTF8.self), String(decoding: value, as: UTF8.self))
    }

    /// `chunk-size [ chunk-ext ]`: the size in hex; extensions (after `;`) are ignored but may not hold controls.
    static func parseChunkSize(_ line: ArraySlice<UInt8>) throws(HTTP1Error) -> Int {
        var index = line.startIndex
        var size = 0
        while index < line.endIndex, let digit = ASCII.hexValue(line[index]) {
            guard size <= (Int.max - digit) / 16 else {
                throw HTTP1Error(.payloadTooLarge, "A chunk size is too large.")
            }
            size = size * 16 + digit
            index += 1
        }
        guard index > line.startIndex else { throw HTTP1Error(.badRequest, "A chunk size is not hexadecimal.") }
        while index < line.endIndex && ASCII.isWhitespace(line[index]) { index += 1 }
        if index < line.endIndex {
            guard line[index] == ASCII.semicolon, line[index...].allSatisfy(ASCII.isFieldValueCharacter) else {
                throw HTTP1Error(.badRequest, "A chunk-size line is malformed.")
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
                guard !digits.isEmpty, digits.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") })
                else {
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
