import Foundation
import Testing

@testable import TetherJSON

// The README's examples, compiled and run, so the documentation cannot drift from the API.

private struct Post: Codable {
    var userId: Int
    var id: Int
    var title: String
    var body: String
}

private struct Item: Decodable {
    var itemName: String
    var itemPrice: Int
    @Flexible var genreId: String
    @Flexible var reviewAverage: Double
    @EmptyAsNil var startTime: String?
}

private struct Page: Decodable {
    struct Entry: Decodable {
        var item: Item
        enum CodingKeys: String, CodingKey { case item = "Item" }
    }
    @Lossy var items: [Entry]
    enum CodingKeys: String, CodingKey { case items = "Items" }
}

@Suite struct ReadmeExamplesTests {
    @Test func decoding() throws {
        let data = Data(#"[{"userId": 1, "id": 1, "title": "t", "body": "b"}]"#.utf8)
        let posts = try TetherJSONDecoder().decode([Post].self, from: data)
        #expect(posts.map(\.id) == [1])
    }

    @Test func messyAPIs() throws {
        let data = Data(
            #"""
            {"Items": [
              {"Item": {"itemName": "緑茶", "itemPrice": 3240, "genreId": "100316", "reviewAverage": 5, "startTime": ""}},
              {"Item": {"itemName": "急須", "itemPrice": "abc", "genreId": 1, "reviewAverage": 4.5, "startTime": ""}},
              {"Item": {"itemName": "湯呑", "itemPrice": 980, "genreId": 100317, "reviewAverage": "4.63",
                        "startTime": "2024-05-01 10:00"}}
            ]}
            """#.utf8)
        let page = try TetherJSONDecoder().decode(Page.self, from: data)
        #expect(page.items.map(\.item.itemName) == ["緑茶", "湯呑"])
        #expect(page.items.map(\.item.genreId) == ["100316", "100317"])
        #expect(page.items.map(\.item.reviewAverage) == [5, 4.63])
        #expect(page.items.map(\.item.startTime) == [nil, "2024-05-01 10:00"])
        var skipped: [String] = []
        for failure in page.$items {
            skipped.append("item \(failure.index) skipped: \(failure.reason)")
        }
        #expect(skipped.count == 1)
        #expect(skipped.first?.hasPrefix("item 1 skipped: ") == true)
    }

    @Test func dynamicAccess() throws {
        let data = Data(#"{"count": 2, "Items": [{"Item": {"itemName": "緑茶"}}]}"#.utf8)
        let json = try JSON(parsing: data)
        #expect(json["Items"][0]["Item"]["itemName"].string == "緑茶")
        #expect(json["count"].int == 2)
        #expect(json["Items"][5]["Item"].string == nil)
        #expect {
            try json.value(at: "Items", 0, "Item", "itemPrice", as: Int.self)
        } throws: { error in
            (error as? JSONError)?.description == #"no key "itemPrice" in the object (at Items[0].Item.itemPrice)"#
        }
    }

    @Test func parsingAndWriting() throws {
        let bytes = Array("\u{FEFF}{\"b\": [1, 2.5], \"a\": null}".utf8)
        let parser = JSONParser(options: .init(maximumDepth: 64, allowsByteOrderMark: true))
        let value = try parser.parse(bytes)
        let text = try value.text([.prettyPrinted, .sortedKeys])
        #expect(text == "{\n  \"a\": null,\n  \"b\": [\n    1,\n    2.5\n  ]\n}")
    }

    @Test func parseErrorMessage() {
        #expect {
            try JSON(parsing: "{\"a\": 1\n  \"b\": 2}")
        } throws: { error in
            let expected = """
                expected ',' or '}' after an object member, found '"' at line 2, column 3 (byte 10)
                    "b": 2}
                    ^
                """
            return (error as? JSONError)?.description == expected
        }
    }
}
