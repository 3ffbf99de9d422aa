import TetherSync

/// Builds catalog items from a seeded generator and ``RakutenVocabulary``.
struct RakutenItemGenerator {
    private var random: SplitMix64
    private var shopSequence: [String: Int] = [:]

    init(seed: UInt64) { random = SplitMix64(seed: seed) }

    mutating func makeItems(count: Int) -> [CatalogItem] {
        let genres = RakutenVocabulary.genres
        guard count > 0 else { return [] }
        return (1...count).map { id in
            makeItem(id: id, genre: genres[(id - 1) % genres.count])
        }
    }

    private mutating func makeItem(id: Int, genre: RakutenGenre) -> CatalogItem {
        let shop = random.pick(genre.shops)
        let noun = random.pick(genre.nouns)
        let brand = random.pick(genre.brands)
        let specs = pickDistinct(genre.specs, count: random.int(in: 2...4)).map { random.pick($0) }
        let postageFlag = random.chance(0.6) ? 0 : 1

        var nameParts: [String] = []
        if postageFlag == 0, random.chance(0.5) {
            nameParts.append("【送料無料】")
        } else if random.chance(0.25) {
            nameParts.append(random.pick(RakutenVocabulary.namePrefixes))
        }
        nameParts.append(brand)
        nameParts.append(noun.japanese)
        if random.chance(0.7) { nameParts.append(noun.english) }
        nameParts += specs
        nameParts.append(random.pick(genre.suffixes))
        // "【送料無料】ブランド …": shops write no space after a leading bracket (only a prefix can be followed by one).
        let name =
            nameParts[0].hasSuffix("】")
            ? nameParts[0] + nameParts.dropFirst().joined(separator: " ") : nameParts.joined(separator: " ")

        let sequence = shopSequence[shop.code, default: 10_000_000] + random.int(in: 1...40)
        shopSequence[shop.code] = sequence

        let price = nicePrice(random.int(in: genre.prices))
        let priceMax = random.chance(0.3) ? nicePrice(Int(Double(price) * (1.2 + random.unit()))) : price
        let reviewCount = random.chance(0.2) ? 0 : Int(pow3(random.unit()) * 3000) + 1
        let reviewAverage: Double
        if reviewCount == 0 {
            reviewAverage = 0
        } else if reviewCount < 3 {
            reviewAverage = Double(random.int(in: 3...5))
        } else {
            reviewAverage = Double(random.int(in: 300...500)) / 100
        }
        let sale = random.chance(0.1)
        let saleDay = random.int(in: 1...20)
        let pointCampaign = random.chance(0.15)
        let pointDay = random.int(in: 1...20)
        let overseas = random.chance(0.1)

        var caption = "商品名：\(brand) \(noun.japanese)"
        caption += "\n仕様：" + specs.joined(separator: "／")
        for line in genre.captionLines where random.chance(0.8) { caption += "\n" + line }
        caption += "\n" + random.pick(RakutenVocabulary.closingLines)
        let catchcopy = random.pick(RakutenVocabulary.catchcopies)

        return CatalogItem(
            id: id, name: name, catchcopy: catchcopy, code: "\(shop.code):\(sequence)", price: price,
            priceBaseField: random.chance(0.85)
                ? "item_price_min3" : random.pick(["item_price_min1", "item_price_min2"]),
            priceMax: priceMax, caption: caption,
            url: "https://item.rakuten.co.jp/\(shop.code)/\(genre.slug)-\(sequence % 100_000)/",
            shopURL: "https://www.rakuten.co.jp/\(shop.code)/",
            imageCount: random.chance(0.05) ? 0 : random.int(in: 1...3),
            availability: random.chance(0.9) ? 1 : 0, taxFlag: random.chance(0.95) ? 0 : 1,
            postageFlag: postageFlag, creditCardFlag: random.chance(0.97) ? 1 : 0,
            shopOfTheYearFlag: shop.isShopOfTheYear ? 1 : 0, shipOverseasFlag: overseas ? 1 : 0,
            shipOverseasArea: overseas ? random.pick(RakutenVocabulary.overseasAreas) : "",
            affiliateRate: random.pick([1, 2, 2.5, 3, 4, 4, 5, 8, 10]),
            startTime: sale ? String(format2: 2026, 12, saleDay, "10:00") : "",
            endTime: sale ? String(format2: 2026, 12, saleDay + 4, "09:59") : "",
            reviewCount: reviewCount, reviewAverage: reviewAverage,
            pointRate: pointCampaign ? random.pick([2, 3, 5, 10]) : 1,
            pointRateStartTime: pointCampaign ? String(format2: 2026, 12, pointDay, "00:00") : "",
            pointRateEndTime: pointCampaign ? String(format2: 2026, 12, pointDay + 6, "23:59") : "",
            giftFlag: random.chance(0.3) ? 1 : 0, shopName: shop.name, shopCode: shop.code, genreID: genre.id,
            parentGenreID: genre.parentID, tagIDs: pickDistinct(genre.tagIDs, count: random.int(in: 0...2)).sorted(),
            updateTimestamp: random.int(in: 0...220_000_000),
            popularity: random.int(in: 0...1_000_000) + reviewCount * 200,
            searchText: RakutenKeyword.normalize(name + "\n" + caption + "\n" + catchcopy),
            searchName: RakutenKeyword.normalize(name))
    }

    private mutating func pickDistinct<T>(_ values: [T], count: Int) -> [T] {
        var pool = values
        var result: [T] = []
        while result.count < count, !pool.isEmpty {
            result.append(pool.remove(at: random.int(in: 0...(pool.count - 1))))
        }
        return result
    }

    /// Prices as shops write them: 3,980 rather than 3,947.
    private func nicePrice(_ price: Int) -> Int {
        if price < 1000 { return max(price / 10 * 10 + 80, 100) }
        return price / 100 * 100 + 80
    }

    private func pow3(_ x: Double) -> Double { x * x * x }
}

extension String {
    /// `"YYYY-MM-DD HH:MM"`.
    fileprivate init(format2 year: Int, _ month: Int, _ day: Int, _ time: String) {
        func two(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
        self = "\(year)-\(two(month))-\(two(day)) \(time)"
    }
}
