public import TetherHTTP1

/// Something that answers HTTP requests: the json-server REST engine, the Rakuten item search, the image route.
///
/// The server asks its responders in order and sends the first response it gets.
///
/// - Thread safety: `respond(to:)` is called concurrently from many connections. It runs as a task on threads of
///   the server's that are added as others block (not the Swift concurrency pool's), so it may block, unless the
///   responder declares ``runsOnEventLoop``.
public protocol HTTPResponder: Sendable {
    /// The response to `request`, or `nil` when the request is not for this responder.
    func respond(to request: HTTPRequest) async -> HTTPResponse?

    /// Whether ``respond(to:)`` may run on the server's event loop, which saves two thread switches per request.
    ///
    /// `true` is a promise: the code of ``respond(to:)`` never blocks its thread and does little work between
    /// suspensions (no file or network I/O, no sleeping, no long computation), because while it runs no other
    /// connection of the loop is served. Work that may block or take long belongs on an actor with an executor of
    /// its own, or on an executor of threads that may block. The server runs a request's
    /// responders on the loop only when all of them say `true` (on Linux); otherwise, and by default (`false`),
    /// they run on threads where blocking is allowed.
    var runsOnEventLoop: Bool { get }
}

extension HTTPResponder {
    /// `false`: the responder runs on threads where it may block.
    public var runsOnEventLoop: Bool { false }
}
