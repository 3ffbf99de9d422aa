public import Foundation

/// An item of the Rakuten Ichiba item search, with the fields an app shows.
///
/// Its id is the ``itemCode`` (`"shop:1234"`), so the same item found by two searches is one entity in the
/// store. It decodes from both response formats and survives the API's traps (see
/// `RakutenItem+Decoding.swift`): `genreId` as a string or a number, `reviewAverage` as `4.63` or `5`, flags as
/// `0`/`1`, empty strings for missing times, and image URLs as strings (formatVersion 2) or `{"imageUrl": …}`
/// objects (formatVersion 1). Fields left out by the `elements` parameter take empty defaults; only `itemCode` is
/// required.
///
/// ```swift
/// import TetherAPIs
///
/// let store = EntityStore(client: .rakuten(applicationID: "1234567890123456789"))
/// let search = store.query(.itemSearch(RakutenItemSearch(keyword: "ノートパソコン")))
/// await search.load()
/// for item in search.items {
///     print(item.itemName, item.price)      // "…ノートパソコン…", "54,800円"
/// }
/// ```
public struct RakutenItem: RemoteEntity, Hashable {
    /// Rakuten has no REST collection of items: they come only from searches
    /// (``TetherStore/Query/itemSearch(_:staleTime:cacheTime:)``), so don't ask the store to load, write or delete one.
    /// The path only names the API.
    public static let collectionPath = "/services/api/IchibaItem"

    /// The item code, `"<shopCode>:<number>"`.
    public var id: String { itemCode }

    /// The item code, `"<shopCode>:<number>"`, unique across Ichiba.
    public var itemCode: String
    /// The item's name as the shop wrote it.
    public var itemName: String
    /// The shop's short selling line; `""` when it has none.
    public var catchcopy: String
    /// The price in yen (tax included unless ``taxFlag`` is 1).
    public var itemPrice: Int
    /// The shop's description of the item (may be long, with line breaks).
    public var itemCaption: String
    /// The item's page (an affiliate URL when the search had an `affiliateId`).
    public var itemUrl: String
    /// The shop's name.
    public var shopName: String
    /// The shop's code (the `xyz` of `https://www.rakuten.co.jp/xyz/`).
    public var shopCode: String
    /// The shop's page.
    public var shopUrl: String
    /// The number of reviews.
    public var reviewCount: Int
    /// The average review, 0 to 5 (`0` when there are no reviews).
    public var reviewAverage: Double
    /// Up to three 64×64 thumbnails.
    public var smallImageUrls: [String]
    /// Up to three 128×128 thumbnails.
    public var mediumImageUrls: [String]
    /// The Ichiba genre id (a string, as the API sends it).
    public var genreId: String
    /// The tag ids.
    public var tagIds: [Int]
    /// Whether the item can be bought now.
    public var availability: Bool
    /// The point multiplier (1 = normal).
    public var pointRate: Int
    /// 0 when the price includes tax, 1 when it does not.
    public var taxFlag: Int
    /// 0 when the price includes postage, 1 when postage is separate.
    public var postageFlag: Int
    /// The affiliate rate in percent, when sent.
    public var affiliateRate: Double?
    /// The start of a time-limited sale (`"YYYY-MM-DD HH:MM"`, Japan time), `nil` when there is none.
    public var startTime: String?
    /// The end of a time-limited sale, `nil` when there is none.
    public var endTime: String?
    /// The lowest price over the item's variants (2022-06-01 only).
    public var itemPriceMin1: Int?
    /// The highest price over the item's variants (2022-06-01 only).
    public var itemPriceMax1: Int?

    public init(
        itemCode: String, itemName: String, itemPrice: Int, catchcopy: String = "", itemCaption: String = "",
        itemUrl: String = "", shopName: String = "", shopCode: String = "", shopUrl: String = "",
        reviewCount: Int = 0, reviewAverage: Double = 0, smallImageUrls: [String] = [],
        mediumImageUrls: [String] = [], genreId: String = "0", tagIds: [Int] = [], availability: Bool = true,
        pointRate: Int = 1, taxFlag: Int = 0, postageFlag: Int = 0, affiliateRate: Double? = nil,
        startTime: String? = nil, endTime: String? = nil, itemPriceMin1: Int? = nil, itemPriceMax1: Int? = nil
    ) {
        self.itemCode = itemCode
        self.itemName = itemName
        self.catchcopy = catchcopy
        self.itemPrice = itemPrice
        self.itemCaption = itemCaption
        self.itemUrl = itemUrl
        self.shopName = shopName
        self.shopCode = shopCode
        self.shopUrl = shopUrl
        self.reviewCount = reviewCount
        self.reviewAverage = reviewAverage
        self.smallImageUrls = smallImageUrls
        self.mediumImageUrls = mediumImageUrls
        self.genreId = genreId
        self.tagIds = tagIds
        self.availability = availability
        self.pointRate = pointRate
        self.taxFlag = taxFlag
        self.postageFlag = postageFlag
        self.affiliateRate = affiliateRate
        self.startTime = startTime
        self.endTime = endTime
        self.itemPriceMin1 = itemPriceMin1
        self.itemPriceMax1 = itemPriceMax1
    }

    /// The price, for display: `item.price.description == "3,240円"`.
    public var price: Yen { Yen(itemPrice) }

    /// The item's page as a URL.
    public var itemURL: URL? { URL(string: itemUrl) }

    /// The first 128×128 thumbnail, for a list row.
    public var thumbnailURL: URL? { mediumImageUrls.first.flatMap(URL.init(string:)) }
}
