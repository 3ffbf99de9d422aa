import TetherHTTP1

/// What one connection of the event-loop server does next, decided with no I/O: bytes, responses finished and
/// timers go in, ``Action``s come out, and the connection's handler performs them.
///
/// Invariants, which the tests check after every step:
/// - at most one request is with the responders at a time, and requests are handed over in the order they
///   arrived, so pipelined requests are answered in order;
/// - exactly one deadline is running whenever the connection is open and no request is with the responders: the
///   header timeout from accept and from a request's first byte (restarted when `100 Continue` is sent), or the
///   idle timeout between kept-alive requests;
/// - a connection that has sent nothing, or is idle between requests, has no request in progress (it may be closed
///   to make room for another), and once closing nothing else happens.
struct ConnectionStateMachine {
    enum Phase: Equatable {
        /// Accepted; not a byte received yet.
        case fresh
        /// Between kept-alive requests.
        case idle
        /// Part of a request has arrived.
        case receiving
        /// A request is with the responders or its response is being written.
        case responding
        /// Closed or closing: every later event is ignored.
        case closed
    }

    /// The deadline to run.
    enum Timer: Equatable {
        /// The request (or, on a fresh connection, its first byte) must arrive within the header timeout.
        case header
        /// A kept-alive connection may wait this long for its next request.
        case idle
    }

    enum Action {
        /// Send `100 Continue`.
        case sendContinue
        /// Hand the request to the responders; ``responseFinished(keepAlive:)`` follows once it is written.
        case respond(HTTPRequest)
        /// Answer with this status and a JSON error, then close.
        case fail(HTTPStatus, String)
        /// Close without a word.
        case close
        /// The response just written was the last: close once it has gone out, letting the client read it.
        case closeAfterResponse
        /// Run this deadline from now (replacing any other), or none.
        case startTimer(Timer?)
        /// Stop (`true`) or resume (`false`) reading from the socket.
        case pauseReading(Bool)
    }

    /// Bytes buffered beyond the request being answered after which reading pauses until it is done.
    static let pipelineBufferLimit = 64 * 1024

    private(set) var phase = Phase.fresh
    private var parser: HTTPRequestParser
    /// Bytes received while a request is being answered.
    private var bufferedWhileResponding = 0
    private var readingPaused = false
    /// Once set, the connection closes after the request in progress instead of waiting for another.
    private(set) var isDraining = false

    init(limits: HTTPRequestParser.Limits) {
        parser = HTTPRequestParser(limits: limits)
    }

    /// Whether a request is arriving or being answered (so the connection is not closed to make room).
    var hasRequestInProgress: Bool { phase == .receiving || phase == .responding }

    /// The actions for a just-accepted connection: the header timeout runs until its first byte.
    static func accepted(limits: HTTPRequestParser.Limits) -> (ConnectionStateMachine, [Action]) {
        (ConnectionStateMachine(limits: limits), [.startTimer(.header)])
    }

    /// Bytes arrived from the client.
    mutating func received(_ bytes: UnsafeRawBufferPointer) -> [Action] {
        switch phase {
        case .closed:
            return []
        case .responding:
            parser.append(bytes)
            bufferedWhileResponding += bytes.count
            if !readingPaused && bufferedWhileResponding > ConnectionStateMachine.pipelineBufferLimit {
                readingPaused = true
                return [.pauseReading(true)]
            }
            return []
        case .fresh, .idle:
            phase = .receiving
            parser.append(bytes)
            return [.startTimer(.header)] + advance()
        case .receiving:
            parser.append(bytes)
            return advance()
        }
    }

    /// The response to the request handed over with ``Action/respond(_:)`` has been written; `keepAlive` says
    /// whether the connection stays open for another.
    mutating func responseFinished(keepAlive: Bool) -> [Action] {
        guard phase == .responding else { return [] }
        guard keepAlive, !isDraining else {
            phase = .closed
            return [.closeAfterResponse]
        }
        bufferedWhileResponding = 0
        var actions: [Action] = []
        if readingPaused {
            readingPaused = false
            actions.append(.pauseReading(false))
        }
        phase = .receiving
        actions += advance()
        if phase == .receiving && parser.isIdle {
            // Nothing of the next request yet: the connection is idle, and holds no buffer.
            parser.releaseBuffer()
            phase = .idle
            actions.append(.startTimer(.idle))
        } else if phase == .receiving {
            actions.append(.startTimer(.header))
        }
        return actions
    }

    /// The running deadline passed.
    mutating func timerFired() -> [Action] {
        switch phase {
        case .fresh, .idle:
            phase = .closed
            return [.close]
        case .receiving:
            phase = .closed
            return [.fail(.requestTimeout, "the request did not arrive in time")]
        case .responding, .closed:
            return []
        }
    }

    /// The server is shutting down: an idle connection closes now, a busy one after its request.
    mutating func drain() -> [Action] {
        isDraining = true
        switch phase {
        case .fresh, .idle:
            phase = .closed
            return [.close]
        default:
            return []
        }
    }

    /// The connection is closed to make room for another, unless a request is in progress: then it closes after it.
    mutating func evict() -> [Action] {
        drain()
    }

    /// The connection closed (by the peer, an error, or this side).
    mutating func closed() {
        phase = .closed
    }

    /// Takes the next complete request out of the parser, or fails, or sends `100 Continue`.
    private mutating func advance() -> [Action] {
        do {
            if let request = try parser.nextRequest() {
                phase = .responding
                bufferedWhileResponding = 0
                return [.startTimer(nil), .respond(request)]
            }
        } catch {
            phase = .closed
            return [.fail(error.status, error.message)]
        }
        if parser.isAwaitingContinue {
            parser.continueSent()
            return [.sendContinue, .startTimer(.header)]
        }
        return []
    }
}
