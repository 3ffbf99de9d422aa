import Foundation
import Testing
import TetherHTTP1
import TetherJSON

@testable import TetherServer

/// The Rakuten Ichiba Item Search API over real sockets on the built-in catalog (seed 1, 10,000 items, as
/// `tether serve` has it): the required parameters and their exact error bodies, the keyword rules, bounds,
/// sorts, filters, both format versions, `elements`, the `pageCount` cap, the rate limit, and Japanese
/// keywords sent percent-encoded.
@Suite(.serialized, .timeLimit(.minutes(1)))
struct RakutenOverSocketsTests {
    private static let path = "/services/api/IchibaItem/Search/20220601"

    /// Serves the shared built-in catalog (generated once per test process) without a rate limit unless
    /// `rateLimit` is given.
    private func withSearchServer<Value>(
        rateLimit: Duration? = nil, _ body: (LiveServer) async throws -> Value
    ) async throws -> Value {
        let search = RakutenSearchResponder(
            catalog: try await builtInCatalog(), configuration: .init(rateLimit: rateLimit))
        return try await withLiveServer(responders: [search], body)
    }

    /// `GET /services/api/IchibaItem/Search/<version>?…` with every value percent-encoded.
    private func search(
        _ server: LiveServer, _ parameters: [(String, String)], version: String = "20220601"
    ) async throws -> RawResponse {
        let query = parameters.map { "\($0.0)=\(HTTPTarget.percentEncode($0.1))" }.joined(separator: "&")
        return try await server.get("/services/api/IchibaItem/Search/\(version)?\(query)")
    }

    /// The item objects of an answer, unwrapped from `{"Item": …}` in format version 1.
    private func items(_ response: RawResponse) -> [JSON] {
        (response.json?["Items"].array ?? []).map { $0["Item"] ?? $0 }
    }

    private func expectWrongParameter(
        _ response: RawResponse, _ description: String, sourceLocation: SourceLocation = #_sourceLocation
    ) {
        #expect(response.status == 400, sourceLocation: sourceLocation)
        #expect(response.json?.object?.keys == ["error", "error_description"], sourceLocation: sourceLocation)
        #expect(response.json?["error"].string == "wrong_parameter", sourceLocation: sourceLocation)
        #expect(response.json?["error_description"].string == description, sourceLocation: sourceLocation)
    }

    @Test(
        .enabled(if: RakutenFixtures.isAvailable),
        arguments: [
            ("400-missing-applicationId.json", "keyword=%E7%B7%91%E8%8C%B6"),
            ("400-missing-applicationId.json", "applicationId=&keyword=abc"),
            ("400-keyword-not-valid.json", "applicationId=1&keyword=a"),
            ("400-keyword-too-long.json", "applicationId=1&keyword=" + String(repeating: "ab", count: 65)),
            ("400-no-search-condition.json", "applicationId=1&hits=10"),
            ("400-no-search-condition.json", "applicationId=1&genreId=0"),
        ])
    func errorsAreTheAPIsBodiesAndStatuses(fixture: String, query: String) async throws {
        let expected = try RakutenFixtures.json("rakuten/errors/" + fixture)
        let response = try await withSearchServer { server in try await server.get("\(Self.path)?\(query)") }
        #expect(response.status == 400)
        #expect(response.header("Content-Type") == "application/json; charset=utf-8")
        #expect(response.json == expected)
        #expect(response.json?.object?.keys == ["error", "error_description"])
        #expect(response.text.hasPrefix(#"{"error":"wrong_parameter","error_description":""#))
    }

    @Test(.enabled(if: RakutenFixtures.isAvailable))
    func unknownVersionsAndAPIsAre404AndOtherMethods405() async throws {
        let expected = try RakutenFixtures.json("rakuten/errors/404-not-found.json")
        try await withSearchServer { server in
            for path in [
                "/services/api/IchibaItem/Search/20140222", "/services/api/IchibaItem/Ranking/20220601",
                "/services/api/Other",
            ] {
                let response = try await server.get(path + "?applicationId=1&keyword=abc")
                #expect(response.status == 404, "\(path)")
                #expect(response.json == expected, "\(path)")
            }
            let post = try await server.send("POST", Self.path + "?applicationId=1&keyword=abc", body: "{}")
            #expect(post.status == 405)
            #expect(post.json?["error"].string == "wrong_parameter")
            let head = try await server.send("HEAD", Self.path + "?applicationId=1&keyword=abc")
            #expect(head.status == 200)
            #expect(head.body.isEmpty)
            #expect(Int(head.header("Content-Length") ?? "") ?? 0 > 0)
            // The older version answers too.
            let old = try await search(server, [("applicationId", "1"), ("keyword", "camera")], version: "20170706")
            #expect(old.status == 200)
        }
    }

    static let parameterErrors: [(String, String, String)] = [
        ("availability", "2", "availability is not valid"), ("imageFlag", "yes", "imageFlag is not valid"),
        ("formatVersion", "3", "formatVersion is not valid"), ("orFlag", "2", "orFlag is not valid"),
        ("genreId", "abc", "genreId is not valid"), ("callback", "alert(1)", "callback is not valid"),
        ("format", "xml", "format is not valid: this server answers json only"), ("tagId", "1,x", "tagId is not valid"),
        ("NGKeyword", "x", "NGKeyword is not valid"),
        ("NGKeyword", String(repeating: "x", count: 129), "NGKeyword must be under 128 length"),
        ("minPrice", "0", "minPrice is not valid"), ("maxPrice", "999999999", "maxPrice is not valid"),
    ]

    @Test(arguments: parameterErrors)
    func everyParameterErrorIsA400WithItsDescription(name: String, value: String, description: String) async throws {
        let response = try await withSearchServer { server in
            try await search(server, [("applicationId", "1"), ("keyword", "coffee"), (name, value)])
        }
        expectWrongParameter(response, description)
    }

    @Test func filtersJSONPAndAffiliateOverTheWire() async throws {
        try await withSearchServer { server in
            let inStock = try await search(server, [("applicationId", "1"), ("genreId", "100040")])
            let everything = try await search(
                server, [("applicationId", "1"), ("genreId", "100040"), ("availability", "0")])
            #expect(items(inStock).allSatisfy { $0["availability"].int == 1 && $0["genreId"].string == "100040" })
            #expect(try #require(inStock.json?["count"].int) < (try #require(everything.json?["count"].int)))
            let withImages = try await search(
                server, [("applicationId", "1"), ("genreId", "100026"), ("imageFlag", "1")])
            #expect(items(withImages).allSatisfy { $0["imageFlag"].int == 1 })
            let shop = try await search(server, [("applicationId", "1"), ("shopCode", "sample-ocha-shop")])
            #expect(!items(shop).isEmpty && items(shop).allSatisfy { $0["shopCode"].string == "sample-ocha-shop" })
            let code = try #require(items(shop).first?["itemCode"].string)
            let one = try await search(server, [("applicationId", "1"), ("itemCode", code)])
            #expect(one.json?["count"].int == 1 && items(one).first?["itemCode"].string == code)

            let jsonp = try await search(
                server, [("applicationId", "1"), ("keyword", "camera"), ("hits", "1"), ("callback", "app.cb_1")])
            #expect(jsonp.status == 200)
            #expect(jsonp.header("Content-Type") == "text/javascript; charset=utf-8")
            #expect(jsonp.text.hasPrefix("app.cb_1({\"count\":") && jsonp.text.hasSuffix("});"))

            let affiliate = try await search(
                server,
                [
                    ("applicationId", "1"), ("keyword", "camera"), ("hits", "1"), ("affiliateId", "abc.123"),
                    ("carrier", "2"),
                ])
            #expect(affiliate.json?["carrier"].int == 2)
            #expect(
                items(affiliate).first?["affiliateUrl"].string?.hasPrefix("https://hb.afl.rakuten.co.jp/hgc/abc.123/")
                    == true)
        }
    }

    @Test func anyOneSearchConditionIsEnough() async throws {
        try await withSearchServer { server in
            for condition in [
                ("keyword", "緑茶"), ("shopCode", "sample-ocha-shop"), ("genreId", "100040"),
                ("itemCode", "sample-ocha-shop:10000123"),
            ] {
                let response = try await search(server, [("applicationId", "1"), condition])
                #expect(response.status == 200, "\(condition)")
                #expect(response.json?["count"].int != nil, "\(condition)")
            }
        }
    }

    @Test func keywordRules() async throws {
        try await withSearchServer { server in
            func count(_ parameters: [(String, String)]) async throws -> Int {
                let response = try await search(server, [("applicationId", "1")] + parameters)
                #expect(response.status == 200, "\(parameters)")
                return try #require(response.json?["count"].int)
            }
            let coffee = try await count([("keyword", "コーヒー")])
            let camera = try await count([("keyword", "カメラ")])
            let both = try await count([("keyword", "コーヒー カメラ")])
            let either = try await count([("keyword", "コーヒー カメラ"), ("orFlag", "1")])
            #expect(coffee > 0 && camera > 0)
            #expect(both < min(coffee, camera))
            #expect(either >= max(coffee, camera))
            // A space sent as `+` separates words as `%20` does.
            let plus = try await server.get(
                Self.path + "?applicationId=1&keyword=%E3%82%B3%E3%83%BC%E3%83%92%E3%83%BC+%E3%82%AB%E3%83%A1%E3%83%A9")
            #expect(plus.json?["count"].int == both)

            let excluded = try await search(
                server, [("applicationId", "1"), ("keyword", "コーヒー"), ("NGKeyword", "カフェインレス"), ("hits", "30")])
            #expect(try #require(excluded.json?["count"].int) < coffee)
            for item in items(excluded) {
                #expect(item["itemName"].string?.contains("カフェインレス") == false)
            }

            // Each word must be long enough; the whole keyword at most 128 single-byte (64 double-byte) long.
            for keyword in ["a", "あ", "緑茶 a"] {
                expectWrongParameter(
                    try await search(server, [("applicationId", "1"), ("keyword", keyword)]), "keyword is not valid")
            }
            #expect(
                try await search(server, [("applicationId", "1"), ("keyword", String(repeating: "a", count: 128))])
                    .status == 200)
            expectWrongParameter(
                try await search(server, [("applicationId", "1"), ("keyword", String(repeating: "a", count: 129))]),
                "keyword must be under 128 length")
            #expect(
                try await search(server, [("applicationId", "1"), ("keyword", String(repeating: "茶", count: 64))])
                    .status == 200)
            expectWrongParameter(
                try await search(server, [("applicationId", "1"), ("keyword", String(repeating: "茶", count: 65))]),
                "keyword must be under 128 length")
        }
    }

    @Test func hitsAndPageBounds() async throws {
        try await withSearchServer { server in
            let keyword = [("applicationId", "1"), ("keyword", "coffee")]
            for hits in ["0", "31", "x"] {
                expectWrongParameter(
                    try await search(server, keyword + [("hits", hits)]), "hits must be between 1 and 30")
            }
            for page in ["0", "101"] {
                expectWrongParameter(
                    try await search(server, keyword + [("page", page)]), "page must be between 1 and 100")
            }
            let one = try await search(server, keyword + [("hits", "1")])
            #expect(one.json?["hits"].int == 1 && items(one).count == 1)
            let thirty = try await search(server, keyword + [("hits", "30"), ("page", "2")])
            #expect(thirty.json?["hits"].int == 30)
            #expect(thirty.json?["first"].int == 31 && thirty.json?["last"].int == 60)
            #expect(try await search(server, keyword + [("hits", "1"), ("page", "100")]).status == 200)
            // The default is 30 hits on page 1.
            let defaults = try await search(server, keyword)
            #expect(defaults.json?["page"].int == 1 && items(defaults).count == 30)
        }
    }

    @Test func sortOrders() async throws {
        try await withSearchServer { server in
            let keyword = [("applicationId", "1"), ("keyword", "camera")]
            for sort in RakutenSearchOrder.allCases {
                #expect(try await search(server, keyword + [("sort", sort.parameter)]).status == 200, "\(sort)")
            }
            let cheap = items(try await search(server, keyword + [("sort", "+itemPrice")])).compactMap {
                $0["itemPrice"].int
            }
            #expect(cheap.count == 30 && cheap == cheap.sorted() && Set(cheap).count > 1)
            let dear = items(try await search(server, keyword + [("sort", "-itemPrice")])).compactMap {
                $0["itemPrice"].int
            }
            #expect(dear == dear.sorted(by: >) && dear.first ?? 0 > cheap.last ?? 0)
            let reviewed = items(try await search(server, keyword + [("sort", "-reviewCount")]))
                .compactMap { $0["reviewCount"].int }
            #expect(reviewed == reviewed.sorted(by: >))
            expectWrongParameter(try await search(server, keyword + [("sort", "price")]), "sort is not valid")
            // A "+" sent as is arrives as a space.
            expectWrongParameter(
                try await server.get(Self.path + "?applicationId=1&keyword=camera&sort=+itemPrice"),
                "sort is not valid: send the \"+\" percent-encoded, as %2B")
        }
    }

    @Test func priceRange() async throws {
        try await withSearchServer { server in
            let keyword = [("applicationId", "1"), ("keyword", "coffee")]
            let ranged = try await search(server, keyword + [("minPrice", "2000"), ("maxPrice", "3000")])
            let prices = items(ranged).compactMap { $0["itemPrice"].int }
            #expect(!prices.isEmpty && prices.allSatisfy { (2000...3000).contains($0) })
            let all = try await search(server, keyword)
            #expect(try #require(ranged.json?["count"].int) < (try #require(all.json?["count"].int)))
            expectWrongParameter(
                try await search(server, keyword + [("minPrice", "3000"), ("maxPrice", "1000")]),
                "maxPrice must be greater than minPrice")
            expectWrongParameter(try await search(server, keyword + [("minPrice", "abc")]), "minPrice is not valid")
        }
    }

    @Test(
        .enabled(if: RakutenFixtures.isAvailable),
        arguments: [
            ("20170706", 1, "rakuten/search-20170706-fv1.json"), ("20170706", 2, "rakuten/search-20170706-fv2.json"),
            ("20220601", 1, "rakuten/search-20220601-fv1.json"), ("20220601", 2, "rakuten/search-20220601-fv2.json"),
        ])
    func formatVersionShapes(version: String, formatVersion: Int, fixture: String) async throws {
        let sample = try RakutenFixtures.json(fixture)
        try await withSearchServer { server in
            let response = try await search(
                server,
                [("applicationId", "1"), ("keyword", "緑茶"), ("hits", "2"), ("formatVersion", "\(formatVersion)")],
                version: version)
            #expect(response.status == 200)
            let body = try #require(response.json)
            #expect(body.object?.keys == sample.object?.keys)
            #expect(body["GenreInformation"] == [] && body["TagInformation"] == [])
            let entry = try #require(body["Items"][0])
            let sampleEntry = try #require(sample["Items"][0])
            #expect(entry.object?.keys == sampleEntry.object?.keys)
            if formatVersion == 1 { #expect(entry.object?.keys == ["Item"]) }
            let item = entry["Item"] ?? entry
            #expect(item.object?.keys == (sampleEntry["Item"] ?? sampleEntry).object?.keys)
            // Image URLs point back at this server, as objects in version 1 and strings in version 2.
            let image = try #require(item["mediumImageUrls"][0])
            let url = try #require(formatVersion == 1 ? image["imageUrl"].string : image.string)
            #expect(url.hasPrefix("\(server.base)/images/") && url.hasSuffix("?_ex=128x128"))
        }
    }

    @Test func elementsKeepOnlyTheNamedItemFields() async throws {
        try await withSearchServer { server in
            let response = try await search(
                server,
                [
                    ("applicationId", "1"), ("keyword", "camera"), ("elements", "itemName,itemPrice"),
                    ("formatVersion", "2"),
                ])
            #expect(response.json?.object?.keys.first == "count")
            #expect(!items(response).isEmpty)
            #expect(items(response).allSatisfy { $0.object?.keys == ["itemName", "itemPrice"] })
        }
    }

    @Test func pageCountIsCappedAt100() async throws {
        try await withSearchServer { server in
            let response = try await search(
                server, [("applicationId", "1"), ("genreId", "100026"), ("hits", "1"), ("availability", "0")])
            #expect(try #require(response.json?["count"].int) > 100)
            #expect(response.json?["pageCount"].int == 100)
        }
    }

    @Test(.enabled(if: RakutenFixtures.isAvailable))
    func aSecondRequestWithinTheIntervalIs429() async throws {
        let expected = try RakutenFixtures.json("rakuten/errors/429-too-many-requests.json")
        // A long interval, so the second request is inside it however slow the machine is.
        try await withSearchServer(rateLimit: .seconds(30)) { server in
            let parameters = [("applicationId", "limited"), ("keyword", "camera"), ("hits", "1")]
            #expect(try await search(server, parameters).status == 200)
            let refused = try await search(server, parameters)
            #expect(refused.status == 429)
            #expect(refused.json == expected)
            // Another application id has its own budget; a bad id is 400 before the limit.
            #expect(try await search(server, [("applicationId", "other"), ("keyword", "camera")]).status == 200)
            #expect(try await search(server, [("keyword", "camera")]).status == 400)
        }
    }

    @Test func japaneseAndEnglishKeywordsGiveDistinctPlausiblePages() async throws {
        try await withSearchServer { server in
            var pages: [String: Set<String>] = [:]
            for keyword in ["ノートパソコン", "コーヒー", "camera"] {
                let response = try await search(
                    server, [("applicationId", "1"), ("keyword", keyword), ("hits", "30"), ("formatVersion", "2")])
                #expect(response.status == 200, "\(keyword)")
                let found = items(response)
                #expect(try #require(response.json?["count"].int) >= 30, "\(keyword)")
                #expect(found.count == 30, "\(keyword)")
                for item in found {
                    let text = ((item["itemName"].string ?? "") + (item["itemCaption"].string ?? "")).lowercased()
                    #expect(text.contains(keyword), "\(keyword): \(item["itemName"].string ?? "")")
                    #expect((item["itemPrice"].int ?? 0) > 0)
                    #expect(item["shopName"].string?.isEmpty == false)
                }
                pages[keyword] = Set(found.compactMap { $0["itemCode"].string })
            }
            let laptops = try #require(pages["ノートパソコン"])
            let coffee = try #require(pages["コーヒー"])
            let cameras = try #require(pages["camera"])
            #expect(laptops.count == 30 && coffee.count == 30 && cameras.count == 30)
            #expect(
                laptops.isDisjoint(with: coffee) && laptops.isDisjoint(with: cameras)
                    && coffee.isDisjoint(with: cameras))
        }
    }
}
