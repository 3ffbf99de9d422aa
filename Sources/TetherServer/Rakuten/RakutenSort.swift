/// The eleven `sort` orders of the Item Search API.
enum RakutenSort: String, Sendable, CaseIterable {
    case standard
    case affiliateRateAscending = "+affiliateRate"
    case affiliateRateDescending = "-affiliateRate"
    case reviewCountAscending = "+reviewCount"
    case reviewCountDescending = "-reviewCount"
    case reviewAverageAscending = "+reviewAverage"
    case reviewAverageDescending = "-reviewAverage"
    case itemPriceAscending = "+itemPrice"
    case itemPriceDescending = "-itemPrice"
    case updateTimestampAscending = "+updateTimestamp"
    case updateTimestampDescending = "-updateTimestamp"

    /// Whether `a` comes before `b`; ties go by catalog position, so every order is total and stable.
    func areInIncreasingOrder(_ a: CatalogItem, _ b: CatalogItem, nameMatchA: Bool, nameMatchB: Bool) -> Bool {
        func by<T: Comparable>(_ x: T, _ y: T, ascending: Bool) -> Bool {
            if x != y { return ascending ? x < y : x > y }
            return a.id < b.id
        }
        switch self {
        case .standard:
            if nameMatchA != nameMatchB { return nameMatchA }
            return by(a.popularity, b.popularity, ascending: false)
        case .affiliateRateAscending: return by(a.affiliateRate, b.affiliateRate, ascending: true)
        case .affiliateRateDescending: return by(a.affiliateRate, b.affiliateRate, ascending: false)
        case .reviewCountAscending: return by(a.reviewCount, b.reviewCount, ascending: true)
        case .reviewCountDescending: return by(a.reviewCount, b.reviewCount, ascending: false)
        case .reviewAverageAscending: return by(a.reviewAverage, b.reviewAverage, ascending: true)
        case .reviewAverageDescending: return by(a.reviewAverage, b.reviewAverage, ascending: false)
        case .itemPriceAscending: return by(a.price, b.price, ascending: true)
        case .itemPriceDescending: return by(a.price, b.price, ascending: false)
        case .updateTimestampAscending: return by(a.updateTimestamp, b.updateTimestamp, ascending: true)
        case .updateTimestampDescending: return by(a.updateTimestamp, b.updateTimestamp, ascending: false)
        }
    }
}
