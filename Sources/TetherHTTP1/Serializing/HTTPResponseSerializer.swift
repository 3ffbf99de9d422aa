/// Writes HTTP/1.1 responses as bytes.
///
/// STUB: the API is fixed; the implementation is being written.
public enum HTTPResponseSerializer {
    /// The status line and header fields of `response`, ending with the blank line.
    ///
    /// Adds `Content-Length: bodyLength` when `bodyLength` is given and the response has none, otherwise
    /// `Transfer-Encoding: chunked` (HTTP/1.1) ; adds `Connection: close` when `keepAlive` is false (or
    /// `Connection: keep-alive` for an HTTP/1.0 client that keeps the connection), and a `Date`.
    public static func head(
        of response: HTTPResponse, bodyLength: Int?, version: HTTPVersion, keepAlive: Bool
    ) -> [UInt8] { [] }

    /// One chunk of a chunked body: its size in hex, CRLF, the bytes, CRLF. An empty input gives no bytes.
    public static func chunk(_ bytes: [UInt8]) -> [UInt8] { [] }

    /// The last chunk and the end of the chunked body.
    public static let lastChunk: [UInt8] = Array("0\r\n\r\n".utf8)

    /// `HTTP/1.1 100 Continue` and the blank line.
    public static let continueResponse: [UInt8] = Array("HTTP/1.1 100 Continue\r\n\r\n".utf8)
}
