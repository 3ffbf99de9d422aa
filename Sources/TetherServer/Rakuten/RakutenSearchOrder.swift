/// How a search's matches are ordered: the `sort` parameter, read by its grammar.
///
/// The parameter is `standard` (Rakuten's relevance: name matches first, then popularity) or a sign followed by
/// one of five fields: `+itemPrice` is cheapest first, `-itemPrice` dearest first; eleven values in all, matched
/// exactly (letter case counts). Ties go by catalog position, so every order is total and stable.
///
/// The client's list of the eleven values is TetherAPIs' `RakutenSort`. The server does not import it: TetherAPIs
/// sits on the store and the HTTP client, which a server has no use for, so the server reads the values' grammar
/// here instead of repeating the list.
struct RakutenSearchOrder: Sendable, Hashable, CustomStringConvertible {
    /// The fields a search can be sorted by, spelled as in the parameter.
    enum Field: String, Sendable, CaseIterable {
        case affiliateRate, reviewCount, reviewAverage, itemPrice, updateTimestamp
    }

    /// The field, or `nil` for `standard`.
    var field: Field?
    /// Whether the field grows down the list (`+`); `false` for `standard`.
    var ascending: Bool

    /// Rakuten's own order, the default.
    static let standard = RakutenSearchOrder(field: nil, ascending: false)

    init(field: Field?, ascending: Bool) {
        self.field = field
        self.ascending = field == nil ? false : ascending
    }

    /// Reads a `sort` value: `standard`, or `+`/`-` and a field; `nil` for anything else.
    init?(parameter: some StringProtocol) {
        if parameter == "standard" {
            self = .standard
            return
        }
        guard let sign = parameter.first, sign == "+" || sign == "-",
            let field = Field(rawValue: String(parameter.dropFirst()))
        else { return nil }
        self.init(field: field, ascending: sign == "+")
    }

    /// The value as the API spells it: `standard`, `+itemPrice`, `-reviewCount`…
    var parameter: String { field.map { (ascending ? "+" : "-") + $0.rawValue } ?? "standard" }

    var description: String { parameter }

    /// The eleven orders, `standard` first.
    static let allCases: [RakutenSearchOrder] =
        [.standard] + Field.allCases.flatMap { [Self(field: $0, ascending: true), Self(field: $0, ascending: false)] }

    /// Whether `a` comes before `b`.
    func areInIncreasingOrder(_ a: CatalogItem, _ b: CatalogItem, nameMatchA: Bool, nameMatchB: Bool) -> Bool {
        func by<T: Comparable>(_ x: T, _ y: T, ascending: Bool) -> Bool {
            if x != y { return ascending ? x < y : x > y }
            return a.id < b.id
        }
        switch field {
        case nil:
            if nameMatchA != nameMatchB { return nameMatchA }
            return by(a.popularity, b.popularity, ascending: false)
        case .affiliateRate: return by(a.affiliateRate, b.affiliateRate, ascending: ascending)
        case .reviewCount: return by(a.reviewCount, b.reviewCount, ascending: ascending)
        case .reviewAverage: return by(a.reviewAverage, b.reviewAverage, ascending: ascending)
        case .itemPrice: return by(a.price, b.price, ascending: ascending)
        case .updateTimestamp: return by(a.updateTimestamp, b.updateTimestamp, ascending: ascending)
        }
    }
}
