import TetherJSON

extension RakutenItem {
    enum CodingKeys: String, CodingKey {
        case itemCode, itemName, catchcopy, itemPrice, itemCaption, itemUrl, shopName, shopCode, shopUrl
        case reviewCount, reviewAverage, smallImageUrls, mediumImageUrls, genreId, tagIds, availability, pointRate
        case taxFlag, postageFlag, affiliateRate, startTime, endTime, itemPriceMin1, itemPriceMax1
    }

    /// Decodes an item of either format version (the `{"Item": …}` wrapper of version 1 is removed by
    /// ``RakutenSearchResponse``).
    ///
    /// Every scalar is read with TetherJSON's ``/TetherJSON/Flexible`` rules (a number or a string holding one; `0`/`1`
    /// for Booleans), times with ``/TetherJSON/EmptyAsNil`` (`""` is `nil`), and the image lists lossily, as strings or
    /// `{"imageUrl": …}` objects. A missing field takes its empty default; a missing `itemCode` is
    /// `DecodingError.keyNotFound`.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        itemCode = try container.decode(Flexible<String>.self, forKey: .itemCode).wrappedValue
        itemName = try container.flexible(.itemName, default: "")
        catchcopy = try container.flexible(.catchcopy, default: "")
        itemPrice = try container.flexible(.itemPrice, default: 0)
        itemCaption = try container.flexible(.itemCaption, default: "")
        itemUrl = try container.flexible(.itemUrl, default: "")
        shopName = try container.flexible(.shopName, default: "")
        shopCode = try container.flexible(.shopCode, default: "")
        shopUrl = try container.flexible(.shopUrl, default: "")
        reviewCount = try container.flexible(.reviewCount, default: 0)
        reviewAverage = try container.flexible(.reviewAverage, default: 0)
        smallImageUrls = try container.imageURLs(.smallImageUrls)
        mediumImageUrls = try container.imageURLs(.mediumImageUrls)
        genreId = try container.flexible(.genreId, default: "0")
        tagIds =
            try container.decodeIfPresent(LossyArray<Flexible<Int>>.self, forKey: .tagIds)?.map(\.wrappedValue)
            ?? []
        availability = try container.flexible(.availability, default: true)
        pointRate = try container.flexible(.pointRate, default: 1)
        taxFlag = try container.flexible(.taxFlag, default: 0)
        postageFlag = try container.flexible(.postageFlag, default: 0)
        affiliateRate = try container.decodeIfPresent(Flexible<Double>.self, forKey: .affiliateRate)?.wrappedValue
        startTime = try container.decodeIfPresent(EmptyAsNil<String>.self, forKey: .startTime)?.wrappedValue
        endTime = try container.decodeIfPresent(EmptyAsNil<String>.self, forKey: .endTime)?.wrappedValue
        itemPriceMin1 = try container.decodeIfPresent(Flexible<Int>.self, forKey: .itemPriceMin1)?.wrappedValue
        itemPriceMax1 = try container.decodeIfPresent(Flexible<Int>.self, forKey: .itemPriceMax1)?.wrappedValue
    }
}

extension KeyedDecodingContainer where Key == RakutenItem.CodingKeys {
    /// The value for `key` read flexibly, or `fallback` when the key is missing or `null`.
    fileprivate func flexible<Value: FlexibleDecodable>(_ key: Key, default fallback: Value) throws -> Value {
        try decodeIfPresent(Flexible<Value>.self, forKey: key)?.wrappedValue ?? fallback
    }

    /// An image list in either spelling; entries that are neither are skipped.
    fileprivate func imageURLs(_ key: Key) throws -> [String] {
        try decodeIfPresent(LossyArray<RakutenImageURL>.self, forKey: key)?.map(\.url) ?? []
    }
}

/// One image URL: a plain string (formatVersion 2) or `{"imageUrl": "…"}` (formatVersion 1).
struct RakutenImageURL: Decodable {
    var url: String

    private enum CodingKeys: String, CodingKey {
        case imageUrl
    }

    init(from decoder: any Decoder) throws {
        // formatVersion 1's objects are read as objects at once where the decoder can tell (TetherJSON's can),
        // without a failed attempt at a string first.
        if JSON.Kind(peekingAt: decoder) != .object, let url = try? decoder.singleValueContainer().decode(String.self) {
            self.url = url
        } else {
            url = try decoder.container(keyedBy: CodingKeys.self).decode(String.self, forKey: .imageUrl)
        }
    }
}
