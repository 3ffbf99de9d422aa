/// An incremental HTTP/1.1 response parser for a client: feed it bytes as they arrive, take events out in order.
///
/// ```swift
/// import TetherHTTP1
///
/// let receivedBytes = Array("HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\n{}".utf8)  // from the socket
/// var parser = HTTPResponseParser()
/// parser.expectResponse(to: .get)            // once per request sent, in order
/// parser.append(receivedBytes)
/// while let event = try parser.next() {
///     switch event {
///     case .informational: break             // 1xx: `100 Continue` means send the body now
///     case .head(let head): print(head.status)
///     case .body(let bytes): print(bytes.count, "bytes")
///     case .end: print("done; reusable:", parser.isReusable)
///     }
/// }
/// // when the connection closes: `try parser.finish()` ends a body that runs to the close
/// ```
///
/// Bytes may arrive in any split: `append(_:)` only buffers, and `next()` parses as far as the bytes allow.
///
/// What it accepts (RFC 9112):
/// - A status line `HTTP/1.x SP 3DIGIT [SP reason]`; the reason may be empty or missing. Lines end with CRLF or a
///   bare LF.
/// - Header fields as the request parser reads them (no line folding, no whitespace before the colon), kept in
///   order with repeated fields as separate entries.
/// - 1xx responses (but 101) are reported as ``Event/informational(_:)`` and skipped; the final response follows.
/// - The body's framing (§6.3): none for a response to HEAD, 1xx, 204 and 304; chunked when `chunked` is the last
///   transfer coding (extensions ignored, trailer fields kept and reported with ``Event/end(trailers:)``); until
///   the close when `Transfer-Encoding` names other codings or neither `Transfer-Encoding` nor `Content-Length`
///   is present; else `Content-Length` (every value the same decimal number). 101 ends the exchange: the
///   connection is no longer HTTP.
///
/// Limits (``Limits``, the request parser's defaults): the status line, the header (and trailer) bytes and the
/// body. A response over one, or malformed, throws an ``HTTP1Error`` with status 502 (a gateway's answer to a bad
/// upstream response); a body over the limit throws 413, before any byte of it when `Content-Length` says so.
/// After an error the parser stays failed.
public struct HTTPResponseParser: Sendable {
    /// Limits on one response.
    public struct Limits: Sendable, Hashable {
        /// The longest status line, without the line end.
        public var maximumStatusLineLength: Int
        /// The most bytes of header fields (each field line with its line end); trailers count the same.
        public var maximumHeaderBytes: Int
        /// The largest body (Content-Length, chunked total or read until close), else 413.
        public var maximumBodyBytes: Int

        public init(
            maximumStatusLineLength: Int = 8 * 1024, maximumHeaderBytes: Int = 16 * 1024,
            maximumBodyBytes: Int = 10 * 1024 * 1024
        ) {
            self.maximumStatusLineLength = maximumStatusLineLength
            self.maximumHeaderBytes = maximumHeaderBytes
            self.maximumBodyBytes = maximumBodyBytes
        }
    }

    /// What the parser found next.
    public enum Event: Sendable, Hashable {
        /// An interim 1xx response (not 101); the final one follows.
        case informational(HTTPResponseHead)
        /// The final response's head.
        case head(HTTPResponseHead)
        /// Some of the body, as it arrived (never empty).
        case body([UInt8])
        /// The end of the response, with the trailer fields of a chunked body (empty otherwise).
        case end(trailers: HTTPHeaders)
    }

    /// How the current body is delimited, once its head has been read.
    public enum Framing: Sendable, Hashable {
        case none
        case contentLength(Int)
        case chunked
        case untilClose
    }

    public let limits: Limits

    private enum State: Sendable {
        case statusLine
        case headers
        case fixedBody(remaining: Int)
        /// A chunked body, read by ``chunked``.
        case chunked
        case untilClose
        /// The body has been returned whole; the end follows.
        case bodyEnd
        /// After a 101 or a response delimited by the close: nothing more may be read.
        case done
        case failed(HTTP1Error)
    }

    /// Received bytes and the line scanning over them (shared with the request parser).
    private var input = FramingBuffer()
    private var state = State.statusLine
    private var head = HTTPResponseHead(status: .ok)
    private var headerBytes = 0
    private var bodyBytes = 0
    /// The chunked body being read (the state machine shared with the request parser).
    private var chunked: ChunkedDecoder
    /// The methods of the requests sent whose responses have not begun, oldest first.
    private var methods: [HTTPMethod] = []
    private var framing = Framing.none
    private var reusable = true

    public init(limits: Limits = Limits()) {
        self.limits = limits
        chunked = Self.makeChunkedDecoder(limits)
    }

    /// A decoder for one chunked response body: malformed framing and trailers over the header limit are 502, a
    /// body over its limit 413; trailer fields are kept for ``Event/end(trailers:)``.
    private static func makeChunkedDecoder(_ limits: Limits) -> ChunkedDecoder {
        ChunkedDecoder(
            maximumBodyBytes: limits.maximumBodyBytes, maximumTrailerBytes: limits.maximumHeaderBytes,
            keepsTrailers: true,
            failures: .init(
                malformed: badResponse, trailersTooLarge: badResponse, remapsGrammarErrors: true,
                bodyTooLarge: HTTP1Error(
                    .payloadTooLarge, "The response body is larger than \(limits.maximumBodyBytes) bytes.")))
    }

    /// Records that a request with `method` was sent: its response has no body when it is `HEAD`. Call once per
    /// request, in the order they were sent; without a call the response is read as one to `GET`.
    public mutating func expectResponse(to method: HTTPMethod) {
        methods.append(method)
    }

    /// Adds bytes received from the connection; ignored after a failure.
    public mutating func append(_ bytes: some Sequence<UInt8>) {
        if case .failed = state { return }
        input.append(bytes)
    }

    /// The next event, or `nil` when more bytes are needed.
    ///
    /// - Throws: ``HTTP1Error`` (502 malformed or over a limit, 413 body too large); every later call throws the
    ///   same error.
    public mutating func next() throws(HTTP1Error) -> Event? {
        if case .failed(let error) = state { throw error }
        do {
            return try parse()
        } catch {
            fail(error)
            throw error
        }
    }

    /// The connection closed: ends a body that runs until the close, and reports a response cut short.
    ///
    /// Returns ``Event/end(trailers:)`` for a body delimited by the close (after any buffered body bytes were
    /// taken with ``next()``), `nil` when no response was in progress.
    ///
    /// - Throws: ``HTTP1Error`` (502) when the close came in the middle of a response.
    public mutating func finish() throws(HTTP1Error) -> Event? {
        if case .failed(let error) = state { throw error }
        switch state {
        case .statusLine where input.isFullyConsumed, .done:
            return nil
        case .untilClose where input.isFullyConsumed:
            state = .done
            reusable = false
            return .end(trailers: [:])
        default:
            let error = HTTP1Error(Self.badResponse, "The connection closed before the response was complete.")
            fail(error)
            throw error
        }
    }

    /// Whether the connection can carry another request after the response that just ended: its head allowed
    /// keep-alive and its body was not delimited by the close.
    public var isReusable: Bool {
        guard case .statusLine = state else { return false }
        return reusable
    }

    /// Whether no response is in progress and no bytes are buffered (a connection in this state is idle).
    public var isIdle: Bool {
        guard case .statusLine = state else { return false }
        return input.isFullyConsumed
    }

    /// The framing of the response being read (``Framing/none`` before its head).
    public var currentFraming: Framing { framing }

    /// The error the parser failed with, or `nil`.
    public var failure: HTTP1Error? {
        if case .failed(let error) = state { return error }
        return nil
    }

    /// The status used for malformed responses: what a gateway answers for a bad upstream response.
    static let badResponse = HTTPStatus(code: 502)

    // MARK: - Buffer

    private mutating func fail(_ error: HTTP1Error) {
        state = .failed(error)
        input.reset()
        reusable = false
    }

    /// Runs a grammar function of the request parser on the bytes in `range`, turning its error into a 502.
    private func withBytes<R>(
        _ range: Range<Int>, _ body: (UnsafeBufferPointer<UInt8>) throws(HTTP1Error) -> R
    ) throws(HTTP1Error) -> R {
        do {
            return try input.withBytes(range, body)
        } catch {
            throw HTTP1Error(Self.badResponse, error.message)
        }
    }

    // MARK: - States

    private mutating func parse() throws(HTTP1Error) -> Event? {
        while true {
            switch state {
            case .statusLine:
                guard let (content, next) = input.nextLine() else {
                    if input.unconsumedCount > limits.maximumStatusLineLength + 1 {
                        throw HTTP1Error(Self.badResponse, "The status line is too long.")
                    }
                    return nil
                }
                if content.isEmpty {
                    input.consume(to: next)
                    continue
                }
                if content.count > limits.maximumStatusLineLength {
                    throw HTTP1Error(Self.badResponse, "The status line is too long.")
                }
                let (version, status) = try withBytes(content, Self.parseStatusLine)
                head = HTTPResponseHead(version: version, status: status)
                headerBytes = 0
                bodyBytes = 0
                framing = .none
                input.consume(to: next)
                state = .headers

            case .headers:
                guard let (content, next) = input.nextLine() else {
                    if headerBytes + input.pendingLineLength > limits.maximumHeaderBytes {
                        throw HTTP1Error(Self.badResponse, "The header fields are too large.")
                    }
                    return nil
                }
                if content.isEmpty {
                    input.consume(to: next)
                    return try beginBody()
                }
                headerBytes += next - input.readIndex
                if headerBytes > limits.maximumHeaderBytes {
                    throw HTTP1Error(Self.badResponse, "The header fields are too large.")
                }
                let field = try withBytes(content, HTTPRequestParser.parseField)
                head.headers.add(field.name, field.value)
                input.consume(to: next)

            case .fixedBody(let remaining):
                guard let bytes = input.take(upTo: remaining) else { return nil }
                state = bytes.count == remaining ? .bodyEnd : .fixedBody(remaining: remaining - bytes.count)
                return .body(bytes)

            case .bodyEnd:
                state = .statusLine
                return .end(trailers: [:])

            case .chunked:
                switch try chunked.next(&input) {
                case .needsMore: return nil
                case .data(let bytes): return .body(bytes)
                case .end(let trailers):
                    state = .statusLine
                    return .end(trailers: trailers)
                }

            case .untilClose:
                let available = input.unconsumedCount
                if available == 0 { return nil }
                // Up to the limit first, then the error: the same events whatever the split.
                let allowed = min(available, limits.maximumBodyBytes - bodyBytes)
                if allowed == 0 { throw bodyTooLarge() }
                bodyBytes += allowed
                return input.take(upTo: allowed).map(Event.body)

            case .done:
                return nil

            case .failed(let error):
                throw error
            }
        }
    }

    /// Picks the framing once the head's blank line is read; returns the event for the head.
    private mutating func beginBody() throws(HTTP1Error) -> Event {
        let code = head.status.code
        if (100..<200).contains(code) && code != 101 {
            state = .statusLine
            return .informational(head)
        }
        let method = methods.isEmpty ? HTTPMethod.get : methods.removeFirst()
        reusable = head.keepAlive
        bodyBytes = 0
        if code == 101 {
            // The connection now speaks another protocol: this parser reads no more of it.
            framing = .none
            reusable = false
            state = .done
            return .head(head)
        }
        framing = try Self.framing(of: head, method: method)
        if framing == .chunked && head.headers.contains("Content-Length") {
            // Transfer-Encoding overrides it (RFC 9112 §6.3), but the connection is not to be trusted after.
            reusable = false
        }
        switch framing {
        case .none, .contentLength(0):
            state = .bodyEnd
        case .contentLength(let length):
            if length > limits.maximumBodyBytes { throw bodyTooLarge() }
            state = .fixedBody(remaining: length)
        case .chunked:
            chunked = Self.makeChunkedDecoder(limits)
            state = .chunked
        case .untilClose:
            reusable = false
            state = .untilClose
        }
        return .head(head)
    }

    private func bodyTooLarge() -> HTTP1Error {
        HTTP1Error(.payloadTooLarge, "The response body is larger than \(limits.maximumBodyBytes) bytes.")
    }
}
