extension Query where Entity == RakutenItem {
    /// A Rakuten item search as a store query, paged with `page` until `pageCount` (at most 100, Rakuten's cap).
    ///
    /// ```swift
    /// let results = store.query(.itemSearch(RakutenItemSearch(keyword: "ノートパソコン")))
    /// await results.load()          // page 1
    /// await results.loadMore()      // page 2, appended
    /// results.totalCount            // Rakuten's `count`: the matches in all
    /// results.skippedItems          // items Rakuten sent that could not be read, left out
    /// ```
    ///
    /// The store's client must be configured for Rakuten (``HTTPClient/rakuten(applicationID:baseURL:configure:)``):
    /// it adds the application id, waits for the 1 request/second limit, and reads Rakuten's error bodies into
    /// ``HTTPError/message``. Results stay fresh for `staleTime`: Rakuten asks clients not to repeat a URL quickly.
    public static func itemSearch(
        _ search: RakutenItemSearch, staleTime: Duration = .seconds(60), cacheTime: Duration = .seconds(300)
    ) -> Query<RakutenItem> {
        .numberedPages(key: search.key, staleTime: staleTime, cacheTime: cacheTime, tags: ["rakuten"]) {
            client, page throws(HTTPError) in
            let response = try await client.send(search.request(page: page)).value
            return (
                response.items, min(response.pageCount, RakutenItemSearch.maximumPage), response.count,
                response.skippedItems
            )
        }
    }
}

extension RakutenItemSearch {
    /// The last page Rakuten serves: `page` is 1 to 100, and `pageCount` never says more.
    public static let maximumPage = 100
}
