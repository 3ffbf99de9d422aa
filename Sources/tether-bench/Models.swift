// The Codable models the json area decodes into: what an app would write for these APIs.

/// A Rakuten Ichiba Item Search response, formatVersion=1 (see RakutenGenerator).
struct RakutenSearchResponse: Codable, Sendable {
    var count: Int
    var page: Int
    var first: Int
    var last: Int
    var hits: Int
    var carrier: Int
    var pageCount: Int
    var items: [RakutenItemEntry]
    var genreInformation: [RakutenGenreInformation]
    var tagInformation: [RakutenTagInformation]

    enum CodingKeys: String, CodingKey {
        case count, page, first, last, hits, carrier, pageCount
        case items = "Items"
        case genreInformation = "GenreInformation"
        case tagInformation = "TagInformation"
    }
}

/// The `{"Item": {…}}` wrapper of formatVersion=1.
struct RakutenItemEntry: Codable, Sendable {
    var item: RakutenItem

    enum CodingKeys: String, CodingKey {
        case item = "Item"
    }
}

/// One item, with every field of the 2022-06-01 response.
struct RakutenItem: Codable, Sendable, Equatable {
    var itemName: String
    var catchcopy: String
    var itemCode: String
    var itemPrice: Int
    var itemPriceBaseField: String
    var itemPriceMax1: Int
    var itemPriceMax2: Int
    var itemPriceMax3: Int
    var itemPriceMin1: Int
    var itemPriceMin2: Int
    var itemPriceMin3: Int
    var itemCaption: String
    var itemUrl: String
    var shopUrl: String
    var smallImageUrls: [RakutenImage]
    var mediumImageUrls: [RakutenImage]
    var affiliateUrl: String
    var shopAffiliateUrl: String
    var imageFlag: Int
    var availability: Int
    var taxFlag: Int
    var postageFlag: Int
    var creditCardFlag: Int
    var shopOfTheYearFlag: Int
    var shipOverseasFlag: Int
    var shipOverseasArea: String
    var asurakuFlag: Int
    var asurakuClosingTime: String
    var asurakuArea: String
    var affiliateRate: Double
    var startTime: String
    var endTime: String
    var reviewCount: Int
    var reviewAverage: Double
    var pointRate: Int
    var pointRateStartTime: String
    var pointRateEndTime: String
    var giftFlag: Int
    var shopName: String
    var shopCode: String
    var genreId: String
    var tagIds: [Int]
}

/// `{"imageUrl": "https://…?_ex=64x64"}`.
struct RakutenImage: Codable, Sendable, Equatable {
    var imageUrl: String
}

/// An entry of `GenreInformation` (empty unless `genreInformationFlag=1`).
struct RakutenGenreInformation: Codable, Sendable {
    var genreId: String?
    var genreName: String?
    var itemCount: Int?
}

/// An entry of `TagInformation` (empty unless `tagInformationFlag=1`).
struct RakutenTagInformation: Codable, Sendable {
    var tagGroupName: String?
    var tagGroupId: Int?
}

/// A jsonplaceholder post.
struct Post: Codable, Sendable {
    var userId: Int
    var id: Int
    var title: String
    var body: String
}
