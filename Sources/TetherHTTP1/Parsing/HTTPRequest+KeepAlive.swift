extension HTTPRequest {
    /// Whether the connection stays open after the response to this request (RFC 9112 §9.3).
    ///
    /// HTTP/1.1 keeps it unless a `Connection` field lists `close`; HTTP/1.0 keeps it only when a `Connection` field
    /// lists `keep-alive` (and none lists `close`). Options are compared case-insensitively, across every
    /// `Connection` field and comma list.
    public var keepAlive: Bool {
        var close = false
        var keepAlive = false
        for value in headers.values(for: "Connection") {
            for option in value.utf8.split(separator: UInt8(ascii: ",")) {
                let option = HTTPRequestParser.trimmed(option)
                if HTTPRequestParser.isToken(option, "close") { close = true }
                if HTTPRequestParser.isToken(option, "keep-alive") { keepAlive = true }
            }
        }
        if close { return false }
        switch version {
        case .http11: return true
        case .http10: return keepAlive
        default: return false
        }
    }
}
