public import TetherHTTP1
import TetherJSON

/// The Rakuten Ichiba Item Search API (`GET /services/api/IchibaItem/Search/20170706` and `/20220601`) on a
/// generated ``RakutenCatalog``, following the reference in `shared/reference/rakuten-ichiba-item-search.md`.
///
/// It also answers the 2026 gateway's path, `/ichibams/api/IchibaItem/Search/{20220601,20260401,20260701}`,
/// which needs an access key besides the application id: the `accessKey` query item or
/// `Authorization: Bearer <key>` (any non-empty key). Without one the gateway's own error shape comes back:
/// 400 `{"errors": {"errorCode": 400, "errorMessage": "accessKey must be present as a query parameter or in the
/// header"}}`. With ``Configuration/gatewayOrigins`` set it also checks `Origin`/`Referer` as the gateway does for web
/// applications (403 `REQUEST_CONTEXT_BODY_HTTP_REFERRER_MISSING`). The 2026 versions answer as 20220601 does.
///
/// It answers every path below `/services/api/` and `/ichibams/api/` (an unknown API or version gets 404
/// `not_found`) and returns `nil` for any other path. Checks run in this order: path, method, the access key (on
/// the gateway's path), `applicationId`, rate limit, then the search parameters (see `RakutenSearchQuery`), so
/// the first problem found is the one reported.
///
/// ```swift
/// import TetherHTTP1
/// import TetherServer
///
/// let search = RakutenSearchResponder(catalog: RakutenCatalog(seed: 1))
/// let response = await search.respond(to: HTTPRequest(
///     method: .get, target: "/services/api/IchibaItem/Search/20220601?applicationId=1&keyword=%E7%B7%91%E8%8C%B6",
///     headers: ["Host": "127.0.0.1:3000"]))
/// ```
///
/// Decisions where the reference leaves room:
/// - `elements` filters the item fields only; the top-level paging keys are always present.
/// - A page past the last match (but within 1…100) is 200 with the total `count` and no items (`first` and
///   `last` 0). A search without matches is the API's empty body.
/// - `GenreInformation` and `TagInformation` are always empty arrays (the information flags are accepted).
/// - `format=xml` is 400; `callback` gives JSONP as `text/javascript`.
///
/// - Thread safety: `respond(to:)` may be called concurrently; the rate limiter is the only shared state.
public struct RakutenSearchResponder: HTTPResponder {
    /// Rate limit, accepted application ids and time source.
    public struct Configuration: Sendable {
        /// The least time between two admitted requests with the same `applicationId`; `nil` for no limit.
        public var rateLimit: Duration?
        /// The application ids to accept; `nil` accepts any well-formed id (1–128 letters, digits, `-`, `_`).
        public var applicationIDs: Set<String>?
        /// The current time, for the rate limit (inject a manual clock in tests).
        public var now: @Sendable () -> ContinuousClock.Instant
        /// The sites a web application is registered for, as origins (`https://shop.example`): when set, the
        /// gateway's path answers 403 `REQUEST_CONTEXT_BODY_HTTP_REFERRER_MISSING` unless `Origin` is one of them
        /// or `Referer` starts with one. `nil` (the default) checks nothing, as for apps not registered as web
        /// applications.
        public var gatewayOrigins: Set<String>?

        public init(
            rateLimit: Duration? = .seconds(1), applicationIDs: Set<String>? = nil,
            now: @escaping @Sendable () -> ContinuousClock.Instant = { ContinuousClock.now },
            gatewayOrigins: Set<String>? = nil
        ) {
            self.rateLimit = rateLimit
            self.applicationIDs = applicationIDs
            self.now = now
            self.gatewayOrigins = gatewayOrigins
        }
    }

    /// The path prefix of the search endpoints.
    public static let pathPrefix = "/services/api/IchibaItem/Search/"
    /// The path prefix of the search endpoints on the 2026 gateway (`https://openapi.rakuten.co.jp`).
    public static let gatewayPathPrefix = "/ichibams/api/IchibaItem/Search/"
    /// The versions the gateway's path answers.
    public static let gatewayVersions: Set<String> = ["20220601", "20260401", "20260701"]

    public let catalog: RakutenCatalog
    public let configuration: Configuration
    private let rateLimiter: RakutenRateLimiter?

    public init(catalog: RakutenCatalog = RakutenCatalog(), configuration: Configuration = Configuration()) {
        self.catalog = catalog
        self.configuration = configuration
        rateLimiter = configuration.rateLimit.map { RakutenRateLimiter(interval: $0, now: configuration.now) }
    }

    public func respond(to request: HTTPRequest) async -> HTTPResponse? {
        guard request.targetMayContain("/api/") else { return nil }
        guard let path = request.path, path.hasPrefix("/services/api/") || path.hasPrefix("/ichibams/api/") else {
            return nil
        }
        // A search over the catalog is computed off the event loop.
        let result = await withTaskExecutorPreference(ResponderTaskExecutor.shared) { answer(request, path: path) }
        switch result {
        case .success(let response): return response
        case .failure(let error): return error.response
        }
    }

    /// `true`: the path is matched on the loop, and a search is computed off it, on the server's responder threads.
    public var runsOnEventLoop: Bool { true }

    private func answer(_ request: HTTPRequest, path: String) -> Result<HTTPResponse, RakutenError> {
        let version: RakutenSearchQuery.Version
        let viaGateway = path.hasPrefix("/ichibams/")
        if viaGateway {
            guard path.hasPrefix(Self.gatewayPathPrefix),
                Self.gatewayVersions.contains(String(path.dropFirst(Self.gatewayPathPrefix.count)))
            else { return .failure(.notFound) }
            version = .v20220601
        } else {
            guard path.hasPrefix(Self.pathPrefix),
                let classic = RakutenSearchQuery.Version(rawValue: String(path.dropFirst(Self.pathPrefix.count)))
            else { return .failure(.notFound) }
            version = classic
        }
        guard request.method == .get || request.method == .head else {
            return .failure(RakutenError(status: .methodNotAllowed, code: "wrong_parameter", description: "GET only"))
        }
        let items = request.queryItems
        if viaGateway && !Self.hasAccessKey(request) { return .failure(.accessKeyMissing) }
        if viaGateway, let origins = configuration.gatewayOrigins, !Self.hasOrigin(request, in: origins) {
            return .failure(.referrerMissing)
        }
        guard let applicationID = items.first(where: { $0.name == "applicationId" })?.value,
            RakutenSearchQuery.isValidApplicationID(applicationID, allowed: configuration.applicationIDs)
        else { return .failure(.invalidApplicationID) }
        if let rateLimiter, !rateLimiter.admit(applicationID) { return .failure(.tooManyRequests) }
        let query: RakutenSearchQuery
        do {
            query = try RakutenSearchQuery(version: version, applicationID: applicationID, items: items)
        } catch {
            return .failure(error)
        }
        let body = responseBody(query, host: request.headers["Host"] ?? "localhost")
        guard let callback = query.callback else { return .success(.json(body)) }
        let json = (try? JSONWriter(options: [.withoutEscapingSlashes]).bytes(body)) ?? []
        return .success(
            HTTPResponse(
                headers: ["Content-Type": "text/javascript; charset=utf-8"],
                body: Array(callback.utf8) + [UInt8(ascii: "(")] + json + Array(");".utf8)))
    }

    /// The search result in the API's shape and key order.
    func responseBody(_ query: RakutenSearchQuery, host: String) -> JSON {
        let result = catalog.search(query)
        let rendering = CatalogItem.Rendering(
            version: query.version, formatVersion: query.formatVersion, host: host, affiliateID: query.affiliateID,
            elements: query.elements)
        let pageCount = result.count == 0 ? 0 : min(100, (result.count + query.hits - 1) / query.hits)
        let first = result.items.isEmpty ? 0 : (query.page - 1) * query.hits + 1
        let last = result.items.isEmpty ? 0 : first + result.items.count - 1
        return [
            "count": JSON(result.count), "page": JSON(query.page), "first": JSON(first), "last": JSON(last),
            "hits": JSON(result.items.count), "carrier": JSON(query.carrier), "pageCount": JSON(pageCount),
            "Items": .array(result.items.map { $0.json(rendering) }), "GenreInformation": [], "TagInformation": [],
        ]
    }

    /// Whether `request`'s `Origin` is one of `origins`, or its `Referer` starts with one of them and a `/`.
    static func hasOrigin(_ request: HTTPRequest, in origins: Set<String>) -> Bool {
        if let origin = request.headers["Origin"], origins.contains(origin) { return true }
        guard let referer = request.headers["Referer"] else { return false }
        return origins.contains { referer == $0 || referer.hasPrefix($0 + "/") }
    }

    /// Whether `request` carries a non-empty access key: the `accessKey` query item or `Authorization: Bearer`.
    static func hasAccessKey(_ request: HTTPRequest) -> Bool {
        if let key = request.queryItems.first(where: { $0.name == "accessKey" })?.value, !key.isEmpty { return true }
        guard let authorization = request.headers["Authorization"] else { return false }
        let parts = authorization.split(separator: " ", maxSplits: 1)
        return parts.count == 2 && parts[0].lowercased() == "bearer"
            && !parts[1].trimmingCharacters(in: .whitespaces).isEmpty
    }
}
