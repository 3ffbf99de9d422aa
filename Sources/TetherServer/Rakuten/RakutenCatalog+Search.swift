extension RakutenCatalog {
    /// One page of a search: the total number of matches and the items on the page, in order.
    struct SearchResult: Sendable {
        var count: Int
        var items: [CatalogItem]
    }

    /// Filters, sorts and pages the catalog for `query`.
    ///
    /// - Complexity: O(n · keyword length) to filter, O(m log m) to sort the m matches.
    func search(_ query: RakutenSearchQuery) -> SearchResult {
        var matches: [(item: CatalogItem, nameMatch: Bool)] = []
        for item in items where Self.passesFilters(item, query) {
            if let keyword = query.keyword, !keyword.matches(item.searchText, all: !query.orFlag) { continue }
            if let ng = query.ngKeyword, ng.matches(item.searchText, all: false) { continue }
            let nameMatch = query.keyword.map { $0.matches(item.searchName, all: false) } ?? false
            matches.append((item, nameMatch))
        }
        let sort = query.sort
        matches.sort { sort.areInIncreasingOrder($0.item, $1.item, nameMatchA: $0.nameMatch, nameMatchB: $1.nameMatch) }
        let start = (query.page - 1) * query.hits
        guard start < matches.count else { return SearchResult(count: matches.count, items: []) }
        let end = min(start + query.hits, matches.count)
        return SearchResult(count: matches.count, items: matches[start..<end].map(\.item))
    }

    private static func passesFilters(_ item: CatalogItem, _ query: RakutenSearchQuery) -> Bool {
        if let shopCode = query.shopCode, item.shopCode != shopCode { return false }
        if let itemCode = query.itemCode, item.code != itemCode { return false }
        if query.genreID != 0, item.genreID != query.genreID, item.parentGenreID != query.genreID { return false }
        if !query.tagIDs.isEmpty, !query.tagIDs.allSatisfy(item.tagIDs.contains) { return false }
        if let minPrice = query.minPrice, item.price < minPrice { return false }
        if let maxPrice = query.maxPrice, item.price > maxPrice { return false }
        if query.availability == 1, item.availability != 1 { return false }
        if query.imageFlag == 1, item.imageFlag != 1 { return false }
        if query.postageIncluded, item.postageFlag != 0 { return false }
        if query.creditCardFlag, item.creditCardFlag != 1 { return false }
        if query.giftFlag, item.giftFlag != 1 { return false }
        if query.hasReviewFlag, item.reviewCount == 0 { return false }
        if query.shipOverseasFlag, item.shipOverseasFlag != 1 { return false }
        if let rate = query.minimumPointRate, item.pointRate < rate { return false }
        return true
    }
}
