public import TetherHTTP1
import TetherJSON

/// A json-server 0.17 compatible REST API over a ``JSONDatabase``, as an ``HTTPResponder``.
///
/// It answers like json-server on the same data (routes, filters, `q`, `_sort`/`_order`, `_page`/`_limit` with
/// `X-Total-Count` and `Link`, `_start`/`_end`, `_embed`/`_expand`, nested routes, max+1 ids, cascade deletes,
/// `404 {}`, CORS, `_delay`, bodies pretty-printed as `JSON.stringify(value, null, 2)`), and better on purpose:
///
/// - a malformed JSON body gets `400` (the message gives line and column), a body that is not an object `400`,
///   and a POSTed id that is taken `409`, each with a JSON error, instead of a 500 stack trace;
/// - every `200` JSON response has a strong `ETag` (an item's is the hash of its plain `GET` body) instead of
///   Express's weak one, `If-None-Match` gives `304`, and `If-Match` on `PUT`/`PATCH`/`DELETE` gives `412`
///   when the item changed;
/// - an `Idempotency-Key` on a write makes a retry replay the first response (`Idempotent-Replayed: true`)
///   without applying it again; the same key on a different request gets `422`.
///
/// ```swift
/// import Foundation
/// import TetherHTTP1
/// import TetherServer
///
/// let dbURL = URL(fileURLWithPath: "db.json")
/// let database = try JSONDatabase(contentsOf: dbURL, mode: .persistent(dbURL))
/// let responder = JSONServerResponder(database: database)
/// let response = await responder.respond(to: HTTPRequest(method: .get, target: "/posts/1"))
/// ```
///
/// - Thread safety: `respond(to:)` may be called from many tasks at once. Reads run concurrently on the latest
///   published version; writes are serialized by the database actor.
/// - `HEAD` is answered like `GET`, body included: the server sends only the head.
public final class JSONServerResponder: HTTPResponder {
    /// Options.
    public struct Configuration: Sendable {
        /// Whether paths that name no resource get json-server's `404 {}` (`true`) or `nil`, so that a responder
        /// after this one can answer them.
        public var claimsUnknownPaths = true
        /// The longest `_delay` honoured; longer requests wait this long. json-server has no bound.
        public var maximumDelay: Duration = .seconds(60)
        /// Whether responses carry `X-Powered-By: Express`, as json-server's do.
        public var sendsPoweredBy = true

        public init() {}
    }

    /// The data served.
    public let database: JSONDatabase
    /// The options.
    public let configuration: Configuration

    public init(database: JSONDatabase, configuration: Configuration = Configuration()) {
        self.database = database
        self.configuration = configuration
    }

    /// `true`: reads are computed from the published version in memory (and cached); writes and their disk work
    /// run on the database's own queue (``JSONDatabase`` is an actor with an executor of its own), so nothing here
    /// blocks.
    public var runsOnEventLoop: Bool { true }

    public func respond(to request: HTTPRequest) async -> HTTPResponse? {
        // A read this version has already answered for this target and host: served from the version's read
        // cache without routing again (an entry exists only for a target that routed to a read). Not with
        // `_delay`, whose wait could outlast the version.
        if request.method == .get || request.method == .head, !request.targetMayContain("_delay"),
            let cached = database.snapshot.reads.response(for: Self.readCacheKey(for: request))
        {
            return finish(cached, for: request)
        }
        var method = request.method
        if method == .post, let override = request.headers["X-HTTP-Method-Override"], !override.isEmpty {
            method = HTTPMethod(override.uppercased())
        }
        let state = database.snapshot
        let segments = HTTPTarget(request.target).pathSegments ?? []
        let route = JSONServerRoute(
            method: method, segments: segments, state: state, suffix: database.foreignKeySuffix)
        if case .unknown = route, !configuration.claimsUnknownPaths { return nil }

        if method == .options { return preflight(request) }
        if database.mode == .readOnly && ![.get, .head].contains(method) {
            return finish(JSONServerBody.error(.forbidden, "the database is read-only"), for: request)
        }
        let response: HTTPResponse
        switch (route, method) {
        case (.database, _):
            response = JSONServerBody.response(.object(state.root), tagged: true)
        case (.collection, .get), (.collection, .head), (.item, .get), (.item, .head), (.singular, .get),
            (.singular, .head):
            await delay(request)
            response = read(route, request: request, state: database.snapshot)
        case (.collection, .post), (.item, .put), (.item, .patch), (.item, .delete), (.singular, .post),
            (.singular, .put), (.singular, .patch):
            response = await write(route, method: method, request: request)
        default:
            response = JSONServerBody.notFound
        }
        return finish(response, for: request)
    }

    /// Waits `_delay` milliseconds (json-server reads it with `parseFloat`), at most
    /// ``Configuration/maximumDelay``.
    func delay(_ request: HTTPRequest) async {
        guard let text = request.queryItems.first(where: { $0.name == "_delay" })?.value,
            let milliseconds = Self.parseFloat(text), milliseconds > 0
        else { return }
        let wanted = Duration.microseconds(Int64(min(milliseconds, 1e12) * 1000))
        try? await Task.sleep(for: min(wanted, configuration.maximumDelay))
    }

    /// JavaScript's `parseFloat`: the longest leading decimal number, or `nil`.
    static func parseFloat(_ text: String) -> Double? {
        var prefix = Substring(text.trimmingJSWhitespace())
        while !prefix.isEmpty {
            if let value = Double(prefix), value.isFinite || prefix.hasSuffix("Infinity") { return value }
            prefix = prefix.dropLast()
        }
        return nil
    }

    /// The request's URL as json-server's `getFullURL` builds it: `http://` + `Host` + the target as sent.
    static func fullURL(of request: HTTPRequest) -> String {
        let target = HTTPTarget(request.target)
        let pathAndQuery =
            request.target.hasPrefix("/")
            ? request.target : String(target.rawPath) + (target.rawQuery.map { "?" + $0 } ?? "")
        return "http://" + (request.headers["Host"] ?? "") + pathAndQuery
    }
}
