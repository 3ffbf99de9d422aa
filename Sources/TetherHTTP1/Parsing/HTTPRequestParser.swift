/// An incremental HTTP/1.1 request parser: feed it bytes as they arrive, take complete requests out in order.
///
/// ```swift
/// import TetherHTTP1
///
/// let receivedBytes = Array("GET /posts/1 HTTP/1.1\r\nHost: example.com\r\n\r\n".utf8)  // from the socket
/// var parser = HTTPRequestParser()
/// parser.append(receivedBytes)
/// while let request = try parser.nextRequest() {
///     // answer `request`; pipelined requests come out one after another, in order
///     print(request.method, request.target)
/// }
/// if parser.isAwaitingContinue {
///     // send HTTPResponseSerializer.continueResponse, then:
///     parser.continueSent()
/// }
/// ```
///
/// Bytes may arrive one at a time or many requests at once: `append(_:)` only buffers, and `nextRequest()` parses
/// as far as the buffered bytes allow, remembering where it stopped, so the work is linear in the bytes received.
///
/// What it accepts (RFC 9112):
/// - A request line `METHOD SP target SP HTTP/1.x`: the method a token, the target visible ASCII, the version
///   `HTTP/1.0` or `HTTP/1.1` (any other well-formed version is 505, anything else 400). Empty lines before a
///   request line are skipped (§2.2).
/// - Lines end with CRLF or, leniently (§2.2 allows it), a bare LF. A CR anywhere else is a control character
///   and rejected with 400.
/// - Header fields `name: value`, with the optional whitespace around the value trimmed. Obsolete line folding,
///   whitespace before the colon, a name that is not a token and control characters in the value are 400. Values
///   are decoded as UTF-8 (invalid sequences become U+FFFD).
/// - HTTP/1.1 requests need exactly one `Host` (400 otherwise); any request with two is 400.
/// - A body framed by `Content-Length` (every value, also in comma lists, must be the same decimal number, else
///   400) or `Transfer-Encoding: chunked` (chunk extensions ignored, trailer fields validated and dropped).
///   Both at once is 400 (§6.3), any other transfer coding 501, and a `Transfer-Encoding` in an HTTP/1.0 request
///   400 (§6.1). Without either, the body is empty.
///
/// Limits (``Limits``): a request line over `maximumRequestLineLength` is 414 when it starts with a method and a
/// space (so the target is what is long) and 400 otherwise; header fields (each field line with its line end,
/// not the blank line) over `maximumHeaderBytes` are 431, and so are trailer fields over the same number; a body
/// over `maximumBodyBytes` is 413, known from `Content-Length` before any body byte is read, and while reading
/// chunks. A chunk-size line (with extensions) longer than ``maximumChunkLineLength`` is 400.
///
/// After an error the parser stays failed: it drops its buffer, ignores appended bytes and every later
/// `nextRequest()` throws the same error.
public struct HTTPRequestParser: Sendable {
    /// Limits; a request over one is an ``HTTP1Error`` with the status to answer.
    public struct Limits: Sendable, Hashable {
        /// The longest request line (method, target, version, without the line end), else 414 (target) or 400.
        public var maximumRequestLineLength: Int
        /// The most bytes of header fields (each field line with its line end), else 431.
        public var maximumHeaderBytes: Int
        /// The largest body (Content-Length or chunked total), else 413.
        public var maximumBodyBytes: Int

        public init(
            maximumRequestLineLength: Int = 8 * 1024, maximumHeaderBytes: Int = 16 * 1024,
            maximumBodyBytes: Int = 10 * 1024 * 1024
        ) {
            self.maximumRequestLineLength = maximumRequestLineLength
            self.maximumHeaderBytes = maximumHeaderBytes
            self.maximumBodyBytes = maximumBodyBytes
        }
    }

    /// The longest chunk-size line, extensions included and the line end not: longer is 400.
    public static let maximumChunkLineLength = 4096

    public let limits: Limits

    /// Where the parser is in the current request.
    private enum State: Sendable {
        case requestLine
        case headers
        case fixedBody(remaining: Int)
        /// A chunked body, read by ``chunked``.
        case chunked
        case failed(HTTP1Error)
    }

    /// The parts of the request being read.
    private struct Partial: Sendable {
        var method = HTTPMethod.get
        var target = ""
        var version = HTTPVersion.http11
        var headers = HTTPHeaders()
        var headerBytes = 0
        var body: [UInt8] = []
        // The fields that frame the body, spotted while the field lines are parsed.
        var hostCount = 0
        var contentLengths: [String] = []
        var transferEncodings: [String] = []
        var expectsContinue = false
    }

    /// Received bytes and the line scanning over them (shared with the response parser).
    private var input = FramingBuffer()
    private var state = State.requestLine
    /// The chunked body being read (the state machine shared with the response parser).
    private var chunked: ChunkedDecoder
    private var current = Partial()
    private var awaitingContinue = false

    public init(limits: Limits = Limits()) {
        self.limits = limits
        chunked = Self.makeChunkedDecoder(limits)
    }

    /// A decoder for one chunked request body: malformed framing is 400, trailers over the header limit 431, a
    /// body over its limit 413; trailer fields are checked and dropped.
    private static func makeChunkedDecoder(_ limits: Limits) -> ChunkedDecoder {
        ChunkedDecoder(
            maximumBodyBytes: limits.maximumBodyBytes, maximumTrailerBytes: limits.maximumHeaderBytes,
            keepsTrailers: false,
            failures: .init(
                malformed: .badRequest, trailersTooLarge: .requestHeaderFieldsTooLarge, remapsGrammarErrors: false,
                bodyTooLarge: HTTP1Error(.payloadTooLarge, "The body is larger than \(limits.maximumBodyBytes) bytes."))
        )
    }

    /// Adds bytes received from the connection. After a failure the bytes are ignored.
    public mutating func append(_ bytes: some Sequence<UInt8>) {
        if case .failed = state { return }
        if input.append(bytes) { awaitingContinue = false }
    }

    /// The next complete request, or `nil` when more bytes are needed.
    ///
    /// Call it until it returns `nil` after each `append(_:)`: several pipelined requests may be buffered.
    ///
    /// - Throws: ``HTTP1Error``; the connection should answer with its status and close. Every later call throws
    ///   the same error.
    public mutating func nextRequest() throws(HTTP1Error) -> HTTPRequest? {
        if case .failed(let error) = state { throw error }
        do {
            return try parse()
        } catch {
            state = .failed(error)
            awaitingContinue = false
            input.reset()
            current = Partial()
            throw error
        }
    }

    /// Whether a request head with `Expect: 100-continue` has been read and its body has not: the server should
    /// send `100 Continue` (once) before the client sends the body.
    ///
    /// Only HTTP/1.1 requests with a body (a nonzero `Content-Length` or chunked) expect it, and only while no
    /// body byte has arrived. It turns false on `continueSent()`, when body bytes arrive, and on an error.
    public var isAwaitingContinue: Bool { awaitingContinue }

    /// Marks the pending `100 Continue` as sent.
    public mutating func continueSent() { awaitingContinue = false }

    /// Whether no partial request is buffered (so a quiet connection is idle, not a slow client).
    ///
    /// Meaningful after `nextRequest()` returned `nil` (which also skips empty lines between requests); false
    /// once the parser has failed.
    public var isIdle: Bool {
        guard case .requestLine = state else { return false }
        return input.isFullyConsumed
    }

    /// Gives the buffer's memory back when every byte in it has been consumed (``isIdle``), so that a connection
    /// waiting for its next request holds no buffer; the next ``append(_:)`` allocates one again. Does nothing
    /// while part of a request is buffered.
    public mutating func releaseBuffer() {
        guard isIdle else { return }
        input.releaseIfConsumed()
    }

    /// The error the parser failed with, or `nil` while it has not.
    public var failure: HTTP1Error? {
        if case .failed(let error) = state { return error }
        return nil
    }

    // MARK: - States

    private mutating func parse() throws(HTTP1Error) -> HTTPRequest? {
        while true {
            switch state {
            case .requestLine:
                guard let (content, next) = input.nextLine() else {
                    if input.unconsumedCount > limits.maximumRequestLineLength + 1 {
                        throw requestLineTooLong(input[input.readIndex...])
                    }
                    return nil
                }
                if content.isEmpty {
                    input.consume(to: next)
                    continue
                }
                if content.count > limits.maximumRequestLineLength { throw requestLineTooLong(input[content]) }
                let line = try input.withBytes(content, Self.parseRequestLine)
                current = Partial(method: line.method, target: line.target, version: line.version)
                input.consume(to: next)
                state = .headers

            case .headers:
                guard let (content, next) = input.nextLine() else {
                    if current.headerBytes + input.pendingLineLength > limits.maximumHeaderBytes {
                        throw HTTP1Error(.requestHeaderFieldsTooLarge, "The header fields are too large.")
                    }
                    return nil
                }
                if content.isEmpty {
                    input.consume(to: next)
                    if let request = try beginBody() { return request }
                    continue
                }
                current.headerBytes += next - input.readIndex
                if current.headerBytes > limits.maximumHeaderBytes {
                    throw HTTP1Error(.requestHeaderFieldsTooLarge, "The header fields are too large.")
                }
                let field = try input.withBytes(content, Self.parseField)
                current.headers.add(field.name, field.value)
                switch field.kind {
                case .host: current.hostCount += 1
                case .contentLength: current.contentLengths.append(field.value)
                case .transferEncoding: current.transferEncodings.append(field.value)
                case .expect: if Self.isToken(field.value, "100-continue") { current.expectsContinue = true }
                case .other: break
                }
                input.consume(to: next)

            case .fixedBody(let remaining):
                let take = input.move(upTo: remaining, into: &current.body)
                if take == 0 { return nil }
                if take == remaining { return finish() }
                state = .fixedBody(remaining: remaining - take)
                return nil

            case .chunked:
                switch try chunked.next(&input) {
                case .needsMore: return nil
                case .data(let bytes): current.body += bytes
                case .end: return finish()
                }

            case .failed(let error):
                throw error
            }
        }
    }

    /// Checks the head once its blank line is read and picks the body framing; returns the request when it has
    /// no body.
    private mutating func beginBody() throws(HTTP1Error) -> HTTPRequest? {
        if current.hostCount > 1 { throw HTTP1Error(.badRequest, "More than one Host header field.") }
        if current.hostCount == 0 && current.version == .http11 {
            throw HTTP1Error(.badRequest, "An HTTP/1.1 request needs a Host header field.")
        }

        let transferEncodings = current.transferEncodings
        let contentLengths = current.contentLengths
        if !transferEncodings.isEmpty {
            if !contentLengths.isEmpty {
                throw HTTP1Error(.badRequest, "Both Transfer-Encoding and Content-Length.")
            }
            if current.version == .http10 {
                throw HTTP1Error(.badRequest, "Transfer-Encoding in an HTTP/1.0 request.")
            }
            try Self.checkTransferEncoding(transferEncodings)
            chunked = Self.makeChunkedDecoder(limits)
            state = .chunked
        } else if !contentLengths.isEmpty {
            let length = try Self.parseContentLength(contentLengths)
            if length > limits.maximumBodyBytes { throw bodyTooLarge() }
            if length == 0 { return finish() }
            current.body.reserveCapacity(min(length, 1 << 20))
            state = .fixedBody(remaining: length)
        } else {
            return finish()
        }

        if current.version == .http11 && current.expectsContinue && input.isFullyConsumed {
            awaitingContinue = true
        }
        return nil
    }

    private mutating func finish() -> HTTPRequest {
        let request = HTTPRequest(
            method: current.method, target: current.target, version: current.version, headers: current.headers,
            body: current.body)
        current = Partial()
        state = .requestLine
        awaitingContinue = false
        return request
    }

    // MARK: - Errors

    private func requestLineTooLong(_ line: ArraySlice<UInt8>) -> HTTP1Error {
        let prefix = line.prefix(limits.maximumRequestLineLength)
        if let space = prefix.firstIndex(of: ASCII.space), space > prefix.startIndex,
            prefix[..<space].allSatisfy(ASCII.isTokenCharacter)
        {
            return HTTP1Error(.uriTooLong, "The request target is too long.")
        }
        return HTTP1Error(.badRequest, "The request line is too long.")
    }

    private func bodyTooLarge() -> HTTP1Error {
        HTTP1Error(.payloadTooLarge, "The body is larger than \(limits.maximumBodyBytes) bytes.")
    }
}
