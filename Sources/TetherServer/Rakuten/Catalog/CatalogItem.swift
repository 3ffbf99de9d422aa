/// One item of the generated catalog, with every field the Item Search API outputs (the server's record, written
/// out by `CatalogItem+JSON.swift`; an app decodes it as `TetherAPIs.RakutenItem`).
struct CatalogItem: Sendable, Hashable {
    /// The 1-based position in the catalog; the `<id>` of its thumbnails (`/images/<id>`).
    var id: Int
    var name: String
    var catchcopy: String
    var code: String
    var price: Int
    var priceBaseField: String
    var priceMax: Int
    var caption: String
    var url: String
    var shopURL: String
    var imageCount: Int
    var availability: Int
    var taxFlag: Int
    var postageFlag: Int
    var creditCardFlag: Int
    var shopOfTheYearFlag: Int
    var shipOverseasFlag: Int
    var shipOverseasArea: String
    /// Percent, a whole number or one decimal (`4`, `2.5`).
    var affiliateRate: Double
    var startTime: String
    var endTime: String
    var reviewCount: Int
    /// Two decimals; `0` when there is no review.
    var reviewAverage: Double
    var pointRate: Int
    var pointRateStartTime: String
    var pointRateEndTime: String
    var giftFlag: Int
    var shopName: String
    var shopCode: String
    var genreID: Int
    var parentGenreID: Int
    var tagIDs: [Int]
    /// Seconds since 2020; orders `updateTimestamp` sorts (not output, as in the real API).
    var updateTimestamp: Int
    /// A relevance base for `sort=standard`.
    var popularity: Int
    /// `name`, `caption` and `catchcopy` normalized for keyword matching (see ``RakutenKeyword``).
    var searchText: [UInt8]
    /// `name` normalized alike, so name matches rank first.
    var searchName: [UInt8]

    var imageFlag: Int { imageCount > 0 ? 1 : 0 }
}
