/// The status line and the body framing of a response: pure functions, each throwing the ``HTTP1Error`` (502) the
/// response is rejected with.
extension HTTPResponseParser {
    /// `HTTP-version SP 3DIGIT [SP reason-phrase]`: any `HTTP/1.x` version; an empty or missing reason is kept
    /// empty.
    static func parseStatusLine(
        _ line: UnsafeBufferPointer<UInt8>
    ) throws(HTTP1Error) -> (version: HTTPVersion, status: HTTPStatus) {
        let zero = UInt8(ascii: "0")
        guard line.count >= 12, line[8] == ASCII.space else {
            throw HTTP1Error(badResponse, "The status line is not 'version code reason'.")
        }
        guard line[0] == UInt8(ascii: "H"), line[1] == UInt8(ascii: "T"), line[2] == UInt8(ascii: "T"),
            line[3] == UInt8(ascii: "P"), line[4] == UInt8(ascii: "/"), line[5] == UInt8(ascii: "1"),
            line[6] == UInt8(ascii: "."), line[7] &- zero < 10
        else {
            throw HTTP1Error(badResponse, "The response's HTTP version is not HTTP/1.x.")
        }
        guard line[9] &- zero < 10, line[10] &- zero < 10, line[11] &- zero < 10,
            line.count == 12 || line[12] == ASCII.space
        else {
            throw HTTP1Error(badResponse, "The status code is not three digits.")
        }
        let code = Int(line[9] - zero) * 100 + Int(line[10] - zero) * 10 + Int(line[11] - zero)
        guard code >= 100 else { throw HTTP1Error(badResponse, "The status code is below 100.") }
        var reason = ""
        if line.count > 13 {
            let text = UnsafeBufferPointer(rebasing: line[13...])
            guard text.allSatisfy(ASCII.isFieldValueCharacter) else {
                throw HTTP1Error(badResponse, "The reason phrase has a control character.")
            }
            reason = String(decoding: text, as: UTF8.self)
        }
        return (HTTPVersion(major: 1, minor: Int(line[7] - zero)), HTTPStatus(code: code, reason: reason))
    }

    /// How the body of a final (not 1xx) response to `method` is delimited (RFC 9112 §6.3).
    static func framing(of head: HTTPResponseHead, method: HTTPMethod) throws(HTTP1Error) -> Framing {
        let code = head.status.code
        if method == .head || code == 204 || code == 304 { return .none }
        let transferEncodings = head.headers.values(for: "Transfer-Encoding")
        if !transferEncodings.isEmpty {
            var last: ArraySlice<UInt8>?
            for value in transferEncodings {
                for element in Array(value.utf8).split(separator: UInt8(ascii: ",")) {
                    let coding = HTTPRequestParser.trimmed(element)
                    if !coding.isEmpty { last = coding }
                }
            }
            if let last, HTTPRequestParser.isToken(last, "chunked") { return .chunked }
            return .untilClose
        }
        let lengths = head.headers.values(for: "Content-Length")
        if !lengths.isEmpty {
            do {
                return .contentLength(try HTTPRequestParser.parseContentLength(lengths))
            } catch {
                throw HTTP1Error(badResponse, error.message)
            }
        }
        return .untilClose
    }
}
