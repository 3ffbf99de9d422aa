/// The order of Rakuten item search results: the eleven values of the `sort` parameter.
///
/// The raw values are what the API expects (`"+itemPrice"`); TetherHTTP percent-encodes the `+` as `%2B`, as the
/// API requires (a literal `+` would arrive as a space).
public enum RakutenSort: String, Sendable, Hashable, CaseIterable {
    /// Rakuten's own relevance order (the default).
    case standard
    /// Lowest affiliate rate first.
    case affiliateRateAscending = "+affiliateRate"
    /// Highest affiliate rate first.
    case affiliateRateDescending = "-affiliateRate"
    /// Fewest reviews first.
    case reviewCountAscending = "+reviewCount"
    /// Most reviews first.
    case reviewCountDescending = "-reviewCount"
    /// Lowest review average first.
    case reviewAverageAscending = "+reviewAverage"
    /// Highest review average first.
    case reviewAverageDescending = "-reviewAverage"
    /// Cheapest first.
    case itemPriceAscending = "+itemPrice"
    /// Most expensive first.
    case itemPriceDescending = "-itemPrice"
    /// Least recently updated first.
    case updateTimestampAscending = "+updateTimestamp"
    /// Most recently updated first.
    case updateTimestampDescending = "-updateTimestamp"
}
