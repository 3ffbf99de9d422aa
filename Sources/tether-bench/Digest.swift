internal import Foundation
internal import TetherAPIs
internal import TetherJSON

/// A few sums over a decoded result, computed the same way from typed models, a `JSON` tree and a
/// `JSONSerialization` tree, so contenders can be checked against each other: a decoder that skips fields,
/// drops items or mis-decodes escapes gets a different digest and cannot look fast.
struct Digest: Equatable, CustomStringConvertible {
    /// Items or posts.
    var count = 0
    /// Integer fields: prices, review counts and tag ids, or post and user ids.
    var integers = 0
    /// UTF-8 bytes of the decoded strings (names, captions, image URLs, genre ids; titles and bodies).
    var textBytes = 0
    /// `reviewAverage` × 100 plus `affiliateRate` × 10, rounded.
    var decimals = 0

    var description: String { "count=\(count) integers=\(integers) text=\(textBytes) decimals=\(decimals)" }

    /// The fields as one line, for a child process to print and the parent to read back.
    var wire: String { "\(count) \(integers) \(textBytes) \(decimals)" }

    init() {}

    init?(wire: some StringProtocol) {
        let fields = wire.split(separator: " ").compactMap { Int($0) }
        guard fields.count == 4 else { return nil }
        (count, integers, textBytes, decimals) = (fields[0], fields[1], fields[2], fields[3])
    }

    // MARK: Rakuten

    /// The digest of TetherAPIs' page: an item it skipped (``RakutenSearchResponse/skippedItems``) is missing from
    /// ``count``, so a decoder that fails items cannot match the trees' digest; a missing `affiliateRate` counts
    /// as -1, as in the trees'.
    init(_ response: RakutenSearchResponse) {
        for item in response.items {
            addItem(
                price: item.itemPrice, reviewCount: item.reviewCount, tags: item.tagIds, name: item.itemName,
                caption: item.itemCaption, genre: item.genreId, images: item.smallImageUrls + item.mediumImageUrls,
                reviewAverage: item.reviewAverage, affiliateRate: item.affiliateRate ?? -1)
        }
    }

    init(rakuten json: JSON) {
        for entry in json["Items"].array ?? [] {
            let item = entry["Item"]
            let images = (item["smallImageUrls"].array ?? []) + (item["mediumImageUrls"].array ?? [])
            addItem(
                price: item["itemPrice"].int ?? -1, reviewCount: item["reviewCount"].int ?? -1,
                tags: (item["tagIds"].array ?? []).map { $0.int ?? -1 }, name: item["itemName"].string ?? "",
                caption: item["itemCaption"].string ?? "", genre: item["genreId"].string ?? "",
                images: images.map { $0["imageUrl"].string ?? "" }, reviewAverage: item["reviewAverage"].double ?? -1,
                affiliateRate: item["affiliateRate"].double ?? -1)
        }
    }

    init(rakuten any: Any) {
        let items = (any as? [String: Any])?["Items"] as? [Any] ?? []
        for entry in items {
            let item = (entry as? [String: Any])?["Item"] as? [String: Any] ?? [:]
            let images = (item["smallImageUrls"] as? [Any] ?? []) + (item["mediumImageUrls"] as? [Any] ?? [])
            addItem(
                price: Self.int(item["itemPrice"]), reviewCount: Self.int(item["reviewCount"]),
                tags: (item["tagIds"] as? [Any] ?? []).map { Self.int($0) }, name: item["itemName"] as? String ?? "",
                caption: item["itemCaption"] as? String ?? "", genre: item["genreId"] as? String ?? "",
                images: images.map { ($0 as? [String: Any])?["imageUrl"] as? String ?? "" },
                reviewAverage: Self.double(item["reviewAverage"]), affiliateRate: Self.double(item["affiliateRate"]))
        }
    }

    private mutating func addItem(
        price: Int, reviewCount: Int, tags: [Int], name: String, caption: String, genre: String, images: [String],
        reviewAverage: Double, affiliateRate: Double
    ) {
        count += 1
        integers += price + reviewCount + tags.reduce(0, +)
        textBytes += name.utf8.count + caption.utf8.count + genre.utf8.count
        textBytes += images.reduce(0) { $0 + $1.utf8.count }
        decimals += Int((reviewAverage * 100).rounded()) + Int((affiliateRate * 10).rounded())
    }

    // MARK: Posts

    init(_ posts: [Post]) {
        for post in posts {
            addPost(userID: post.userId, id: post.id, title: post.title, body: post.body)
        }
    }

    init(posts json: JSON) {
        for post in json.array ?? [] {
            addPost(
                userID: post["userId"].int ?? -1, id: post["id"].int ?? -1, title: post["title"].string ?? "",
                body: post["body"].string ?? "")
        }
    }

    init(posts any: Any) {
        for post in any as? [Any] ?? [] {
            let object = post as? [String: Any] ?? [:]
            addPost(
                userID: Self.int(object["userId"]), id: Self.int(object["id"]), title: object["title"] as? String ?? "",
                body: object["body"] as? String ?? "")
        }
    }

    private mutating func addPost(userID: Int, id: Int, title: String, body: String) {
        count += 1
        integers += userID + id
        textBytes += title.utf8.count + body.utf8.count
    }

    // MARK: JSONSerialization numbers

    private static func int(_ value: Any?) -> Int {
        if let number = value as? NSNumber { return number.intValue }
        return value as? Int ?? -1
    }

    private static func double(_ value: Any?) -> Double {
        if let number = value as? NSNumber { return number.doubleValue }
        return value as? Double ?? -1
    }
}
