import TetherSync

/// The generated product catalog behind ``RakutenSearchResponder``: items with Japanese and English names,
/// captions, shops, prices, reviews, genres and tags.
///
/// The same seed and count give the same catalog on every run and platform (it uses its own SplitMix64
/// generator, never the system's).
///
/// ```swift
/// import TetherServer
///
/// let catalog = RakutenCatalog(seed: 1)   // 10,000 items
/// let search = RakutenSearchResponder(catalog: catalog)
/// ```
public struct RakutenCatalog: Sendable {
    /// The number of items a default catalog has.
    public static let defaultCount = 10_000

    /// The seed the catalog was generated from.
    public let seed: UInt64
    let items: [CatalogItem]

    /// Generates `count` items from `seed`.
    ///
    /// - Complexity: O(`count`).
    public init(seed: UInt64 = 1, count: Int = RakutenCatalog.defaultCount) {
        self.seed = seed
        var generator = RakutenItemGenerator(seed: seed)
        items = generator.makeItems(count: max(count, 0))
    }

    /// The default catalog (seed 1, ``defaultCount`` items), generated once per process on first use and shared by
    /// every server started after (it is immutable).
    public static let builtIn = RakutenCatalog()

    /// The number of items.
    public var count: Int { items.count }

    /// Whether `/images/<id>` names an item of this catalog.
    public func containsItem(id: Int) -> Bool { id >= 1 && id <= items.count }
}
