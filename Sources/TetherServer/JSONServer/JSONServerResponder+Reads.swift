import TetherHTTP1
import TetherJSON

extension JSONServerResponder {
    /// `GET` of a collection (filtered, sorted, sliced, related), an item or a singular resource.
    ///
    /// The response is a function of the state, the request target and the `Host` header (the `Link` URLs of a
    /// page repeat it), so it is computed once per state and target and then served from the state's
    /// ``ReadCache``: body bytes and `ETag` included.
    func read(_ route: JSONServerRoute, request: HTTPRequest, state: DatabaseState) -> HTTPResponse {
        let key = Self.readCacheKey(for: request)
        if let cached = state.reads.response(for: key) { return cached }
        let response = uncachedRead(route, request: request, state: state)
        state.reads.store(response, for: key)
        return response
    }

    /// The ``ReadCache`` key of a read: the target, a NUL (which a target cannot hold) and the `Host` header.
    static func readCacheKey(for request: HTTPRequest) -> String {
        request.target + "\u{0}" + (request.headers["Host"] ?? "")
    }

    private func uncachedRead(_ route: JSONServerRoute, request: HTTPRequest, state: DatabaseState) -> HTTPResponse {
        let suffix = database.foreignKeySuffix
        switch route {
        case .collection(let name, let nested):
            guard let elements = state.collection(name) else { return JSONServerBody.notFound }
            let query = ListQuery(request.queryItems, injected: nested)
            let filtered: [JSON]
            do {
                filtered = try query.filter(elements)
            } catch {
                return JSONServerBody.error(
                    .badRequest, "the _like pattern '\(error.pattern)' is not a valid regular expression")
            }
            let (page, headers) = query.paginate(query.sorted(filtered), fullURL: Self.fullURL(of: request))
            let related = Relations.apply(
                to: page, of: name, embeds: query.embeds, expands: query.expands, in: state, suffix: suffix)
            return JSONServerBody.response(.array(related), headers: headers, tagged: true)

        case .item(let name, let id):
            guard var item = state.item(in: name, id: id)?.item else { return JSONServerBody.notFound }
            let query = ListQuery(request.queryItems)
            Relations.embed(&item, of: name, query.embeds, in: state, suffix: suffix)
            Relations.expand(&item, query.expands, in: state, suffix: suffix)
            return JSONServerBody.response(.object(item), tagged: true)

        case .singular(let name, _):
            guard var object = state.singular(name) else { return JSONServerBody.notFound }
            let query = ListQuery(request.queryItems)
            Relations.expand(&object, query.expands, in: state, suffix: suffix)
            Relations.embed(&object, of: name, query.embeds, in: state, suffix: suffix)
            return JSONServerBody.response(.object(object), tagged: true)

        case .database, .unknown:
            return JSONServerBody.notFound
        }
    }
}
