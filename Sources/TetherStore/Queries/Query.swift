public import Foundation

/// A list the store can load: a key, how to fetch its pages, and how long its results stay fresh.
///
/// The key identifies the query in the store: ``EntityStore/query(_:)`` returns the same ``QueryState`` for the
/// same key, so any number of views observing `posts?userId=1` share one state and one request. Queries with the
/// same kind of entity share the entities themselves.
///
/// ```swift
/// import TetherStore
///
/// struct Note: RemoteEntity { static let collectionPath = "/notes"; var id: Int; var title: String }
/// struct Post: RemoteEntity { static let collectionPath = "/posts"; var id: Int; var userId: Int; var title: String }
///
/// let notes = Query<Note>.list("/notes")                                          // json-server, one request
/// let posts = Query<Post>.list("/posts", query: [("userId", "1")], pageSize: 10)   // _page/_limit + Link
/// ```
public struct Query<Entity: RemoteEntity>: Sendable {
    /// Fetches one page: the first when `cursor` is `nil`, else the page the previous one pointed to.
    public typealias Fetch =
        @Sendable (_ client: HTTPClient, _ cursor: PageCursor?) async throws(HTTPError) -> Page<
            Entity
        >

    /// Identifies the query in the store, and groups queries for ``EntityStore/invalidate(keyPrefix:)``.
    public var key: String
    /// Labels for ``EntityStore/invalidate(tag:)``.
    public var tags: Set<String>
    /// How long loaded results count as fresh: ``QueryState/load()`` does nothing within it.
    public var staleTime: Duration
    /// How long the results stay in the store once nothing uses the query.
    public var cacheTime: Duration
    /// Reload this often while the query is in use; `nil` for never.
    public var refetchInterval: Duration?
    /// Whether entities created with ``EntityStore/create(_:)`` are appended to this query's results.
    public var includesCreatedEntities: Bool
    /// Whether the query reloads when the server answers again after the store was offline
    /// (``OutboxStatus/isOffline``), if its results are stale and it is in use (held or observed outside the
    /// store). On by default, as TanStack Query's `refetchOnReconnect`.
    public var refetchOnReconnect = true
    /// Fetches a page.
    public var fetch: Fetch

    public init(
        key: String, tags: Set<String> = [], staleTime: Duration = .seconds(30), cacheTime: Duration = .seconds(300),
        refetchInterval: Duration? = nil, includesCreatedEntities: Bool = false, fetch: @escaping Fetch
    ) {
        self.key = key
        self.tags = tags
        self.staleTime = staleTime
        self.cacheTime = cacheTime
        self.refetchInterval = refetchInterval
        self.includesCreatedEntities = includesCreatedEntities
        self.fetch = fetch
    }
}

/// One page of a query's results and where the next one is.
public struct Page<Entity: RemoteEntity>: Sendable {
    /// The entities, in order.
    public var items: [Entity]
    /// Where the next page is; `nil` at the end.
    public var next: PageCursor?
    /// The total number of results, when the server says (`X-Total-Count`).
    public var totalCount: Int?
    /// How many of the page's entries could not be read and were left out (a lossy decoder's count, such as
    /// `RakutenSearchResponse.skippedItems`); they add up in ``QueryState/skippedItems``.
    public var skippedItems: Int
    /// Whether the page is an HTTP cache's stale copy, served because the server could not be reached or failed
    /// (`Response.isStale` in TetherHTTP: `stale-if-error`, or the client's `maximumStaleOnError`). The query then
    /// shows it as it shows rows from disk: loaded, with ``QueryState/isOffline``. `.list` sets it from the
    /// response; a custom fetch sets it from its own.
    public var isStale: Bool

    public init(
        items: [Entity], next: PageCursor?, totalCount: Int? = nil, skippedItems: Int = 0, isStale: Bool = false
    ) {
        self.items = items
        self.next = next
        self.totalCount = totalCount
        self.skippedItems = skippedItems
        self.isStale = isStale
    }
}

/// Where a page is, in the three styles APIs use.
public enum PageCursor: Sendable, Hashable {
    /// A page number (Rakuten's `page`, json-server's `_page`).
    case page(Int)
    /// A URL from a `Link: <…>; rel="next"` header.
    case url(URL)
    /// An opaque cursor the server returned.
    case token(String)
}

extension Query where Entity: Decodable {
    /// A json-server style list: `GET path?query` returning a JSON array of entities.
    ///
    /// With `pageSize`, pages are requested with `_page` and `_limit`; the next page is the `Link` header's
    /// `rel="next"` URL, or the next page number while `X-Total-Count` says there are more. Without it, one request
    /// returns everything. The key is the path and query, so equal lists share one state.
    public static func list(
        _ path: String, query: [(name: String, value: String?)] = [], pageSize: Int? = nil,
        staleTime: Duration = .seconds(30), cacheTime: Duration = .seconds(300), tags: Set<String> = []
    ) -> Query {
        var key = path
        let items = query.map { item in item.value.map { "\(item.name)=\($0)" } ?? item.name }
        if !items.isEmpty { key += "?" + items.joined(separator: "&") }
        if let pageSize { key += (items.isEmpty ? "?" : "&") + "_limit=\(pageSize)" }
        return Query(
            key: key, tags: tags, staleTime: staleTime, cacheTime: cacheTime,
            includesCreatedEntities: query.isEmpty && path == Entity.collectionPath
        ) { client, cursor throws(HTTPError) in
            var request = Request<[Entity]>(path: path, query: query)
            var pageNumber = 1
            switch cursor {
            case .url(let url):
                request = Request<[Entity]>(path: url.absoluteString)
            case .page(let number):
                pageNumber = number
                request.query += [("_page", String(number))] + (pageSize.map { [("_limit", String($0))] } ?? [])
            case .token, nil:
                if let pageSize { request.query += [("_page", "1"), ("_limit", String(pageSize))] }
            }
            let response = try await client.send(request)
            let total = response.headers["X-Total-Count"].flatMap { Int($0) }
            var next: PageCursor?
            if let url = LinkHeader.url(for: "next", in: response.headers, relativeTo: response.url) {
                next = .url(url)
            } else if let pageSize, let total, pageNumber * pageSize < total, case .url = cursor {
                next = nil
            } else if let pageSize, let total, pageNumber * pageSize < total {
                next = .page(pageNumber + 1)
            }
            return Page(items: response.value, next: next, totalCount: total, isStale: response.isStale)
        }
    }

    /// A list with numbered pages (Rakuten's `page` and `pageCount`): `fetch` returns the page's entities and the
    /// number of pages; the query asks for the next page until `pageCount`.
    public static func numberedPages(
        key: String, staleTime: Duration = .seconds(30), cacheTime: Duration = .seconds(300), tags: Set<String> = [],
        fetch:
            @escaping @Sendable (_ client: HTTPClient, _ page: Int) async throws(HTTPError) -> (
                items: [Entity], pageCount: Int
            )
    ) -> Query {
        numberedPages(key: key, staleTime: staleTime, cacheTime: cacheTime, tags: tags) {
            client, page throws(HTTPError) in
            let (items, pageCount) = try await fetch(client, page)
            return (items, pageCount, nil)
        }
    }

    /// A list with numbered pages whose answers also say how many results there are in all (Rakuten's `count`),
    /// which becomes ``QueryState/totalCount``.
    public static func numberedPages(
        key: String, staleTime: Duration = .seconds(30), cacheTime: Duration = .seconds(300), tags: Set<String> = [],
        fetch:
            @escaping @Sendable (_ client: HTTPClient, _ page: Int) async throws(HTTPError) -> (
                items: [Entity], pageCount: Int, totalCount: Int?
            )
    ) -> Query {
        Query(key: key, tags: tags, staleTime: staleTime, cacheTime: cacheTime) { client, cursor throws(HTTPError) in
            let number: Int
            if case .page(let page) = cursor { number = page } else { number = 1 }
            let (items, pageCount, total) = try await fetch(client, number)
            return Page(items: items, next: number < pageCount ? .page(number + 1) : nil, totalCount: total)
        }
    }

    /// A list with numbered pages whose pages are read by a lossy decoder: `fetch` also returns how many entries
    /// of the page it left out, which add up in ``QueryState/skippedItems``.
    public static func numberedPages(
        key: String, staleTime: Duration = .seconds(30), cacheTime: Duration = .seconds(300), tags: Set<String> = [],
        fetch:
            @escaping @Sendable (_ client: HTTPClient, _ page: Int) async throws(HTTPError) -> (
                items: [Entity], pageCount: Int, totalCount: Int?, skippedItems: Int
            )
    ) -> Query {
        Query(key: key, tags: tags, staleTime: staleTime, cacheTime: cacheTime) { client, cursor throws(HTTPError) in
            let number: Int
            if case .page(let page) = cursor { number = page } else { number = 1 }
            let (items, pageCount, total, skipped) = try await fetch(client, number)
            return Page(
                items: items, next: number < pageCount ? .page(number + 1) : nil, totalCount: total,
                skippedItems: skipped)
        }
    }

    /// A list with opaque cursors: `fetch` gets the cursor of the page to load (`nil` for the first) and returns
    /// the entities and the next cursor (`nil` at the end).
    public static func cursorPages(
        key: String, staleTime: Duration = .seconds(30), cacheTime: Duration = .seconds(300), tags: Set<String> = [],
        fetch:
            @escaping @Sendable (_ client: HTTPClient, _ cursor: String?) async throws(HTTPError) -> (
                items: [Entity], next: String?
            )
    ) -> Query {
        Query(key: key, tags: tags, staleTime: staleTime, cacheTime: cacheTime) { client, cursor throws(HTTPError) in
            var token: String?
            if case .token(let value) = cursor { token = value }
            let (items, next) = try await fetch(client, token)
            return Page(items: items, next: next.map { .token($0) })
        }
    }
}

/// RFC 8288 `Link` headers, as json-server sends them for `_page`.
enum LinkHeader {
    /// The URL of the link with relation `relation`, resolved against `base`.
    static func url(for relation: String, in headers: HTTPHeaders, relativeTo base: URL) -> URL? {
        for value in headers.values(for: "Link") {
            for link in value.split(separator: ",") {
                let parts = link.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }
                guard let target = parts.first, target.hasPrefix("<"), target.hasSuffix(">") else { continue }
                let relations = parts.dropFirst().compactMap { parameter -> [Substring]? in
                    let pair = parameter.split(separator: "=", maxSplits: 1)
                    guard pair.count == 2, pair[0].trimmingCharacters(in: .whitespaces).lowercased() == "rel" else {
                        return nil
                    }
                    return pair[1].trimmingCharacters(in: CharacterSet(charactersIn: "\" ")).split(separator: " ")
                }.joined()
                if relations.contains(where: { $0.lowercased() == relation }) {
                    return URL(string: String(target.dropFirst().dropLast()), relativeTo: base)?.absoluteURL
                }
            }
        }
        return nil
    }
}
