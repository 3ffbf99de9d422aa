import Testing

@testable import TetherHTTP1

@Suite struct HTTPTargetTests {
    @Test func splitsAndDecodesPathAndQuery() throws {
        let target = HTTPTarget(
            "/services/api/IchibaItem/Search/20220601?keyword=%E3%83%8E%E3%83%BC%E3%83%88+PC&sort=%2BitemPrice&a&a=2")
        #expect(target.path == "/services/api/IchibaItem/Search/20220601")
        #expect(target.pathSegments == ["services", "api", "IchibaItem", "Search", "20220601"])
        let items = target.queryItems
        #expect(items.map(\.name) == ["keyword", "sort", "a", "a"])
        #expect(items.map(\.value) == ["ノート PC", "+itemPrice", "", "2"])
    }

    @Test func absoluteFormAndFragments() {
        #expect(HTTPTarget("http://127.0.0.1:8080/posts/1?x=1#top").path == "/posts/1")
        #expect(HTTPTarget("http://127.0.0.1:8080").path == "/")
        #expect(HTTPTarget("/a#b?c").rawQuery == nil)
    }

    @Test func malformedEscapes() {
        #expect(HTTPTarget("/a%zz").path == nil)
        #expect(HTTPTarget("/a%ff").path == nil)  // not UTF-8
        #expect(HTTPTarget("/?q=%zz").queryItems.first?.value == "%zz")
    }

    @Test func encodingIsRFC3986() {
        #expect(HTTPTarget.percentEncode("+itemPrice") == "%2BitemPrice")
        #expect(HTTPTarget.percentEncode("a b&c=d~") == "a%20b%26c%3Dd~")
        #expect(HTTPTarget.percentDecode(HTTPTarget.percentEncode("ノートパソコン"), plusIsSpace: true) == "ノートパソコン")
    }

    @Test func headersAreCaseInsensitiveAndOrdered() {
        var headers: HTTPHeaders = ["Content-Type": "application/json", "X-A": "1"]
        headers.add("x-a", "2")
        #expect(headers["content-type"] == "application/json")
        #expect(headers.values(for: "X-a") == ["1", "2"])
        headers.set("X-A", "3")
        #expect(headers.values(for: "x-a") == ["3"])
        #expect(headers.map(\.name) == ["Content-Type", "X-A"])
        headers.remove("CONTENT-TYPE")
        #expect(!headers.contains("content-type"))
    }
}
