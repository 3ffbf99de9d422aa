/// Writes HTTP/1.1 responses as bytes.
///
/// ```swift
/// import TetherHTTP1
///
/// let request = HTTPRequest(method: .get, target: "/posts/1", headers: ["Host": "example.com"])
/// let response = HTTPResponse(status: .ok, headers: ["Content-Type": "application/json"])
/// let body = Array("{}".utf8)
/// let bytes = HTTPResponseSerializer.head(of: response, bodyLength: body.count, version: request.version,
///                                         keepAlive: request.keepAlive) + body
/// ```
///
/// The serializer owns the framing and connection fields: it writes `Content-Length`, `Transfer-Encoding` and
/// `Connection` itself (see ``framing(of:bodyLength:version:)``), drops the response's own `Transfer-Encoding` and
/// `Connection`, and keeps its own `Content-Length` only as described there. A header field whose name is not a
/// token or whose value holds CR, LF or another control character (but HTAB) is dropped, so a value cannot split
/// the response. A reason phrase with such characters is replaced by the standard one.
public enum HTTPResponseSerializer {
    /// How the body after a head is delimited: what the caller must send after ``head(of:bodyLength:version:keepAlive:)``.
    public enum Framing: Sendable, Hashable {
        /// No body may follow (1xx, 204, 304).
        case none
        /// Exactly this many bytes follow, as they are.
        case contentLength(Int)
        /// The body follows in ``chunk(_:)``s and ends with ``lastChunk``.
        case chunked
        /// The body follows as it is and ends when the connection closes (an HTTP/1.0 client and an unknown
        /// length); the head says `Connection: close` whatever `keepAlive` was.
        case untilClose
    }

    /// The framing that ``head(of:bodyLength:version:keepAlive:)`` announces for the same arguments.
    ///
    /// - 1xx, 204 and 304 responses have no body (a 304's own `Content-Length` is kept, as RFC 9110 §8.6 allows;
    ///   1xx and 204 never carry one).
    /// - With `bodyLength`, `Content-Length: bodyLength` (or the response's own `Content-Length` when it has a
    ///   valid one, e.g. a HEAD response stating the GET body's length: then the caller sends `bodyLength` bytes).
    /// - Without it, the response's own valid `Content-Length`, else chunked for an HTTP/1.1 client, else
    ///   until close.
    public static func framing(of response: HTTPResponse, bodyLength: Int?, version: HTTPVersion) -> Framing {
        let code = response.status.code
        if (100..<200).contains(code) || code == 204 || code == 304 { return .none }
        if let bodyLength { return .contentLength(bodyLength) }
        if let length = ownContentLength(of: response) { return .contentLength(length) }
        return version == .http10 ? .untilClose : .chunked
    }

    /// The status line and header fields of `response`, ending with the blank line.
    ///
    /// Writes `HTTP/1.1 <code> <reason>`, the response's header fields in order (less those described above),
    /// a `Date` in IMF-fixdate when the response has none, the framing field (`Content-Length: bodyLength`, or
    /// `Transfer-Encoding: chunked` for an HTTP/1.1 client when `bodyLength` is `nil`; see
    /// ``framing(of:bodyLength:version:)``), and `Connection: close` when `keepAlive` is false or the body runs to
    /// the close, or `Connection: keep-alive` for an HTTP/1.0 client that keeps the connection.
    ///
    /// A status code outside 100...999 is written as 500 (the status line needs three digits). For a HEAD request
    /// pass the length the GET body would have (or nothing, with the response's own `Content-Length`) and send no
    /// body. The `Date` is read from the system clock on each call (`time()`, no Foundation).
    public static func head(
        of response: HTTPResponse, bodyLength: Int?, version: HTTPVersion, keepAlive: Bool
    ) -> [UInt8] {
        head(of: response, bodyLength: bodyLength, version: version, keepAlive: keepAlive, date: nil)
    }

    /// ``head(of:bodyLength:version:keepAlive:)`` with the `Date` for `secondsSince1970` (`nil`: the clock's).
    static func head(
        of response: HTTPResponse, bodyLength: Int?, version: HTTPVersion, keepAlive: Bool, date: Int?
    ) -> [UInt8] {
        let framing = framing(of: response, bodyLength: bodyLength, version: version)
        let code = (100...999).contains(response.status.code) ? response.status.code : 500
        let keepsOwnLength = ownContentLength(of: response) != nil && !(100..<200).contains(code) && code != 204

        var out: [UInt8] = []
        out.reserveCapacity(256)
        out.append(contentsOf: "HTTP/1.1 ".utf8)
        out.append(contentsOf: String(code).utf8)
        out.append(ASCII.space)
        let reason = response.status.reason
        if code == response.status.code && reason.utf8.allSatisfy(ASCII.isFieldValueCharacter) {
            out.append(contentsOf: reason.utf8)
        } else {
            out.append(contentsOf: HTTPStatus.standardReason(for: code).utf8)
        }
        out.append(contentsOf: "\r\n".utf8)

        // The caller's fields, less the ones the serializer owns and the ones that would break the message.
        var hasDate = false
        for (name, value) in response.headers where isWritable(name: name, value: value) {
            if name.caseInsensitiveEquals("Connection") || name.caseInsensitiveEquals("Transfer-Encoding") {
                continue
            }
            if name.caseInsensitiveEquals("Content-Length") && !keepsOwnLength { continue }
            if name.caseInsensitiveEquals("Date") { hasDate = true }
            appendField(name, value, to: &out)
        }
        if !hasDate { appendField("Date", imfFixdate(secondsSince1970: date ?? currentTime()), to: &out) }

        switch framing {
        case .contentLength(let length) where !keepsOwnLength:
            appendField("Content-Length", String(length), to: &out)
        case .chunked:
            appendField("Transfer-Encoding", "chunked", to: &out)
        default:
            break
        }
        if !keepAlive || framing == .untilClose {
            appendField("Connection", "close", to: &out)
        } else if version == .http10 {
            appendField("Connection", "keep-alive", to: &out)
        }
        out.append(contentsOf: "\r\n".utf8)
        return out
    }

    /// One chunk of a chunked body: its size in hex, CRLF, the bytes, CRLF. An empty input gives no bytes.
    public static func chunk(_ bytes: [UInt8]) -> [UInt8] {
        if bytes.isEmpty { return [] }
        let size = String(bytes.count, radix: 16)
        var out: [UInt8] = []
        out.reserveCapacity(size.utf8.count + bytes.count + 4)
        out.append(contentsOf: size.utf8)
        out.append(contentsOf: "\r\n".utf8)
        out.append(contentsOf: bytes)
        out.append(contentsOf: "\r\n".utf8)
        return out
    }

    /// The last chunk and the end of the chunked body.
    public static let lastChunk: [UInt8] = Array("0\r\n\r\n".utf8)

    /// `HTTP/1.1 100 Continue` and the blank line.
    public static let continueResponse: [UInt8] = Array("HTTP/1.1 100 Continue\r\n\r\n".utf8)

    // MARK: - Fields

    /// Whether a field can be written without breaking the message: a token name and a value free of controls.
    static func isWritable(name: String, value: String) -> Bool {
        ASCII.isToken(name.utf8) && value.utf8.allSatisfy(ASCII.isFieldValueCharacter)
    }

    private static func appendField(_ name: String, _ value: String, to out: inout [UInt8]) {
        out.append(contentsOf: name.utf8)
        out.append(contentsOf: ": ".utf8)
        out.append(contentsOf: value.utf8)
        out.append(contentsOf: "\r\n".utf8)
    }

    /// The response's own `Content-Length` when it has exactly one valid (decimal) value.
    private static func ownContentLength(of response: HTTPResponse) -> Int? {
        let values = response.headers.values(for: "Content-Length")
        guard values.count == 1, let value = values.first,
            value.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") })
        else { return nil }
        return Int(value)
    }
}
