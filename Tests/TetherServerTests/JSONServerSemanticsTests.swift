import Testing
import TetherHTTP1
import TetherJSON

@testable import TetherServer

/// The JavaScript and lodash details json-server's answers rest on.
@Suite("json-server semantics")
struct JSONServerSemanticsTests {
    @Test(arguments: [
        ("posts", "post"), ("comments", "comment"), ("categories", "category"), ("addresses", "address"),
        ("people", "person"), ("todos", "todo"), ("boxes", "box"), ("statuses", "status"), ("news", "news"),
    ])
    func pluralAndSingular(plural: String, singular: String) {
        #expect(Pluralizer.singular(plural) == singular)
        #expect(Pluralizer.plural(singular) == plural)
        #expect(Pluralizer.plural(plural) == plural)
        #expect(Pluralizer.singular(singular) == singular)
    }

    @Test func javaScriptStrings() {
        #expect(JSValue.string(1) == "1")
        #expect(JSValue.string(JSON(3.0)) == "3")
        #expect(JSValue.string(JSON(2.5)) == "2.5")
        #expect(JSValue.string(true) == "true")
        #expect(JSValue.string([1, "a", nil]) == "1,a,")
        #expect(JSValue.string(["a": 1]) == "[object Object]")
    }

    @Test func parseIntReadsLeadingDigits() {
        #expect(JSValue.parseInt("12abc") == 12)
        #expect(JSValue.parseInt("  -3") == -3)
        #expect(JSValue.parseInt("abc") == nil)
        #expect(JSValue.parseInt("") == nil)
    }

    @Test func relationalComparisons() {
        #expect(JSValue.lessOrEqual("98", 100))  // numeric: 98 <= 100
        #expect(!JSValue.lessOrEqual("98", "100"))  // text: "98" > "100"
        #expect(!JSValue.lessOrEqual("abc", 1))  // NaN
        #expect(JSValue.compareAscending(nil, 1) == 1)
        #expect(JSValue.compareAscending(.null, 1) == 1)
        #expect(JSValue.compareAscending(1, 2) == -1)
        #expect(JSValue.compareAscending("b", "a") == 1)
        #expect(JSValue.compareAscending(1, JSON(1.0)) == 0)
    }

    @Test func slicesAsArrayPrototypeSlice() {
        #expect(JSValue.sliceRange(count: 10, start: 2, end: 4) == 2..<4)
        #expect(JSValue.sliceRange(count: 10, start: -3, end: nil, endGiven: false) == 7..<10)
        #expect(JSValue.sliceRange(count: 10, start: 0, end: -8) == 0..<2)
        #expect(JSValue.sliceRange(count: 10, start: 5, end: nil).isEmpty)
    }

    @Test func filtersFollowJSONServer() throws {
        let elements: [JSON] = [
            ["id": 1, "tag": "a", "n": 5, "author": ["name": "Ann"]], ["id": 2, "tag": "b", "n": nil],
            ["id": 3, "tag": "c"],
        ]
        func ids(_ query: String) throws -> [Int] {
            let items = HTTPTargetItems.parse(query)
            return try ListQuery(items).filter(elements).compactMap { $0["id"]?.int }
        }
        #expect(try ids("tag=a&tag=c") == [1, 3])
        #expect(try ids("tag_ne=a&tag_ne=b") == [3])
        #expect(try ids("n_gte=1") == [1])
        #expect(try ids("author.name=Ann") == [1])
        #expect(try ids("missing=1") == [1, 2, 3])
        #expect(try ids("missing_ne=1") == [])
        #expect(try ids("q=ann") == [1])
        #expect(try ids("tag_like=[ab]") == [1, 2])
        #expect(throws: ListQuery.InvalidPattern.self) { try ids("tag_like=[") }
    }

    @Test func sortingIsStableAndPutsMissingValuesLast() {
        let elements: [JSON] = [
            ["id": 1, "k": 2], ["id": 2], ["id": 3, "k": 1], ["id": 4, "k": 2], ["id": 5, "k": nil],
        ]
        let sorted = ListQuery([("_sort", "k")]).sorted(elements).compactMap { $0["id"]?.int }
        #expect(sorted == [3, 1, 4, 5, 2])
        let descending = ListQuery([("_sort", "k"), ("_order", "DESC")]).sorted(elements).compactMap { $0["id"]?.int }
        #expect(descending == [2, 5, 1, 4, 3])
    }

    @Test func entityTagComparisons() {
        let tag = EntityTag.of(Array("{}".utf8))
        #expect(tag.count == 18)
        #expect(EntityTag.matchHolds("\"x\", \(tag)", current: tag))
        #expect(!EntityTag.matchHolds("W/\(tag)", current: tag))
        #expect(EntityTag.noneMatchHits("W/\(tag)", current: tag))
        #expect(EntityTag.noneMatchHits("*", current: tag))
    }
}

/// Query text as `HTTPRequest.queryItems` reads it.
enum HTTPTargetItems {
    static func parse(_ query: String) -> [(name: String, value: String)] {
        TetherHTTP1.HTTPTarget("/?" + query).queryItems
    }
}
