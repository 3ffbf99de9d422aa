import TetherHTTP1

/// Where a request goes, resolved as json-server's Express router does: `/db`, then the nested rewrites
/// (`GET|POST /:resource/:id/:nested` → `/:nested` with `<singular(resource)>Id=:id`, and
/// `GET|PUT|DELETE /:resource/:id/:nested/:nestedId` → `/:nested/:nestedId`), then the resources by name
/// (ignoring case).
enum JSONServerRoute: Sendable {
    /// `GET /db`.
    case database
    /// `/<collection>`, with the foreign key a nested route adds to the query (GET) or body (POST).
    case collection(String, nested: (key: String, value: String)?)
    /// `/<collection>/<id>`.
    case item(String, id: String)
    /// `/<singular>`, with the foreign key a nested POST adds to the body.
    case singular(String, nested: (key: String, value: String)?)
    /// Anything else: 404 `{}`.
    case unknown

    init(method: HTTPMethod, segments: [String], state: DatabaseState, suffix: String) {
        var segments = segments
        var nested: (key: String, value: String)?
        if method == .get && segments == ["db"] {
            self = .database
            return
        }
        if segments.count == 3 && (method == .get || method == .head || method == .post) {
            nested = (Pluralizer.singular(segments[0]) + suffix, segments[1])
            segments = [segments[2]]
        } else if segments.count == 4 && [.get, .head, .put, .delete].contains(method) {
            segments = [segments[2], segments[3]]
        }
        guard let first = segments.first, let name = state.resolve(first), let kind = state.kind(of: name) else {
            self = .unknown
            return
        }
        switch (kind, segments.count) {
        case (.collection, 1): self = .collection(name, nested: nested)
        case (.collection, 2): self = .item(name, id: segments[1])
        case (.singular, 1): self = .singular(name, nested: nested)
        default: self = .unknown
        }
    }

    /// Whether json-server's `_delay` applies (the resource routers, not `/db` or a 404).
    var isResource: Bool {
        switch self {
        case .collection, .item, .singular: true
        case .database, .unknown: false
        }
    }
}
