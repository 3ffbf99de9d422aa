import TetherJSON

// Test-only models of the Rakuten Ichiba Item Search response (shared/reference/rakuten-ichiba-item-search.md §3–§5),
// written the way an app would write them with the lossy helpers.

/// A search response: the page counters and the items.
///
/// `Entry` is one element of `Items`: ``RakutenItemEnvelope`` (formatVersion 1, `{"Item": {…}}`) or
/// ``RakutenItemV2`` (formatVersion 2, the item itself). The `Items` key is matched ignoring case, since the 2026
/// gateway may send `items`; a bad item becomes a failure of ``items`` instead of failing the page.
struct RakutenSearchResponse<Entry: Decodable & Sendable>: Decodable, Sendable {
    var count: Int
    var page: Int
    var first: Int
    var last: Int
    var hits: Int
    var carrier: Int
    var pageCount: Int
    var items: LossyArray<Entry>
    var genreInformation: [JSON]
    var tagInformation: [JSON]

    enum CodingKeys: String, CodingKey {
        case count, page, first, last, hits, carrier, pageCount
        case items = "Items"
        case genreInformation = "GenreInformation"
        case tagInformation = "TagInformation"
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        count = try container.decode(Int.self, forKey: .count)
        page = try container.decode(Int.self, forKey: .page)
        first = try container.decode(Int.self, forKey: .first)
        last = try container.decode(Int.self, forKey: .last)
        hits = try container.decode(Int.self, forKey: .hits)
        carrier = try container.decode(Int.self, forKey: .carrier)
        pageCount = try container.decode(Int.self, forKey: .pageCount)
        items = try decoder.decode(LossyArray<Entry>.self, forKeyIgnoringCase: CodingKeys.items)
        genreInformation =
            try decoder.decodeIfPresent([JSON].self, forKeyIgnoringCase: CodingKeys.genreInformation) ?? []
        tagInformation = try decoder.decodeIfPresent([JSON].self, forKeyIgnoringCase: CodingKeys.tagInformation) ?? []
    }
}

typealias RakutenSearchV1 = RakutenSearchResponse<RakutenItemEnvelope>
typealias RakutenSearchV2 = RakutenSearchResponse<RakutenItemV2>

/// One element of `Items` in formatVersion 1: `{"Item": {…}}`.
struct RakutenItemEnvelope: Decodable, Hashable, Sendable {
    var item: RakutenItemV1

    enum CodingKeys: String, CodingKey {
        case item = "Item"
    }
}

/// An image in formatVersion 1: `{"imageUrl": "…"}`.
struct RakutenImageObject: Decodable, Hashable, Sendable {
    var imageUrl: String
}

typealias RakutenItemV1 = RakutenItem<RakutenImageObject>
typealias RakutenItemV2 = RakutenItem<String>

/// An item, generic over how its image URLs are spelled (objects in formatVersion 1, strings in 2).
///
/// The other fields are the same in both versions and live in ``RakutenItemFields``, reached as `item.itemName`.
@dynamicMemberLookup
struct RakutenItem<ImageURL: Decodable & Hashable & Sendable>: Decodable, Hashable, Sendable {
    var fields: RakutenItemFields
    /// Up to three 64×64 images.
    var smallImageUrls: [ImageURL]
    /// Up to three 128×128 images.
    var mediumImageUrls: [ImageURL]

    enum CodingKeys: String, CodingKey {
        case smallImageUrls, mediumImageUrls
    }

    init(fields: RakutenItemFields, smallImageUrls: [ImageURL], mediumImageUrls: [ImageURL]) {
        self.fields = fields
        self.smallImageUrls = smallImageUrls
        self.mediumImageUrls = mediumImageUrls
    }

    init(from decoder: any Decoder) throws {
        fields = try RakutenItemFields(from: decoder)
        let container = try decoder.container(keyedBy: CodingKeys.self)
        smallImageUrls = try container.decode([ImageURL].self, forKey: .smallImageUrls)
        mediumImageUrls = try container.decode([ImageURL].self, forKey: .mediumImageUrls)
    }

    subscript<T>(dynamicMember keyPath: KeyPath<RakutenItemFields, T>) -> T {
        fields[keyPath: keyPath]
    }
}

extension RakutenItem where ImageURL == RakutenImageObject {
    /// The same item as formatVersion 2 spells it, with the image URLs as plain strings.
    var flattened: RakutenItemV2 {
        RakutenItemV2(
            fields: fields, smallImageUrls: smallImageUrls.map(\.imageUrl),
            mediumImageUrls: mediumImageUrls.map(\.imageUrl))
    }
}

/// The fields of an item other than its images, with the decoder traps of §3 handled.
struct RakutenItemFields: Decodable, Hashable, Sendable {
    var itemName: String
    var catchcopy: String
    /// `"shop:1234"`.
    var itemCode: String
    /// Yen.
    @Flexible var itemPrice: Int

    // 2022-06-01 only: the price range over variants.
    /// `"item_price_min1"`, `"item_price_min2"` or `"item_price_min3"`.
    var itemPriceBaseField: String?
    var itemPriceMax1: Int?
    var itemPriceMax2: Int?
    var itemPriceMax3: Int?
    var itemPriceMin1: Int?
    var itemPriceMin2: Int?
    var itemPriceMin3: Int?

    var itemCaption: String
    var itemUrl: String
    var shopUrl: String
    /// `""` unless an affiliateId was given.
    @EmptyAsNil var affiliateUrl: String?
    @EmptyAsNil var shopAffiliateUrl: String?
    @Flexible var imageFlag: Bool
    @Flexible var availability: Bool
    /// 0 = tax included, 1 = excluded.
    var taxFlag: Int
    /// 0 = postage included, 1 = separate.
    var postageFlag: Int
    @Flexible var creditCardFlag: Bool
    @Flexible var shopOfTheYearFlag: Bool
    @Flexible var shipOverseasFlag: Bool
    /// `"/"`-separated, or `""`.
    var shipOverseasArea: String
    @Flexible var asurakuFlag: Bool
    /// `"HH:MM"` or `""`.
    @EmptyAsNil var asurakuClosingTime: String?
    var asurakuArea: String
    /// `4` or `2.5`.
    @Flexible var affiliateRate: Double
    /// `"YYYY-MM-DD HH:MM"` or `""` (no time-limited sale).
    @EmptyAsNil var startTime: String?
    @EmptyAsNil var endTime: String?
    var reviewCount: Int
    /// `4.63`, or an integer literal such as `0` or `5`.
    @Flexible var reviewAverage: Double
    var pointRate: Int
    @EmptyAsNil var pointRateStartTime: String?
    @EmptyAsNil var pointRateEndTime: String?
    @Flexible var giftFlag: Bool
    var shopName: String
    var shopCode: String
    /// A string (`"100316"`), though `tagIds` are numbers.
    @Flexible var genreId: String
    var tagIds: [Int]

    /// The countries of `shipOverseasArea`.
    var shipOverseasAreas: [Substring] { shipOverseasArea.split(separator: "/") }
}

/// An error body, in either shape of §5.
///
/// - Classic: `{"error": "wrong_parameter", "error_description": "…"}`, in either key order.
/// - 2026 gateway: `{"errors": {"errorCode": 400, "errorMessage": "…"}}`.
struct RakutenErrorResponse: Decodable, Hashable, Sendable {
    enum Shape: Hashable, Sendable {
        case classic
        case gateway
    }

    var shape: Shape
    /// `wrong_parameter`, `not_found`, …; for the gateway, its `errorCode` as text (`"400"`).
    var code: String
    var message: String
    /// The gateway's `errorCode`; `nil` for the classic shape, which leaves the status to HTTP.
    var statusCode: Int?

    enum CodingKeys: String, CodingKey {
        case error
        case errorDescription = "error_description"
        case errors
    }

    enum GatewayKeys: String, CodingKey {
        case errorCode, errorMessage
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        if container.contains(.errors) {
            let gateway = try container.nestedContainer(keyedBy: GatewayKeys.self, forKey: .errors)
            let status = try gateway.decode(Flexible<Int>.self, forKey: .errorCode).wrappedValue
            shape = .gateway
            code = String(status)
            message = try gateway.decode(String.self, forKey: .errorMessage)
            statusCode = status
        } else {
            shape = .classic
            code = try container.decode(String.self, forKey: .error)
            message = try container.decode(String.self, forKey: .errorDescription)
            statusCode = nil
        }
    }
}
