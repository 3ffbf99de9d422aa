import Foundation
import Testing
import TetherJSON
import TetherTestSupport

/// The lossy helpers on real pages: the Rakuten samples in `shared/fixtures/rakuten`, read through a few fields.
///
/// The app's model of these pages, and every field of them, is TetherAPIs' `RakutenSearchResponse` (tested in
/// TetherAPIsTests). Here the pages are only material for what TetherJSON promises: a `LossyArray` under a key
/// matched ignoring case keeps the good entries and records each bad one with its index, its full path (through
/// the key as spelled and any wrapper) and its reason, with either decoder.
@Suite(.enabled(if: SharedFixtures.contains("rakuten")))
struct LossyRakutenPageTests {
    /// A page: `count`, and `Items` (in any case) as a lossy array of `Entry`.
    struct Page<Entry: Decodable & Sendable>: Decodable, Sendable {
        var count: Int
        var items: LossyArray<Entry>

        enum CodingKeys: String, CodingKey {
            case count
            case items = "Items"
        }

        init(from decoder: any Decoder) throws {
            count = try decoder.container(keyedBy: CodingKeys.self).decode(Int.self, forKey: .count)
            items = try decoder.decode(LossyArray<Entry>.self, forKeyIgnoringCase: CodingKeys.items)
        }
    }

    /// Four fields of an item, each read flexibly.
    struct Listing: Decodable, Hashable, Sendable {
        var itemCode: String
        @Flexible var itemPrice: Int
        @Flexible var reviewAverage: Double
        @Flexible var genreId: String
    }

    /// formatVersion 1's `{"Item": {…}}`.
    struct Wrapped: Decodable, Hashable, Sendable {
        var item: Listing

        enum CodingKeys: String, CodingKey {
            case item = "Item"
        }
    }

    private static func text(_ file: String) throws -> String {
        try SharedFixtures.text("rakuten/\(file)")
    }

    @Test(arguments: TestDecoder.allCases)
    func bothFormatVersionsGiveTheSameListings(decoder: TestDecoder) throws {
        let one = try decoder.decode(Page<Wrapped>.self, from: Self.text("search-sample-fv1.json"))
        let two = try decoder.decode(Page<Listing>.self, from: Self.text("search-sample-fv2.json"))
        #expect(one.items.failures.isEmpty && two.items.failures.isEmpty)
        #expect(one.items.map(\.item) == two.items.elements)
        // Integer literals read as Double, the genre as the string it is
        #expect(two.items.map(\.reviewAverage) == [4.56, 4.12, 0])
        #expect(two.items.map(\.genreId) == ["100316", "564500", "201184"])
        #expect(one.count == 2847 && two.count == 2847)
    }

    @Test(arguments: TestDecoder.allCases, ["Items", "items"])
    func aCorruptedItemIsAFailureAndTheOthersDecode(decoder: TestDecoder, itemsKey: String) throws {
        // Given the fv1 sample with the second item's price not a number and the third item's genreId removed
        let text = try SharedFixtures.rakutenSampleWithBrokenItems(itemsKey: itemsKey)

        // When the lossy page reads it
        let page = try decoder.decode(Page<Wrapped>.self, from: text)

        // Then the first item decodes, and the other two are failures that say where and why
        #expect(page.items.map(\.item.itemCode) == ["sample-ocha-shop:10000123"])
        try #require(page.items.failures.count == 2)
        let (price, genre) = (page.items.failures[0], page.items.failures[1])
        #expect(price.index == 1)
        #expect(price.codingPathDescription == "\(itemsKey)[1].Item.itemPrice")
        #expect(DecodingErrorSummary(price.error) == .init(.dataCorrupted, "\(itemsKey)[1].Item.itemPrice"))
        #expect(price.reason.contains("abc"))
        #expect(genre.index == 2)
        #expect(genre.codingPathDescription == "\(itemsKey)[2].Item.genreId")
        #expect(genre.reason == #"key not found: "genreId""#)
    }

    @Test(arguments: TestDecoder.allCases)
    func aCorruptedFormatVersionTwoItemHasAFlatPath(decoder: TestDecoder) throws {
        let text = try SharedFixtures.text(
            "rakuten/search-sample-fv2.json", replacingOnce: [(#""reviewAverage": 4.12,"#, #""reviewAverage": "n/a","#)]
        )
        let page = try decoder.decode(Page<Listing>.self, from: text)
        #expect(page.items.map(\.genreId) == ["100316", "201184"])
        #expect(page.items.failures.map(\.index) == [1])
        #expect(page.items.failures.map(\.codingPathDescription) == ["Items[1].reviewAverage"])
    }

    @Test(arguments: TestDecoder.allCases)
    func aModelForTheOtherVersionFailsEveryItem(decoder: TestDecoder) throws {
        // fv2 items have no {"Item": …} wrapper
        let wrappedOfTwo = try decoder.decode(Page<Wrapped>.self, from: Self.text("search-sample-fv2.json"))
        #expect(wrappedOfTwo.items.isEmpty)
        #expect(
            wrappedOfTwo.items.failures.map(\.codingPathDescription) == [
                "Items[0].Item", "Items[1].Item", "Items[2].Item",
            ])
        #expect(wrappedOfTwo.items.failures.allSatisfy { DecodingErrorSummary($0.error).kind == .keyNotFound })

        // fv1 entries are wrappers, without the item's fields at their top
        let flatOfOne = try decoder.decode(Page<Listing>.self, from: Self.text("search-sample-fv1.json"))
        #expect(flatOfOne.items.isEmpty)
        #expect(flatOfOne.items.failures.map(\.index) == [0, 1, 2])
    }

    @Test(arguments: TestDecoder.allCases)
    func anEmptyPageHasNeitherItemsNorFailures(decoder: TestDecoder) throws {
        let page = try decoder.decode(Page<Wrapped>.self, from: Self.text("search-empty.json"))
        #expect(page.count == 0 && page.items.isEmpty && page.items.failures.isEmpty)
    }
}
