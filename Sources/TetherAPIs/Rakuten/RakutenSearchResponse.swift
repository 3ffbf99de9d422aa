import TetherJSON

/// One page of Rakuten item search results, in formatVersion 1 or 2.
///
/// Version 1 wraps each item as `{"Item": {…}}` and spells image URLs as `{"imageUrl": …}` objects; version 2
/// has flat items and plain strings. Both decode to the same ``items``. The `Items` key is matched ignoring letter
/// case (one report of the 2026 gateway has `items`), and an item that does not decode is skipped and counted in
/// ``skippedItems`` rather than failing the page.
public struct RakutenSearchResponse: Sendable, Hashable, Decodable {
    /// The number of matching items in all.
    public var count: Int
    /// This page's number, from 1.
    public var page: Int
    /// The 1-based position of this page's first item (0 for no results).
    public var first: Int
    /// The 1-based position of this page's last item.
    public var last: Int
    /// The number of items on this page.
    public var hits: Int
    /// The number of pages, which Rakuten caps at 100.
    public var pageCount: Int
    /// The items, in the search's order.
    public var items: [RakutenItem]
    /// How many entries of `Items` could not be read.
    public var skippedItems: Int

    public init(
        count: Int, page: Int, first: Int, last: Int, hits: Int, pageCount: Int, items: [RakutenItem],
        skippedItems: Int = 0
    ) {
        self.count = count
        self.page = page
        self.first = first
        self.last = last
        self.hits = hits
        self.pageCount = pageCount
        self.items = items
        self.skippedItems = skippedItems
    }

    private enum CodingKeys: String, CodingKey {
        case count, page, first, last, hits, pageCount
        case items = "Items"
    }

    /// Decodes either format version.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        func number(_ key: CodingKeys) throws -> Int {
            try container.decodeIfPresent(Flexible<Int>.self, forKey: key)?.wrappedValue ?? 0
        }
        count = try number(.count)
        page = try number(.page)
        first = try number(.first)
        last = try number(.last)
        hits = try number(.hits)
        pageCount = try number(.pageCount)
        let entries: LossyArray<Entry> =
            try decoder.decodeIfPresent(LossyArray<Entry>.self, forKeyIgnoringCase: CodingKeys.items)
            ?? LossyArray([], failures: [])
        items = entries.elements.map(\.item)
        skippedItems = entries.failures.count
    }

    /// An entry of `Items`: `{"Item": {…}}` in version 1, the item itself in version 2.
    private struct Entry: Decodable {
        var item: RakutenItem

        private enum CodingKeys: String, CodingKey {
            case item = "Item"
        }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            if container.contains(.item) {
                item = try container.decode(RakutenItem.self, forKey: .item)
            } else {
                item = try RakutenItem(from: decoder)
            }
        }
    }
}
