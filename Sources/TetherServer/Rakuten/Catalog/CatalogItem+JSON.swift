import TetherHTTP1
import TetherJSON

extension CatalogItem {
    /// How an item is written: the API version, the format version and the request's context.
    struct Rendering: Sendable {
        var version: RakutenSearchQuery.Version
        var formatVersion: Int
        /// The `Host` the request was sent to, for the thumbnail URLs.
        var host: String
        var affiliateID: String?
        /// The `elements` filter, or `nil` for every field.
        var elements: Set<String>?
    }

    /// The item's fields in the order of the real API (see the fixtures), filtered by `elements`.
    func json(_ rendering: Rendering) -> JSON {
        var keys: [String] = []
        var values: [JSON] = []
        keys.reserveCapacity(42)
        values.reserveCapacity(42)
        func add(_ key: String, _ value: @autoclosure () -> JSON) {
            if let elements = rendering.elements, !elements.contains(key) { return }
            keys.append(key)
            values.append(value())
        }
        let affiliateURL = rendering.affiliateID.map { Self.affiliateLink($0, url) } ?? ""
        let shopAffiliateURL = rendering.affiliateID.map { Self.affiliateLink($0, shopURL) } ?? ""

        add("itemName", .string(name))
        add("catchcopy", .string(catchcopy))
        add("itemCode", .string(code))
        add("itemPrice", JSON(price))
        if rendering.version == .v20220601 {
            add("itemPriceBaseField", .string(priceBaseField))
            for key in ["itemPriceMax1", "itemPriceMax2", "itemPriceMax3"] { add(key, JSON(priceMax)) }
            for key in ["itemPriceMin1", "itemPriceMin2", "itemPriceMin3"] { add(key, JSON(price)) }
        }
        add("itemCaption", .string(caption))
        add("itemUrl", .string(affiliateURL.isEmpty ? url : affiliateURL))
        add("shopUrl", .string(shopURL))
        add("smallImageUrls", imageURLs(size: 64, rendering))
        add("mediumImageUrls", imageURLs(size: 128, rendering))
        add("affiliateUrl", .string(affiliateURL))
        add("shopAffiliateUrl", .string(shopAffiliateURL))
        add("imageFlag", JSON(imageFlag))
        add("availability", JSON(availability))
        add("taxFlag", JSON(taxFlag))
        add("postageFlag", JSON(postageFlag))
        add("creditCardFlag", JSON(creditCardFlag))
        add("shopOfTheYearFlag", JSON(shopOfTheYearFlag))
        add("shipOverseasFlag", JSON(shipOverseasFlag))
        add("shipOverseasArea", .string(shipOverseasArea))
        add("asurakuFlag", JSON(0))
        add("asurakuClosingTime", .string(""))
        add("asurakuArea", .string(""))
        add("affiliateRate", Self.number(affiliateRate))
        add("startTime", .string(startTime))
        add("endTime", .string(endTime))
        add("reviewCount", JSON(reviewCount))
        add("reviewAverage", Self.number(reviewAverage))
        add("pointRate", JSON(pointRate))
        add("pointRateStartTime", .string(pointRateStartTime))
        add("pointRateEndTime", .string(pointRateEndTime))
        add("giftFlag", JSON(giftFlag))
        add("shopName", .string(shopName))
        add("shopCode", .string(shopCode))
        add("genreId", .string(String(genreID)))
        add("tagIds", .array(tagIDs.map { JSON($0) }))
        let item = JSON.object(JSON.Object(keys: keys, values: values))
        return rendering.formatVersion == 1 ? ["Item": item] : item
    }

    /// `http://<host>/images/<id>?_ex=WxH` for each image: `{"imageUrl": …}` objects in fv1, strings in fv2.
    private func imageURLs(size: Int, _ rendering: Rendering) -> JSON {
        .array(
            (0..<imageCount).map { index in
                let path = index == 0 ? "\(id)" : "\(id)-\(index + 1)"
                let url = JSON.string("http://\(rendering.host)/images/\(path)?_ex=\(size)x\(size)")
                return rendering.formatVersion == 1 ? ["imageUrl": url] : url
            })
    }

    /// A whole number as an integer literal (`4`, `0`), anything else as a decimal (`2.5`, `4.63`).
    private static func number(_ value: Double) -> JSON {
        if let whole = Int(exactly: value) { return JSON(whole) }
        return JSON(value)
    }

    private static func affiliateLink(_ affiliateID: String, _ url: String) -> String {
        "https://hb.afl.rakuten.co.jp/hgc/\(HTTPTarget.percentEncode(affiliateID))/?pc=\(HTTPTarget.percentEncode(url))"
    }
}
