/// The chunked transfer coding with its trailer section (RFC 9112 §7.1), read from a ``FramingBuffer``: the one
/// state machine that ``HTTPRequestParser`` and ``HTTPResponseParser`` share.
///
/// The two directions differ only in their errors (``Failures``: a request's are 400, 413 and 431, a response's
/// 502 and 413) and in what they do with the data and the trailers (a request buffers its body and drops its
/// trailer fields; a response streams its body and hands the trailers over).
struct ChunkedDecoder {
    /// The errors of one direction.
    struct Failures {
        /// The status of a malformed chunk line, chunk end or trailer field.
        var malformed: HTTPStatus
        /// The status of trailer fields larger than the limit.
        var trailersTooLarge: HTTPStatus
        /// Whether errors of the grammar functions (a chunk size, a field) take ``malformed`` as their status
        /// (a response's) or keep their own (a request's).
        var remapsGrammarErrors: Bool
        /// The error of a body larger than the limit.
        var bodyTooLarge: HTTP1Error
    }

    /// What the decoder found.
    enum Step {
        /// More bytes are needed.
        case needsMore
        /// Body bytes (part of a chunk).
        case data([UInt8])
        /// The last chunk and the trailer section have been read: the body is complete.
        case end(trailers: HTTPHeaders)
    }

    private enum State {
        case size
        case data(remaining: Int)
        case dataEnd
        case trailers
    }

    private var state = State.size
    /// The body bytes announced by the chunk sizes read so far.
    private(set) var bodyBytes = 0
    private var trailerBytes = 0
    private var trailers = HTTPHeaders()
    private let maximumBodyBytes: Int
    private let maximumTrailerBytes: Int
    private let keepsTrailers: Bool
    private let failures: Failures

    init(maximumBodyBytes: Int, maximumTrailerBytes: Int, keepsTrailers: Bool, failures: Failures) {
        self.maximumBodyBytes = maximumBodyBytes
        self.maximumTrailerBytes = maximumTrailerBytes
        self.keepsTrailers = keepsTrailers
        self.failures = failures
    }

    /// Reads from `input` as far as it can: body bytes, the end, or the need for more.
    mutating func next(_ input: inout FramingBuffer) throws(HTTP1Error) -> Step {
        while true {
            switch state {
            case .size:
                guard let (content, next) = input.nextLine() else {
                    if input.unconsumedCount > HTTPRequestParser.maximumChunkLineLength + 1 {
                        throw malformed("A chunk-size line is too long.")
                    }
                    return .needsMore
                }
                if content.count > HTTPRequestParser.maximumChunkLineLength {
                    throw malformed("A chunk-size line is too long.")
                }
                let size = try grammar { () throws(HTTP1Error) in
                    try input.withBytes(content, HTTPRequestParser.parseChunkSize)
                }
                input.consume(to: next)
                if size == 0 {
                    trailerBytes = 0
                    state = .trailers
                } else {
                    if size > maximumBodyBytes - bodyBytes { throw failures.bodyTooLarge }
                    bodyBytes += size
                    state = .data(remaining: size)
                }

            case .data(let remaining):
                guard let bytes = input.take(upTo: remaining) else { return .needsMore }
                state = bytes.count < remaining ? .data(remaining: remaining - bytes.count) : .dataEnd
                return .data(bytes)

            case .dataEnd:
                let available = input.unconsumedCount
                if available == 0 { return .needsMore }
                if input[input.readIndex] == ASCII.lf {
                    input.consume(to: input.readIndex + 1)
                } else if input[input.readIndex] == ASCII.cr {
                    if available < 2 { return .needsMore }
                    guard input[input.readIndex + 1] == ASCII.lf else {
                        throw malformed("Chunk data does not end with a line end.")
                    }
                    input.consume(to: input.readIndex + 2)
                } else {
                    throw malformed("Chunk data does not end with a line end.")
                }
                state = .size

            case .trailers:
                guard let (content, next) = input.nextLine() else {
                    if trailerBytes + input.pendingLineLength > maximumTrailerBytes { throw trailersTooLarge() }
                    return .needsMore
                }
                if content.isEmpty {
                    input.consume(to: next)
                    let found = trailers
                    self = ChunkedDecoder(
                        maximumBodyBytes: maximumBodyBytes, maximumTrailerBytes: maximumTrailerBytes,
                        keepsTrailers: keepsTrailers, failures: failures)
                    return .end(trailers: found)
                }
                trailerBytes += next - input.readIndex
                if trailerBytes > maximumTrailerBytes { throw trailersTooLarge() }
                let field = try grammar { () throws(HTTP1Error) in
                    try input.withBytes(content, HTTPRequestParser.parseField)
                }
                input.consume(to: next)
                if keepsTrailers { trailers.add(field.name, field.value) }
            }
        }
    }

    private func malformed(_ message: String) -> HTTP1Error {
        HTTP1Error(failures.malformed, message)
    }

    private func trailersTooLarge() -> HTTP1Error {
        HTTP1Error(failures.trailersTooLarge, "The trailer fields are too large.")
    }

    /// Runs a grammar function, giving its error the direction's status when the direction asks for it.
    private func grammar<R>(_ body: () throws(HTTP1Error) -> R) throws(HTTP1Error) -> R {
        do {
            return try body()
        } catch {
            throw failures.remapsGrammarErrors ? HTTP1Error(failures.malformed, error.message) : error
        }
    }
}
