/// Writes HTTP/1.1 requests as bytes, for a client.
///
/// ```swift
/// import TetherHTTP1
///
/// let body = Array(#"{"title": "a"}"#.utf8)
/// let request = HTTPRequest(method: .post, target: "/posts", headers: ["Host": "example.com"], body: body)
/// let bytes = HTTPRequestSerializer.serialize(request)   // the head and the body, ready for the socket
/// ```
///
/// The serializer owns the body's framing: it drops the request's own `Content-Length` and `Transfer-Encoding`
/// and writes `Content-Length` itself, for every body and for an empty body of a method that usually has one
/// (`POST`, `PUT`, `PATCH`), as servers expect. The caller supplies `Host` (first, as RFC 9112 §3.2 advises).
/// A header field whose name is not a token or whose value holds CR, LF or another control character (but HTAB)
/// is dropped, so a value cannot split the request; a method that is not a token or a target with spaces or
/// controls is replaced (`GET`, `/`) rather than written broken.
public enum HTTPRequestSerializer {
    /// The request line and header fields of `request` for a body of `bodyLength` bytes, ending with the blank line.
    public static func head(of request: HTTPRequest, bodyLength: Int) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(128 + request.headers.count * 32)
        let method = ASCII.isToken(request.method.rawValue.utf8) ? request.method.rawValue : "GET"
        let targetIsValid =
            !request.target.isEmpty && request.target.utf8.allSatisfy { $0 > ASCII.space && $0 < 0x7F }
        out.append(contentsOf: method.utf8)
        out.append(ASCII.space)
        out.append(contentsOf: (targetIsValid ? request.target : "/").utf8)
        out.append(ASCII.space)
        out.append(contentsOf: request.version.description.utf8)
        out.append(contentsOf: "\r\n".utf8)
        for (name, value) in request.headers where HTTPResponseSerializer.isWritable(name: name, value: value) {
            if name.caseInsensitiveEquals("Content-Length") || name.caseInsensitiveEquals("Transfer-Encoding") {
                continue
            }
            out.append(contentsOf: name.utf8)
            out.append(contentsOf: ": ".utf8)
            out.append(contentsOf: value.utf8)
            out.append(contentsOf: "\r\n".utf8)
        }
        if bodyLength > 0 || expectsBody(request.method) {
            out.append(contentsOf: "Content-Length: ".utf8)
            out.append(contentsOf: String(bodyLength).utf8)
            out.append(contentsOf: "\r\n".utf8)
        }
        out.append(contentsOf: "\r\n".utf8)
        return out
    }

    /// The whole request: ``head(of:bodyLength:)`` followed by the body.
    public static func serialize(_ request: HTTPRequest) -> [UInt8] {
        head(of: request, bodyLength: request.body.count) + request.body
    }

    /// Whether requests with `method` usually carry a body, so an empty one is announced as `Content-Length: 0`.
    static func expectsBody(_ method: HTTPMethod) -> Bool {
        method == .post || method == .put || method == .patch
    }
}
