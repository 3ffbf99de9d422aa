import TetherSync

/// Makes Rakuten Ichiba Item Search responses (2022-06-01, formatVersion=1), deterministically from a seed.
///
/// The shape follows /work/shared/reference/rakuten-ichiba-item-search.md §3 and the shared `search-sample.json`:
/// the top-level `count`/`page`/`first`/`last`/`hits`/`carrier`/`pageCount`, `"Items": [{"Item": {…}}]`, and
/// empty `GenreInformation`/`TagInformation`, indented by 2 spaces like the sample. Every item has all the fields of
/// §3, in the order of a real capture, with the traps a decoder must handle: Japanese text, captions with `\n`,
/// `\"`, `\/` and an occasional `\u` escape, `genreId` as a string, `reviewAverage`/`affiliateRate` that are
/// sometimes integer literals, and times that are `""` or `"YYYY-MM-DD HH:MM"`.
struct RakutenGenerator {
    private var random: SplitMix64
    private let shops: [Shop]
    private let vocabulary = Vocabulary()

    init(seed: UInt64) {
        random = SplitMix64(seed: seed)
        var shopRandom = SplitMix64(seed: seed ^ 0x5150_5150)
        shops = (0..<300).map { Shop(index: $0, random: &shopRandom) }
    }

    /// A response with as many items as fit in about `targetBytes` bytes.
    mutating func response(targetBytes: Int) -> [UInt8] {
        var items = JSONTextWriter(indentWidth: 2, reservingCapacity: targetBytes + 8192)
        var count = 0
        items.beginArray()
        repeat {
            writeItem(number: count, into: &items)
            count += 1
        } while items.count < targetBytes
        items.endArray()
        return assemble(itemsArray: items.bytes, count: count)
    }

    /// A response with exactly `items` items, like one page of search results.
    mutating func response(items itemCount: Int) -> [UInt8] {
        var items = JSONTextWriter(indentWidth: 2)
        items.beginArray()
        for number in 0..<itemCount {
            writeItem(number: number, into: &items)
        }
        items.endArray()
        return assemble(itemsArray: items.bytes, count: itemCount)
    }

    /// Puts the header and trailer around an `Items` array written at depth 0; re-indents it by one level.
    private func assemble(itemsArray: [UInt8], count: Int) -> [UInt8] {
        let total = max(count, 25_422)
        var head = JSONTextWriter(indentWidth: 2)
        head.beginObject()
        head.key("count")
        head.int(total)
        head.key("page")
        head.int(1)
        head.key("first")
        head.int(count == 0 ? 0 : 1)
        head.key("last")
        head.int(count)
        head.key("hits")
        head.int(count)
        head.key("carrier")
        head.int(0)
        head.key("pageCount")
        head.int(count == 0 ? 0 : min(100, (total + count - 1) / count))
        head.key("Items")
        var output = head.bytes
        output.reserveCapacity(itemsArray.count + itemsArray.count / 8 + 256)
        for byte in itemsArray {
            output.append(byte)
            if byte == UInt8(ascii: "\n") { output += [0x20, 0x20] }
        }
        output += Array(",\n  \"GenreInformation\": [],\n  \"TagInformation\": []\n}\n".utf8)
        return output
    }

    private mutating func writeItem(number: Int, into json: inout JSONTextWriter) {
        let shop = random.pick(shops)
        let slug = "\(random.pick(vocabulary.slugWords))-\(random.int(in: 1...999))"
        let price = random.int(in: 3...500) * 100 - random.pick([0, 0, 20, 10])
        let maxPrice = random.chance(percent: 30) ? price + random.int(in: 1...30) * 100 : price
        let imageCount = random.chance(percent: 5) ? 0 : random.int(in: 1...3)
        let reviewCount = random.chance(percent: 25) ? 0 : random.int(in: 1...5000)
        let reviewAverage: Int
        if reviewCount == 0 {
            reviewAverage = 0
        } else if random.chance(percent: 10) {
            reviewAverage = random.pick([100, 300, 400, 500])
        } else {
            reviewAverage = random.int(in: 250...500)
        }

        json.beginObject()
        json.key("Item")
        json.beginObject()
        json.key("itemName")
        json.string(text(from: vocabulary.nameWords, separator: vocabulary.space, characters: 50...70))
        json.key("catchcopy")
        json.string(random.chance(percent: 30) ? EscapedText() : random.pick(vocabulary.catchcopies))
        json.key("itemCode")
        json.plainString("\(shop.code):\(10_000_000 + number)")
        json.key("itemPrice")
        json.int(price)
        json.key("itemPriceBaseField")
        json.plainString("item_price_min3")
        json.key("itemPriceMax1")
        json.int(maxPrice)
        json.key("itemPriceMax2")
        json.int(maxPrice)
        json.key("itemPriceMax3")
        json.int(maxPrice)
        json.key("itemPriceMin1")
        json.int(price)
        json.key("itemPriceMin2")
        json.int(price)
        json.key("itemPriceMin3")
        json.int(price)
        json.key("itemCaption")
        json.string(text(from: vocabulary.captionSentences, separator: vocabulary.newline, characters: 260...340))
        json.key("itemUrl")
        json.plainString("https://item.rakuten.co.jp/\(shop.code)/\(slug)/")
        json.key("shopUrl")
        json.plainString("https://www.rakuten.co.jp/\(shop.code)/")
        let imageLists: [(key: StaticString, size: String)] = [
            ("smallImageUrls", "64x64"), ("mediumImageUrls", "128x128"),
        ]
        for (key, size) in imageLists {
            json.key(key)
            json.beginArray()
            for image in 0..<imageCount {
                json.beginObject()
                json.key("imageUrl")
                json.plainString(
                    "https://thumbnail.image.rakuten.co.jp/@0_mall/\(shop.code)/cabinet/\(slug)_0\(image + 1).jpg?_ex=\(size)"
                )
                json.endObject()
            }
            json.endArray()
        }
        json.key("affiliateUrl")
        json.plainString("")
        json.key("shopAffiliateUrl")
        json.plainString("")
        json.key("imageFlag")
        json.int(imageCount > 0 ? 1 : 0)
        json.key("availability")
        json.int(random.chance(percent: 95) ? 1 : 0)
        json.key("taxFlag")
        json.int(0)
        json.key("postageFlag")
        json.int(random.chance(percent: 60) ? 0 : 1)
        json.key("creditCardFlag")
        json.int(1)
        json.key("shopOfTheYearFlag")
        json.int(shop.ofTheYear ? 1 : 0)
        let shipsOverseas = random.chance(percent: 15)
        json.key("shipOverseasFlag")
        json.int(shipsOverseas ? 1 : 0)
        json.key("shipOverseasArea")
        json.string(shipsOverseas ? random.pick(vocabulary.overseasAreas) : EscapedText())
        json.key("asurakuFlag")
        json.int(0)
        json.key("asurakuClosingTime")
        json.plainString("")
        json.key("asurakuArea")
        json.plainString("")
        json.key("affiliateRate")
        json.hundredths(random.pick([100, 200, 250, 300, 400, 400, 450, 500, 800, 1000]))
        let onSale = random.chance(percent: 15)
        json.key("startTime")
        json.plainString(onSale ? timestamp(day: number % 28 + 1, hour: 10, minute: 0) : "")
        json.key("endTime")
        json.plainString(onSale ? timestamp(day: number % 28 + 1, hour: 23, minute: 59) : "")
        json.key("reviewCount")
        json.int(reviewCount)
        json.key("reviewAverage")
        json.hundredths(reviewAverage)
        let pointCampaign = random.chance(percent: 20)
        json.key("pointRate")
        json.int(pointCampaign ? random.pick([2, 3, 5, 10]) : 1)
        json.key("pointRateStartTime")
        json.plainString(pointCampaign ? timestamp(day: number % 21 + 1, hour: 0, minute: 0) : "")
        json.key("pointRateEndTime")
        json.plainString(pointCampaign ? timestamp(day: number % 21 + 7, hour: 23, minute: 59) : "")
        json.key("giftFlag")
        json.int(random.chance(percent: 40) ? 1 : 0)
        json.key("shopName")
        json.string(shop.name)
        json.key("shopCode")
        json.plainString(shop.code)
        json.key("genreId")
        json.plainString(String(random.pick(vocabulary.genreIDs)))
        json.key("tagIds")
        json.beginArray()
        for _ in 0..<random.int(in: 0...5) {
            json.int(random.int(in: 1_000_000...1_010_000))
        }
        json.endArray()
        json.endObject()
        json.endObject()
    }

    /// Joins distinct random pieces until the text has at least a random length from `characters` (pieces repeat
    /// only once all have been used).
    private mutating func text(
        from pieces: [EscapedText], separator: EscapedText, characters: ClosedRange<Int>
    ) -> EscapedText {
        let target = random.int(in: characters)
        var order = Array(pieces.indices)
        var result = EscapedText()
        var used = 0
        while result.characters < target {
            if used == order.count { used = 0 }
            order.swapAt(used, random.int(in: used...(order.count - 1)))
            if result.characters > 0 { result.append(separator) }
            result.append(pieces[order[used]])
            used += 1
        }
        return result
    }

    private func timestamp(day: Int, hour: Int, minute: Int) -> String {
        func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return "2024-05-\(two(day)) \(two(hour)):\(two(minute))"
    }
}

private struct Shop {
    let code: String
    let name: EscapedText
    let ofTheYear: Bool

    init(index: Int, random: inout SplitMix64) {
        let prefixes = [
            "ocha", "kome", "gadget", "kitchen", "sweets", "fashion", "interior", "outdoor", "beauty", "pet",
            "book", "toy", "wine", "sake", "flower", "bag", "shoes", "watch", "tea", "coffee",
        ]
        let suffixes = ["shop", "store", "ya", "honpo", "direct", "select", "mart", "factory"]
        let names = [
            "お茶の見本園", "ガジェット見本市場", "米屋見本", "キッチン雑貨の店", "スイーツ工房", "ファッション館",
            "インテリア本舗", "アウトドア専門店", "コスメ見本堂", "ペット用品の店", "本と文具の見本屋", "おもちゃ箱",
            "ワインセラー見本", "地酒の蔵", "花屋見本", "バッグの店", "靴の専門店", "時計工房", "紅茶専門店", "珈琲焙煎所",
        ]
        code = "sample-\(random.pick(prefixes))-\(random.pick(suffixes))\(index)"
        name = EscapedText(random.pick(names) + (random.chance(percent: 50) ? " 楽天市場店" : ""))
        ofTheYear = random.chance(percent: 8)
    }
}

/// The words and sentences the generated items are made of, escaped once.
private struct Vocabulary {
    let space = EscapedText(" ")
    let newline = EscapedText("\n")
    let genreIDs = [100_316, 564_500, 201_466, 100_227, 558_885, 100_371, 551_177, 215_783, 100_804, 101_070]
    let slugWords = [
        "fukamushi", "yumepirika", "tws-anc", "towel", "sneaker", "mattress", "storage", "fryingpan", "coffee",
        "case", "battery", "gift", "sweets", "choco", "wagashi", "set", "bag", "watch",
    ]

    let nameWords: [EscapedText] = [
        "【送料無料】", "【楽天1位】", "【ポイント10倍】", "【訳あり】", "【公式】", "【期間限定】", "静岡県産", "北海道産",
        "国産", "深蒸し煎茶", "緑茶", "日本茶", "ギフト", "お歳暮", "お中元", "プレゼント", "ワイヤレスイヤホン",
        "Bluetooth 5.3", "ノイズキャンセリング", "防水", "無洗米", "5kg", "令和7年産", "お米", "タオル", "今治", "綿100%",
        "レディース", "メンズ", "スニーカー", "ランニングシューズ", "マットレス", "シングル", "折りたたみ", "収納ボックス",
        "キッチン", "フライパン", "IH対応", "26cm", "コーヒー豆", "1kg", "ドリップ", "スマホケース", "手帳型", "大容量",
        "モバイルバッテリー", "20000mAh", "急速充電", "日本製", "セット", "まとめ買い", "送料込み", "おしゃれ", "人気",
        "母の日", "父の日", "敬老の日", "誕生日", "内祝い", "お返し", "詰め合わせ", "スイーツ", "チョコレート", "和菓子",
    ].map { EscapedText($0) }

    let catchcopies: [EscapedText] = [
        "産地直送！毎年リピーター続出の一番茶", "＼期間限定ポイント5倍／", "楽天ランキング1位獲得", "あす楽対応・送料無料",
        "\"本当においしい\"と話題です", "数量限定！お早めに", "ギフトに最適 のし対応",
    ].map { EscapedText($0, escapingSlashes: true) }

    let overseasAreas: [EscapedText] = ["アメリカ/カナダ/台湾", "韓国/中国/香港", "ALL"].map { EscapedText($0) }

    /// Caption sentences, escaped the way PHP's `json_encode` writes them (`\/`); a few use `\u` escapes.
    let captionSentences: [EscapedText] = {
        var sentences = [
            "内容量：100g×3袋", "原材料：緑茶（静岡県産）", "賞味期限：製造日より12ヶ月",
            "保存方法：高温多湿を避け、移り香にご注意ください。", "サイズ：S/M/L/XL", "カラー：ブラック/ホワイト/ネイビー",
            "\"楽天ランキング1位\"を獲得しました！", "※モニターの発色により実物と異なる場合がございます。",
            "ご注文から3〜5営業日以内に発送いたします。", "メーカー希望小売価格はメーカーカタログに基づいて掲載しています。",
            "商品ページ：https://item.rakuten.co.jp/sample/", "【ギフト対応】のし・ラッピング承ります。", "素材：綿100%",
            "生産国：日本", "保証期間：1年", "お届け日時の指定が可能です。", "※北海道・沖縄・離島は別途送料がかかります。",
            "カラー・サイズ違いもございます。", "\"おいしい\"と評判の一品です。", "連続再生時間：約9時間（ケース併用で最大36時間）",
            "防水規格：IPX5", "対応機種：iPhone/Android", "お手入れ方法：中性洗剤で手洗いしてください。",
            "配送方法：宅配便（常温）", "JANコード：4901234567894", "ラッピング：無料（ギフトバッグ付き）",
            "※画像はイメージです。", "寸法：幅30cm×奥行20cm×高さ15cm", "重量：約1.2kg",
        ].map { EscapedText($0, escapingSlashes: true) }
        sentences.append(EscapedText("★レビューを書いて送料無料★", unicodeEscaped: ["★"]))
        sentences.append(EscapedText("お得な3個セット\u{3000}まとめ買いでさらにお得", unicodeEscaped: ["\u{3000}"]))
        return sentences
    }()
}
