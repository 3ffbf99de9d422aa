/// The parameters of a Rakuten Ichiba item search, as a value: build one, change it, turn it into a request or
/// a store query.
///
/// At least one of ``keyword``, ``shopCode``, ``itemCode`` or ``genreId`` is needed (else Rakuten answers 400 with
/// its "essential parameter" message). The `applicationId` is not here: the client adds it to every request (see
/// ``TetherHTTP/HTTPClient/Configuration/useRakuten(applicationID:host:)``), so it stays out of query keys and logs.
///
/// ```swift
/// import TetherAPIs
///
/// let store = EntityStore(client: .rakuten(applicationID: "1234567890123456789"))
/// var search = RakutenItemSearch(keyword: "ノートパソコン")
/// search.sort = .itemPriceAscending
/// search.maxPrice = 100_000
/// let results = store.query(.itemSearch(search))
/// await results.load()
/// ```
///
/// Parameters at their defaults are not sent, so the request is as short as the search.
public struct RakutenItemSearch: Sendable, Hashable {
    /// The API version, which is the last part of the path.
    public enum Version: String, Sendable, Hashable, CaseIterable {
        /// `/services/api/IchibaItem/Search/20220601`, with the price range over variants.
        case v20220601 = "20220601"
        /// `/services/api/IchibaItem/Search/20170706`.
        case v20170706 = "20170706"
    }

    /// The response format: version 1 wraps items as `{"Item": …}`; version 2 is flat. Both decode the same.
    public enum FormatVersion: Int, Sendable, Hashable, CaseIterable {
        case one = 1
        case two = 2
    }

    /// Which items qualify by stock.
    public enum Availability: Int, Sendable, Hashable, CaseIterable {
        /// Every item, in stock or not.
        case all = 0
        /// Only items that can be bought now (Rakuten's default).
        case inStockOnly = 1
    }

    /// Space-separated words, all required (or any, with ``matchesAnyWord``). Each word needs at least two
    /// half-width characters or one full-width one; the whole at most 128 bytes.
    public var keyword: String?
    /// Only items of this shop (the `xyz` of `https://www.rakuten.co.jp/xyz/`).
    public var shopCode: String?
    /// Only this item (`"shop:1234"`).
    public var itemCode: String?
    /// Only items of this Ichiba genre.
    public var genreId: Int?
    /// Items per page, 1 to 30.
    public var hits: Int
    /// The order.
    public var sort: RakutenSort
    /// The lowest price in yen.
    public var minPrice: Int?
    /// The highest price in yen (greater than ``minPrice``).
    public var maxPrice: Int?
    /// Which items qualify by stock.
    public var availability: Availability
    /// Whether any of the keyword's words is enough (`orFlag=1`).
    public var matchesAnyWord: Bool
    /// Words whose items are left out (`NGKeyword`).
    public var excludedKeyword: String?
    /// Only items with images (`imageFlag=1`).
    public var requiresImages: Bool
    /// The API version.
    public var version: Version
    /// The response format.
    public var formatVersion: FormatVersion

    public init(
        keyword: String? = nil, shopCode: String? = nil, itemCode: String? = nil, genreId: Int? = nil,
        hits: Int = 30, sort: RakutenSort = .standard, minPrice: Int? = nil, maxPrice: Int? = nil,
        availability: Availability = .inStockOnly, matchesAnyWord: Bool = false, excludedKeyword: String? = nil,
        requiresImages: Bool = false, version: Version = .v20220601, formatVersion: FormatVersion = .two
    ) {
        self.keyword = keyword
        self.shopCode = shopCode
        self.itemCode = itemCode
        self.genreId = genreId
        self.hits = hits
        self.sort = sort
        self.minPrice = minPrice
        self.maxPrice = maxPrice
        self.availability = availability
        self.matchesAnyWord = matchesAnyWord
        self.excludedKeyword = excludedKeyword
        self.requiresImages = requiresImages
        self.version = version
        self.formatVersion = formatVersion
    }

    /// The path of the search, relative to `https://app.rakuten.co.jp`.
    public var path: String { "/services/api/IchibaItem/Search/" + version.rawValue }

    /// The query items for page `page` (without `applicationId`), in a fixed order. Values are plain text:
    /// TetherHTTP percent-encodes each one (the `+` of a sort as `%2B`, the keyword as UTF-8).
    public func queryItems(page: Int = 1) -> [(name: String, value: String?)] {
        var items = parameters()
        items.append(("page", String(page)))
        return items
    }

    /// The request for page `page`.
    public func request(page: Int = 1) -> Request<RakutenSearchResponse> {
        Request(path: path, query: queryItems(page: page))
    }

    /// Identifies the search whatever the page, for the store: `path?keyword=…&…`.
    public var key: String {
        path + "?" + parameters().map { "\($0.name)=\($0.value ?? "")" }.joined(separator: "&")
    }

    /// The parameters other than the page.
    private func parameters() -> [(name: String, value: String?)] {
        var items: [(name: String, value: String?)] = [("format", "json")]
        if formatVersion != .one { items.append(("formatVersion", String(formatVersion.rawValue))) }
        if let keyword { items.append(("keyword", keyword)) }
        if let shopCode { items.append(("shopCode", shopCode)) }
        if let itemCode { items.append(("itemCode", itemCode)) }
        if let genreId { items.append(("genreId", String(genreId))) }
        if hits != 30 { items.append(("hits", String(hits))) }
        if sort != .standard { items.append(("sort", sort.rawValue)) }
        if let minPrice { items.append(("minPrice", String(minPrice))) }
        if let maxPrice { items.append(("maxPrice", String(maxPrice))) }
        if availability != .inStockOnly { items.append(("availability", String(availability.rawValue))) }
        if matchesAnyWord { items.append(("orFlag", "1")) }
        if let excludedKeyword { items.append(("NGKeyword", excludedKeyword)) }
        if requiresImages { items.append(("imageFlag", "1")) }
        return items
    }
}
