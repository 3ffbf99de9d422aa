/// One genre of the generated catalog and the words its items are made of.
struct RakutenGenre: Sendable {
    /// A product noun in Japanese and English, such as ("ノートパソコン", "Laptop").
    struct Noun: Sendable {
        var japanese: String
        var english: String
    }

    /// A shop that sells this genre.
    struct Shop: Sendable {
        var code: String
        var name: String
        var isShopOfTheYear: Bool = false
    }

    /// The leaf genre id, output as `genreId`.
    var id: Int
    /// The top-level genre this one belongs to; a `genreId` search for it finds this genre's items too.
    var parentID: Int
    var name: String
    /// A short ASCII name used in item URLs.
    var slug: String
    var nouns: [Noun]
    var brands: [String]
    /// Specification phrases in groups of alternatives (sizes, processors, origins, …); an item takes one phrase
    /// from each of two to four groups, so no name says both "Core i5" and "Core i7". Its caption lists them.
    var specs: [[String]]
    /// Phrases that end an item name.
    var suffixes: [String]
    /// Caption lines specific to the genre.
    var captionLines: [String]
    var prices: ClosedRange<Int>
    var tagIDs: [Int]
    var shops: [Shop]
}
