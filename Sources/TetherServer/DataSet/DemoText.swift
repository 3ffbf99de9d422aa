import TetherSync

/// Hand-written text for the demo data, in English and Japanese: the notes a person keeps, blog posts on everyday
/// themes, the people who write them and the replies they get. Posts and comments are assembled from these
/// pieces with a seeded generator, so every run (and every seed) gives the same data.
enum DemoText {
    /// The 20 notes of the notes example: a title and a body of one to three lines.
    static let notes: [(title: String, body: String)] = [
        ("買い物リスト", "牛乳、卵、食パン\nバナナ 1 房、ヨーグルト\n洗剤がもう少ない"),
        ("Dentist", "Thursday 10:30, Dr. Mori\nBring the insurance card"),
        ("読みたい本", "『博士の愛した数式』\n『コンビニ人間』\n図書館の予約は 3 件まで"),
        (
            "Trip to Kyoto",
            "Shinkansen Nozomi 7:03 from Tokyo, car 8\nHotel check-in after 15:00\nFushimi Inari early, before the crowds"
        ),
        ("パスワードの変更", "銀行と携帯会社のパスワードを今月中に変える"),
        ("Gift ideas for Mum", "Scarf (dark green)\nThe tea set from the shop near the station"),
        ("週末の予定", "土曜: 午前中に洗濯、午後は美容院 14:00\n日曜: 実家で昼ごはん"),
        ("Plants", "Water the basil every other day\nRepot the monstera in spring"),
        ("会議メモ 11/21", "リリースは 12 月 10 日に決定\nテスト環境の移行は田中さん担当\n次回は 28 日 15 時"),
        (
            "Recipe: miso soup",
            "Dashi: kombu 10 g soaked 30 min, then katsuobushi\nTofu, wakame, one spoon of white miso per bowl\nNever let it boil after the miso goes in"
        ),
        ("粗大ごみ", "古い本棚の回収を申し込む（電話 0120）\nシールはコンビニで 400 円"),
        ("Running", "5 km in 27:40, knee fine\nNext: intervals on Wednesday"),
        ("年末の大掃除", "換気扇\n窓ふき\nエアコンのフィルター"),
        ("Car", "Tyres swapped to winter ones on the 15th\nOil change due at 45,000 km"),
        ("映画", "『ゴジラ-1.0』をもう一度観たい\n金曜のレイトショーは 21:10"),
        ("Wi-Fi at home", "Network: hana-home-5G\nRouter restarts itself at 4:00"),
        ("引っ越しの準備", "電気・ガス・水道の手続き\n住所変更: 免許証、銀行、カード会社"),
        ("Ideas", "A small app that reminds me to call my grandparents\nLearn to make bread by March"),
        ("健康診断", "12 月 5 日 9:00、前日の 21 時以降は絶食\n保険証と問診票を忘れずに"),
        ("Books lent", "Ken has my copy of 'The Remains of the Day'\nAsk Yui about the manga"),
    ]

    /// The people: ten writers, half in each language (name, username stem).
    static let people: [(name: String, username: String)] = [
        ("Emma Collins", "emma.c"), ("佐藤 健", "ken_sato"), ("Oliver Hughes", "ohughes"),
        ("鈴木 ゆい", "yui.suzuki"), ("Grace Patel", "gracep"), ("高橋 大輔", "d_takahashi"),
        ("Liam Brooks", "liamb"), ("田中 美咲", "misaki.t"), ("Sophie Turner", "sophiet"),
        ("伊藤 翔", "sho_ito"),
    ]

    /// A theme of posts: titles, and lines of which a post's body takes four.
    struct Theme {
        var titles: [String]
        var lines: [String]
    }

    /// English themes.
    static let english: [Theme] = [
        Theme(
            titles: [
                "A weeknight curry in thirty minutes", "What I learned from baking bread every Sunday",
                "Three soups for the first cold week", "Cooking rice without a rice cooker",
            ],
            lines: [
                "Start the onions first; everything else can wait for them.",
                "A spoon of grated apple makes the sauce rounder without making it sweet.",
                "Weigh the flour, do not scoop it: the dough changes more than you would think.",
                "Leftovers taste better the next day, so I always make double.",
                "Let the pot rest ten minutes with the lid on before you serve.",
                "Salt in small steps, and taste after each one.",
                "I keep a jar of stock in the freezer for evenings like this.",
            ]),
        Theme(
            titles: [
                "Two days in Kanazawa on foot", "Packing light for a week of trains",
                "An early morning at the fish market", "Why I always take the slow train once",
            ],
            lines: [
                "We left the bags at the station lockers and walked everywhere.",
                "The garden opens at seven, and for an hour it was ours.",
                "A rail pass paid for itself by the third day.",
                "The best meal of the trip was at a counter with eight seats.",
                "Bring coins: small shrines and buses still want them.",
                "Rain came in the afternoon, so we spent it in a tiny museum.",
                "Next time I will stay one more night and do less.",
            ]),
        Theme(
            titles: [
                "Writing tests before fixing the bug", "The day our cache served stale prices",
                "Small functions, honest names", "Reading other people's code on purpose",
            ],
            lines: [
                "The fix was one line; finding it took the whole afternoon.",
                "A failing test first meant we knew exactly when we were done.",
                "Most of the slowness was in code nobody had looked at for years.",
                "Naming the function well removed the need for the comment.",
                "We measured before changing anything, and the guess was wrong.",
                "Retries hide problems until the day they cause one.",
                "The review caught what the tests could not.",
            ]),
        Theme(
            titles: [
                "Tomatoes on a north-facing balcony", "Saving basil seeds for next year",
                "What the first frost taught me", "A compost bin in a small flat",
            ],
            lines: [
                "Four hours of sun turned out to be just enough.",
                "I water in the morning now, never in the evening.",
                "The cheapest pots did as well as the expensive ones.",
                "Pinch the tops and the plant grows wider instead of taller.",
                "The snails found the lettuce before I did.",
                "Coffee grounds went in the compost, not around the roots.",
            ]),
        Theme(
            titles: [
                "My first half marathon", "Running through a winter", "Slower runs, faster races",
            ],
            lines: [
                "The first ten kilometres felt easy, which was the problem.",
                "Most of my runs are now slow enough to talk through.",
                "New shoes on race day was a mistake I will not repeat.",
                "Dark mornings are easier with a friend waiting at the corner.",
                "I stopped checking the watch every minute and enjoyed it more.",
                "Rest days are part of the plan, not a break from it.",
            ]),
    ]

    /// Japanese themes.
    static let japanese: [Theme] = [
        Theme(
            titles: ["平日の夜に作る簡単カレー", "週末のパン作り、半年の記録", "寒くなったら作りたいスープ三品", "土鍋でご飯を炊いてみた"],
            lines: [
                "玉ねぎをじっくり炒めるのがいちばん大事です。",
                "すりおろしたりんごを少し入れると味がまろやかになります。",
                "粉は計量カップではなく、はかりで量るようにしました。",
                "多めに作って、次の日のお昼にも食べています。",
                "火を止めてから十分ほど蒸らすと、ふっくら仕上がります。",
                "塩は少しずつ、そのつど味見をしながら加えます。",
                "冷凍しておいただしがあると、平日の料理がぐっと楽になります。",
            ]),
        Theme(
            titles: ["金沢を歩いてまわった二日間", "青春18きっぷで行く山陰の旅", "朝の市場で食べた海鮮丼", "雨の日の京都も悪くない"],
            lines: [
                "荷物は駅のコインロッカーに預けて、身軽に歩きました。",
                "朝七時の庭園はほとんど人がいなくて、静かでした。",
                "地元の人に教えてもらった食堂が旅でいちばんの思い出です。",
                "バスは本数が少ないので、時刻表を先に調べておくと安心です。",
                "午後から雨になったので、小さな美術館でゆっくり過ごしました。",
                "次はもう一泊して、予定を詰め込みすぎないようにしたいです。",
            ]),
        Theme(
            titles: ["テストを書いてからバグを直す", "キャッシュが古い価格を返した日", "変数の名前に悩んだ話", "コードレビューで学んだこと"],
            lines: [
                "修正は一行でしたが、原因を見つけるのに半日かかりました。",
                "先に失敗するテストを書いたので、直ったことがはっきり分かりました。",
                "遅かった原因は、何年も誰も見ていなかったコードにありました。",
                "関数の名前を変えたら、コメントが要らなくなりました。",
                "推測で直す前に、まず計測することにしています。",
                "リトライは問題を隠してしまうことがあるので注意が必要です。",
            ]),
        Theme(
            titles: ["ベランダでミニトマトを育てる", "バジルの種を採ってみた", "初霜で枯れた鉢と残った鉢", "マンションでコンポスト"],
            lines: [
                "日当たりは四時間ほどですが、なんとか実がなりました。",
                "水やりは夕方ではなく朝にするようにしました。",
                "安い鉢でも育ち方はほとんど変わりませんでした。",
                "先端を摘むと、横に広がってよく茂ります。",
                "気づいたらナメクジにレタスを食べられていました。",
                "コーヒーかすは直接まかずに、コンポストに入れています。",
            ]),
        Theme(
            titles: ["初めてのハーフマラソン", "冬の朝ランを続けるコツ", "ゆっくり走ると速くなる"],
            lines: [
                "最初の十キロが楽すぎて、後半に苦しくなりました。",
                "普段のランニングは、会話できるくらいのペースにしています。",
                "大会の日に新しい靴をおろしたのは失敗でした。",
                "暗い朝でも、友だちと待ち合わせると続けられます。",
                "時計を見るのをやめたら、走るのがもっと楽しくなりました。",
                "休む日も練習の一部だと考えるようになりました。",
            ]),
    ]

    /// Short replies to a post, in both languages.
    static let replies = [
        "Thanks for writing this up, I am trying it this weekend.",
        "Same thing happened to me last year!",
        "Do you have a link to the one you used?",
        "Great photos, and a very useful list.",
        "I never thought of doing it that way.",
        "How long did the whole thing take you?",
        "参考になりました。ありがとうございます！",
        "私も同じところでつまずきました。",
        "次の記事も楽しみにしています。",
        "写真がとてもきれいですね。",
        "これなら私にもできそうです。",
        "どのくらい時間がかかりましたか？",
    ]
}

/// Hands out a language's post titles in a random order without repeats; once all are used, they come round again
/// as a series ("… (part 2)", "…（その2）").
struct TitleQueue {
    private var order: [(theme: Int, title: String)] = []
    private var round = 0
    private let japanese: Bool

    init(japanese: Bool) { self.japanese = japanese }

    mutating func next(_ random: inout SplitMix64, _ themes: [DemoText.Theme]) -> (theme: Int, title: String) {
        if order.isEmpty {
            round += 1
            order = random.shuffled(themes.indices.flatMap { theme in themes[theme].titles.map { (theme, $0) } })
        }
        let (theme, title) = order.removeLast()
        guard round > 1 else { return (theme, title) }
        return (theme, japanese ? "\(title)（その\(round)）" : "\(title) (part \(round))")
    }
}
