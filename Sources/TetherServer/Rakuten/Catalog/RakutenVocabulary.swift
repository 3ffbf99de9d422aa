/// The genres, shops and words the catalog is generated from (all fictional).
enum RakutenVocabulary {
    static let catchcopies = [
        "", "", "", "＼期間限定ポイント5倍／", "送料無料でお届け", "レビューを書いて次回使えるクーポン",
        "楽天ランキング1位獲得", "数量限定セール中", "店長おすすめ", "新生活応援セール", "ギフトにも最適です",
        "リピーター続出の人気商品",
    ]

    static let namePrefixes = ["【楽天1位】", "【ポイント10倍】", "【公式】", "【訳あり】", "【限定価格】"]

    static let closingLines = [
        "※モニターの発色の具合によって実際のものと色が異なる場合がございます。",
        "※在庫は複数店舗で共有しているため、ご注文のタイミングによっては品切れとなる場合がございます。",
        "※お届け日のご指定はご注文時の備考欄にご記入ください。",
        "※ギフト包装を承ります（無料）。",
    ]

    static let overseasAreas = ["アメリカ/カナダ/台湾", "ALL", "韓国/中国/香港", "オーストラリア/ニュージーランド"]

    static let genres: [RakutenGenre] = [
        RakutenGenre(
            id: 100040, parentID: 100026, name: "ノートパソコン", slug: "note-pc",
            nouns: [
                .init(japanese: "ノートパソコン", english: "Laptop"), .init(japanese: "ノートPC", english: "Notebook PC"),
                .init(japanese: "モバイルノートパソコン", english: "Mobile Laptop"),
            ],
            brands: ["KUMOBOOK", "Sorano", "ARATA", "Novabit"],
            specs: [
                ["15.6インチ", "14インチ", "13.3インチ"],
                ["Core i5", "Core i7", "Ryzen 5", "Ryzen 7"],
                ["メモリ8GB", "メモリ16GB", "メモリ32GB"],
                ["SSD 256GB", "SSD 512GB", "SSD 1TB"],
                ["Windows 11", "Office付き"],
                ["フルHD", "Wi-Fi 6"],
            ],
            suffixes: ["新品", "中古 整備済み", "学生向け", "在宅ワークに最適"],
            captionLines: ["保証期間：1年（メーカー保証）", "付属品：ACアダプター、取扱説明書", "OS：Windows 11 Home 64bit"],
            prices: 39800...219800, tagIDs: [1_000_300, 1_000_301, 1_000_302],
            shops: [
                .init(code: "pc-kobo", name: "PC工房 楽天市場店", isShopOfTheYear: true),
                .init(code: "sample-pc-depot", name: "パソコンデポ見本店"),
            ]),
        RakutenGenre(
            id: 110104, parentID: 100026, name: "マウス・キーボード", slug: "input",
            nouns: [
                .init(japanese: "ワイヤレスマウス", english: "Wireless Mouse"),
                .init(japanese: "キーボード", english: "Keyboard"),
                .init(japanese: "メカニカルキーボード", english: "Mechanical Keyboard"),
            ],
            brands: ["KUMO", "Tapix", "ELECOMO"],
            specs: [
                ["Bluetooth", "2.4GHz", "USB-C 有線"],
                ["静音", "充電式"],
                ["日本語配列", "英語配列"],
                ["テンキー付き", "コンパクト"],
            ],
            suffixes: ["テレワーク", "パソコン周辺機器", "ゲーミング"],
            captionLines: ["対応OS：Windows / macOS / iPadOS", "電源：充電式リチウムイオン電池"],
            prices: 980...14800, tagIDs: [1_000_310, 1_000_311],
            shops: [.init(code: "pc-kobo", name: "PC工房 楽天市場店", isShopOfTheYear: true)]),
        RakutenGenre(
            id: 201242, parentID: 100316, name: "コーヒー", slug: "coffee",
            nouns: [
                .init(japanese: "コーヒー豆", english: "Coffee Beans"),
                .init(japanese: "ドリップコーヒー", english: "Drip Coffee"),
                .init(japanese: "インスタントコーヒー", english: "Instant Coffee"),
                .init(japanese: "カフェインレスコーヒー", english: "Decaf Coffee"),
            ],
            brands: ["珈琲工房みなと", "Kissa", "山の珈琲", "BEANS LAB"],
            specs: [
                ["200g", "500g", "1kg", "100杯分"],
                ["深煎り", "中煎り", "浅煎り"],
                ["ブラジル", "コロンビア", "エチオピア", "グアテマラ", "ブレンド"],
                ["自家焙煎", "スペシャルティ"],
            ],
            suffixes: ["ギフト", "お試し", "福袋", "まとめ買い"],
            captionLines: ["原材料：コーヒー豆", "賞味期限：製造日より12ヶ月", "保存方法：直射日光・高温多湿を避けて保存してください。"],
            prices: 980...5980, tagIDs: [1_000_880, 1_000_881, 1_000_882],
            shops: [
                .init(code: "coffee-minato", name: "珈琲工房みなと"), .init(code: "sample-beans", name: "ビーンズ見本館"),
            ]),
        RakutenGenre(
            id: 100316, parentID: 100227, name: "緑茶・日本茶", slug: "tea",
            nouns: [
                .init(japanese: "緑茶", english: "Green Tea"), .init(japanese: "深蒸し煎茶", english: "Sencha"),
                .init(japanese: "抹茶", english: "Matcha"), .init(japanese: "ほうじ茶", english: "Hojicha"),
            ],
            brands: ["静岡茶園", "宇治の里", "お茶の見本園"],
            specs: [
                ["100g×3袋", "ティーバッグ 50包", "粉末 100g"],
                ["一番摘み", "二番茶"],
                ["静岡県産", "鹿児島県産", "宇治", "八女"],
            ],
            suffixes: ["日本茶 お茶 ギフト", "メール便", "お徳用"],
            captionLines: ["原材料：緑茶（国産）", "賞味期限：製造日より12ヶ月", "保存方法：高温多湿を避け移り香にご注意ください。"],
            prices: 540...4980, tagIDs: [1_000_886, 1_007_547],
            shops: [.init(code: "sample-ocha-shop", name: "お茶の見本園"), .init(code: "uji-sato", name: "宇治の里 本店")]),
        RakutenGenre(
            id: 110041, parentID: 211742, name: "カメラ", slug: "camera",
            nouns: [
                .init(japanese: "デジタルカメラ", english: "Digital Camera"),
                .init(japanese: "ミラーレス一眼カメラ", english: "Mirrorless Camera"),
                .init(japanese: "アクションカメラ", english: "Action Camera"),
                .init(japanese: "フィルムカメラ", english: "Film Camera"),
            ],
            brands: ["HIKARI", "Lensa", "PHOTONA", "Kagami"],
            specs: [
                ["2420万画素", "2010万画素", "4500万画素"],
                ["4K動画", "8K動画"],
                ["光学30倍ズーム", "単焦点レンズキット", "ダブルズームキット"],
                ["手ブレ補正", "防水"],
                ["Wi-Fi搭載", "SDカード付き"],
            ],
            suffixes: ["新品", "中古", "初心者向け", "旅行"],
            captionLines: ["付属品：バッテリー、充電器、ストラップ", "保証期間：1年", "記録メディア：SD/SDHC/SDXCカード"],
            prices: 14800...248000, tagIDs: [1_000_410, 1_000_411, 1_000_412],
            shops: [
                .init(code: "camera-kagami", name: "カメラのカガミ 楽天市場店", isShopOfTheYear: true),
                .init(code: "sample-photo", name: "写真機見本堂"),
            ]),
        RakutenGenre(
            id: 564500, parentID: 211742, name: "イヤホン・ヘッドホン", slug: "audio",
            nouns: [
                .init(japanese: "ワイヤレスイヤホン", english: "Wireless Earbuds"),
                .init(japanese: "イヤホン", english: "Earphones"),
                .init(japanese: "ヘッドホン", english: "Headphones"),
            ],
            brands: ["OTOHA", "Sonix", "ガジェット見本市場"],
            specs: [
                ["Bluetooth 5.3", "有線 3.5mm"],
                ["ノイズキャンセリング", "外音取り込み"],
                ["最大36時間再生", "最大24時間再生"],
                ["IPX5防水", "IPX4防水"],
                ["マイク付き", "ハイレゾ"],
            ],
            suffixes: ["【日本語説明書付き】", "iPhone Android 対応", "通勤 通学"],
            captionLines: ["通信方式：Bluetooth 5.3", "連続再生時間：約9時間（ケース併用で最大36時間）", "保証期間：1年"],
            prices: 1980...39800, tagIDs: [1_000_901, 1_000_902],
            shops: [.init(code: "sample-gadget-store", name: "ガジェット見本市場 楽天市場店")]),
        RakutenGenre(
            id: 204378, parentID: 562637, name: "炊飯器", slug: "rice-cooker",
            nouns: [
                .init(japanese: "炊飯器", english: "Rice Cooker"), .init(japanese: "IH炊飯器", english: "IH Rice Cooker"),
            ],
            brands: ["KAMADO", "Hikari Home", "ツバメ電機"],
            specs: [
                ["5.5合", "3合", "1升"],
                ["圧力IH", "IH", "マイコン式"],
                ["土鍋コート", "ダイヤモンドコート"],
                ["保温24時間", "早炊き"],
            ],
            suffixes: ["一人暮らし", "新生活", "家電"],
            captionLines: ["定格消費電力：1200W", "本体サイズ：幅25×奥行30×高さ21cm", "保証期間：1年"],
            prices: 6980...89800, tagIDs: [1_000_500, 1_000_501],
            shops: [.init(code: "kaden-tsubame", name: "つばめ家電 楽天市場店")]),
        RakutenGenre(
            id: 208025, parentID: 558885, name: "スニーカー", slug: "sneaker",
            nouns: [
                .init(japanese: "スニーカー", english: "Sneakers"),
                .init(japanese: "ランニングシューズ", english: "Running Shoes"),
                .init(japanese: "スリッポン", english: "Slip-on"),
            ],
            brands: ["HASHIRU", "Ashigaru", "STEPLY"],
            specs: [
                ["22.5cm〜29.0cm", "23.0cm〜28.0cm"],
                ["軽量", "厚底"],
                ["防水", "通気性"],
                ["幅広 4E", "幅広 3E"],
                ["レディース", "メンズ", "ユニセックス"],
            ],
            suffixes: ["ウォーキング", "通学", "ブラック ホワイト"],
            captionLines: ["素材：合成繊維、合成底", "サイズ：22.5cm〜29.0cm", "※サイズ交換は1回まで無料です。"],
            prices: 2980...16800, tagIDs: [1_000_600, 1_000_601, 1_000_602],
            shops: [.init(code: "shoes-stepup", name: "シューズ ステップアップ")]),
        RakutenGenre(
            id: 201184, parentID: 100227, name: "米・雑穀", slug: "rice",
            nouns: [
                .init(japanese: "お米", english: "Rice"), .init(japanese: "無洗米", english: "Wash-free Rice"),
                .init(japanese: "玄米", english: "Brown Rice"),
            ],
            brands: ["ゆめぴりか", "コシヒカリ", "あきたこまち", "ひとめぼれ"],
            specs: [
                ["5kg", "10kg", "2kg"],
                ["令和7年産", "令和6年産"],
                ["北海道産", "新潟県産", "秋田県産", "宮城県産"],
                ["特別栽培", "減農薬"],
            ],
            suffixes: ["ご飯", "送料無料", "精米したて"],
            captionLines: ["産地：国産", "精米日：出荷前日", "保存方法：冷暗所で保存してください。"],
            prices: 1980...12800, tagIDs: [1_000_700, 1_000_701],
            shops: [.init(code: "sample-kome-ya", name: "米どころ見本屋")]),
        RakutenGenre(
            id: 510915, parentID: 510915, name: "ビール・洋酒", slug: "beer",
            nouns: [
                .init(japanese: "クラフトビール", english: "Craft Beer"), .init(japanese: "ビール", english: "Beer"),
                .init(japanese: "ウイスキー", english: "Whisky"),
            ],
            brands: ["麦の蔵", "HOPWORKS", "北の醸造所"],
            specs: [
                ["350ml×24本", "飲み比べ 6本セット", "700ml"],
                ["IPA", "ヴァイツェン", "ピルスナー", "シングルモルト"],
                ["国産", "地ビール"],
            ],
            suffixes: ["お歳暮", "父の日", "ギフト"],
            captionLines: ["アルコール分：5%", "※20歳未満の飲酒は法律で禁止されています。"],
            prices: 2480...19800, tagIDs: [1_000_800, 1_000_801],
            shops: [.init(code: "mugi-no-kura", name: "麦の蔵 オンライン")]),
        RakutenGenre(
            id: 560202, parentID: 562637, name: "スマホケース", slug: "phone-case",
            nouns: [
                .init(japanese: "スマホケース", english: "Phone Case"), .init(japanese: "手帳型ケース", english: "Flip Case"),
                .init(japanese: "保護フィルム", english: "Screen Protector"),
            ],
            brands: ["CASEYA", "Mamoru", "Kawaii Cover"],
            specs: [
                ["iPhone 16", "iPhone 15", "Galaxy S24", "Pixel 9"],
                ["耐衝撃", "薄型"],
                ["カード収納", "ストラップ付き"],
                ["透明", "レザー調"],
            ],
            suffixes: ["おしゃれ", "韓国", "メール便送料無料"],
            captionLines: ["素材：TPU、PUレザー", "※機種をお間違えのないようご注意ください。"],
            prices: 780...4980, tagIDs: [1_000_900, 1_000_903],
            shops: [.init(code: "caseya", name: "ケース屋さん")]),
        RakutenGenre(
            id: 558929, parentID: 558929, name: "腕時計", slug: "watch",
            nouns: [
                .init(japanese: "腕時計", english: "Watch"), .init(japanese: "スマートウォッチ", english: "Smartwatch"),
                .init(japanese: "ソーラー電波時計", english: "Solar Watch"),
            ],
            brands: ["TOKINO", "Chronoa", "KIZAMI"],
            specs: [
                ["10気圧防水", "5気圧防水"],
                ["ソーラー", "電波", "クオーツ"],
                ["心拍計", "GPS"],
                ["ステンレス", "レザーベルト"],
                ["メンズ", "レディース"],
            ],
            suffixes: ["ビジネス", "プレゼント", "ブランド"],
            captionLines: ["ケース径：40mm", "防水性能：10気圧防水", "保証期間：1年"],
            prices: 3980...98000, tagIDs: [1_001_000, 1_001_001],
            shops: [.init(code: "tokei-kizami", name: "時計のキザミ")]),
        RakutenGenre(
            id: 110933, parentID: 216131, name: "バッグ", slug: "bag",
            nouns: [
                .init(japanese: "リュック", english: "Backpack"), .init(japanese: "トートバッグ", english: "Tote Bag"),
                .init(japanese: "ショルダーバッグ", english: "Shoulder Bag"),
            ],
            brands: ["KABAN", "Tabiji", "NUNO"],
            specs: [
                ["大容量", "コンパクト"],
                ["撥水", "防水"],
                ["A4対応", "B4対応"],
                ["PC収納", "多機能ポケット"],
                ["軽量", "帆布", "本革"],
            ],
            suffixes: ["通勤", "通学", "旅行", "メンズ レディース"],
            captionLines: ["素材：ポリエステル", "サイズ：縦45×横30×マチ15cm"],
            prices: 1980...29800, tagIDs: [1_001_100, 1_001_101],
            shops: [.init(code: "kaban-nuno", name: "かばんの布屋")]),
        RakutenGenre(
            id: 100371, parentID: 100371, name: "Tシャツ・トップス", slug: "tops",
            nouns: [
                .init(japanese: "Tシャツ", english: "T-shirt"), .init(japanese: "パーカー", english: "Hoodie"),
                .init(japanese: "カーディガン", english: "Cardigan"),
            ],
            brands: ["WAFUKU", "Cotton Mori", "SORA"],
            specs: [
                ["綿100%", "ポリエステル混"],
                ["半袖", "長袖", "七分袖"],
                ["オーバーサイズ", "スリム"],
                ["S M L XL", "M L XL XXL"],
                ["無地", "ボーダー"],
                ["接触冷感", "裏起毛"],
            ],
            suffixes: ["メンズ", "レディース", "ユニセックス"],
            captionLines: ["素材：綿100%", "洗濯：洗濯機可", "※サイズ表をご確認ください。"],
            prices: 990...7980, tagIDs: [1_001_200, 1_001_201],
            shops: [.init(code: "sora-wear", name: "SORA WEAR")]),
        RakutenGenre(
            id: 100939, parentID: 100939, name: "スキンケア", slug: "skincare",
            nouns: [
                .init(japanese: "化粧水", english: "Lotion"), .init(japanese: "美容液", english: "Serum"),
                .init(japanese: "日焼け止め", english: "Sunscreen"),
            ],
            brands: ["HADA", "Yuzu Skin", "白雪堂"],
            specs: [
                ["200ml", "150ml", "50ml"],
                ["ヒアルロン酸", "セラミド", "ビタミンC"],
                ["敏感肌", "乾燥肌", "オイリー肌"],
                ["無添加", "詰め替え"],
                ["SPF50+", "PA++++"],
            ],
            suffixes: ["保湿", "日本製", "スキンケア"],
            captionLines: ["内容量：200ml", "製造国：日本", "※お肌に合わない場合はご使用をおやめください。"],
            prices: 780...8800, tagIDs: [1_001_300, 1_001_301],
            shops: [.init(code: "shirayuki-do", name: "白雪堂 コスメ館")]),
        RakutenGenre(
            id: 215566, parentID: 100804, name: "寝具", slug: "bedding",
            nouns: [
                .init(japanese: "羽毛布団", english: "Down Comforter"), .init(japanese: "枕", english: "Pillow"),
                .init(japanese: "マットレス", english: "Mattress"),
            ],
            brands: ["NEMURI", "Fuwari", "眠りの森"],
            specs: [
                ["シングル", "セミダブル", "ダブル"],
                ["洗える", "抗菌防臭"],
                ["低反発", "高反発"],
                ["日本製", "ホテル仕様"],
            ],
            suffixes: ["快眠", "新生活", "オールシーズン"],
            captionLines: ["サイズ：シングル 150×210cm", "側生地：綿100%", "※配送は玄関先までとなります。"],
            prices: 2980...59800, tagIDs: [1_001_400, 1_001_401],
            shops: [.init(code: "nemuri-mori", name: "眠りの森 寝具店")]),
        RakutenGenre(
            id: 216436, parentID: 558944, name: "キッチン用品", slug: "kitchen",
            nouns: [
                .init(japanese: "フライパン", english: "Frying Pan"), .init(japanese: "包丁", english: "Kitchen Knife"),
                .init(japanese: "両手鍋", english: "Pot"),
            ],
            brands: ["TSUBAME", "燕三条工房", "Kitchen Mori"],
            specs: [
                ["20cm", "26cm", "28cm"],
                ["IH対応", "ガス火対応"],
                ["ステンレス", "鉄", "アルミ"],
                ["焦げ付きにくい", "軽量"],
                ["日本製", "燕三条製"],
            ],
            suffixes: ["キッチン用品", "調理器具", "プレゼント"],
            captionLines: ["材質：アルミニウム合金、フッ素樹脂加工", "対応熱源：IH・ガス火"],
            prices: 1480...19800, tagIDs: [1_001_500, 1_001_501],
            shops: [.init(code: "tsubame-kobo", name: "燕三条工房 楽天市場店")]),
        RakutenGenre(
            id: 101213, parentID: 101213, name: "ペット用品", slug: "pet",
            nouns: [
                .init(japanese: "ドッグフード", english: "Dog Food"), .init(japanese: "キャットフード", english: "Cat Food"),
                .init(japanese: "ペットシーツ", english: "Pet Sheets"),
            ],
            brands: ["WANCO", "Nyanta", "ぽち日和"],
            specs: [
                ["3kg", "1.5kg", "レギュラー 200枚"],
                ["国産", "無添加"],
                ["グレインフリー", "低脂肪"],
                ["シニア", "子犬用", "成猫用"],
            ],
            suffixes: ["まとめ買い", "お試し", "送料無料"],
            captionLines: ["原産国：日本", "※パッケージは予告なく変更になる場合がございます。"],
            prices: 980...7980, tagIDs: [1_001_600, 1_001_601],
            shops: [.init(code: "pochi-biyori", name: "ぽち日和 ペットショップ")]),
        RakutenGenre(
            id: 101070, parentID: 101070, name: "アウトドア", slug: "outdoor",
            nouns: [
                .init(japanese: "テント", english: "Tent"), .init(japanese: "寝袋", english: "Sleeping Bag"),
                .init(japanese: "アウトドアチェア", english: "Camping Chair"),
            ],
            brands: ["YAMABIKO", "Takibi", "CAMPLY"],
            specs: [
                ["2人用", "4人用", "ソロ"],
                ["防水", "耐水圧3000mm"],
                ["軽量", "コンパクト収納"],
                ["ワンタッチ", "ドーム型"],
            ],
            suffixes: ["キャンプ", "アウトドア", "防災"],
            captionLines: ["収納サイズ：直径20×長さ60cm", "重量：約4.2kg", "付属品：収納袋、ペグ"],
            prices: 1980...49800, tagIDs: [1_001_700, 1_001_701],
            shops: [.init(code: "camply", name: "CAMPLY アウトドア")]),
        RakutenGenre(
            id: 566382, parentID: 566382, name: "おもちゃ", slug: "toy",
            nouns: [
                .init(japanese: "ブロック", english: "Building Blocks"), .init(japanese: "ぬいぐるみ", english: "Plush Toy"),
                .init(japanese: "知育玩具", english: "Educational Toy"),
            ],
            brands: ["ASOBI", "Kumakuma", "つみき堂"],
            specs: [
                ["3歳から", "1歳から", "6歳から"],
                ["木製", "布製"],
                ["100ピース", "50ピース"],
                ["日本製", "出産祝い", "誕生日"],
            ],
            suffixes: ["プレゼント", "男の子 女の子", "クリスマス"],
            captionLines: ["対象年齢：3歳以上", "※小さな部品を含みます。"],
            prices: 980...12800, tagIDs: [1_001_800, 1_001_801],
            shops: [.init(code: "tsumiki-do", name: "つみき堂")]),
        RakutenGenre(
            id: 551167, parentID: 100227, name: "スイーツ・お菓子", slug: "sweets",
            nouns: [
                .init(japanese: "チョコレート", english: "Chocolate"), .init(japanese: "クッキー", english: "Cookies"),
                .init(japanese: "和菓子", english: "Wagashi"),
            ],
            brands: ["菓子工房あまね", "Sweets Mori", "京の菓子処"],
            specs: [
                ["詰め合わせ", "12個入り", "24個入り"],
                ["個包装", "箱入り"],
                ["抹茶", "ミルク", "いちご"],
                ["国産", "冷蔵便"],
            ],
            suffixes: ["ギフト", "お歳暮", "バレンタイン", "お取り寄せ"],
            captionLines: ["賞味期限：製造日より30日", "アレルギー：小麦・乳・卵", "保存方法：直射日光を避けて保存してください。"],
            prices: 980...6480, tagIDs: [1_001_900, 1_001_901],
            shops: [.init(code: "amane-kashi", name: "菓子工房あまね")]),
    ]
}
