import Testing
import TetherHTTP1
import TetherJSON

@testable import TetherServer

/// The request rules of the Item Search API and their exact error bodies.
@Suite struct RakutenSearchRulesTests {
    let base = [("applicationId", "1234567890123456789")]

    /// Checks a 400 `wrong_parameter` with `description`.
    private func expectWrongParameter(
        _ parameters: [(String, String)], _ description: String, sourceLocation: SourceLocation = #_sourceLocation
    ) async throws {
        let answer = try await rakutenSearch(parameters)
        #expect(answer.status == 400, sourceLocation: sourceLocation)
        #expect(answer.body.orderedKeys == ["error", "error_description"], sourceLocation: sourceLocation)
        #expect(answer.body["error"].string == "wrong_parameter", sourceLocation: sourceLocation)
        #expect(answer.body["error_description"].string == description, sourceLocation: sourceLocation)
    }

    @Test(
        "error bodies equal the fixtures",
        .enabled(if: RakutenFixtures.isAvailable),
        arguments: [
            ("400-missing-applicationId.json", [("keyword", "緑茶")]),
            ("400-keyword-not-valid.json", [("applicationId", "1"), ("keyword", "a")]),
            ("400-keyword-too-long.json", [("applicationId", "1"), ("keyword", String(repeating: "ab", count: 65))]),
            ("400-no-search-condition.json", [("applicationId", "1"), ("hits", "10")]),
        ])
    func errorBodiesMatchFixtures(file: String, parameters: [(String, String)]) async throws {
        let expected = try RakutenFixtures.json("rakuten/errors/" + file)
        let answer = try await rakutenSearch(parameters)
        #expect(answer.status == 400)
        #expect(answer.body == expected)
        #expect(answer.headers["Content-Type"] == "application/json; charset=utf-8")
    }

    @Test(.enabled(if: RakutenFixtures.isAvailable))
    func unknownVersionIsNotFound() async throws {
        let expected = try RakutenFixtures.json("rakuten/errors/404-not-found.json")
        for path in ["/services/api/IchibaItem/Search/20140222", "/services/api/IchibaItem/Ranking/20220601"] {
            let answer = try await rakutenGet(path + "?applicationId=1&keyword=abc")
            #expect(answer.status == 404)
            #expect(answer.body == expected)
        }
    }

    @Test func otherPathsAreNotAnswered() async {
        let request = HTTPRequest(method: .get, target: "/posts/1")
        #expect(await RakutenTestCatalog.responder.respond(to: request) == nil)
    }

    @Test func applicationIDMustBeWellFormedAndAllowed() async throws {
        try await expectWrongParameter([("applicationId", ""), ("keyword", "緑茶")], "specify valid applicationId")
        try await expectWrongParameter([("applicationId", "a b"), ("keyword", "緑茶")], "specify valid applicationId")
        let strict = RakutenSearchResponder(
            catalog: RakutenTestCatalog.shared, configuration: .init(rateLimit: nil, applicationIDs: ["good"]))
        let refused = try await rakutenSearch([("applicationId", "bad"), ("keyword", "緑茶")], responder: strict)
        #expect(refused.status == 400)
        #expect(refused.body["error_description"].string == "specify valid applicationId")
        let accepted = try await rakutenSearch([("applicationId", "good"), ("keyword", "緑茶")], responder: strict)
        #expect(accepted.status == 200)
    }

    @Test func anyOneSearchConditionIsEnough() async throws {
        let essential = RakutenError.noSearchCondition.description
        try await expectWrongParameter(base, essential)
        try await expectWrongParameter(base + [("genreId", "0")], essential)
        try await expectWrongParameter(base + [("keyword", "   ")], essential)
        try await expectWrongParameter(base + [("NGKeyword", "緑茶")], essential)
        for condition in [("keyword", "緑茶"), ("shopCode", "pc-kobo"), ("genreId", "100040"), ("itemCode", "x:1")] {
            let answer = try await rakutenSearch(base + [condition])
            #expect(answer.status == 200, "\(condition)")
        }
    }

    @Test(arguments: ["a", "1", "あ", "ア", "ｱ", "★", "Ａ", "緑茶 a", "abc ・"])
    func wordsThatAreTooShortAreRejected(keyword: String) async throws {
        try await expectWrongParameter(base + [("keyword", keyword)], "keyword is not valid")
    }

    @Test(arguments: ["ab", "茶", "あい", "アイ", "ｱｲ", "★★", "ab 茶", "緑茶\u{3000}ギフト", "  coffee  "])
    func wordsLongEnoughAreAccepted(keyword: String) async throws {
        let answer = try await rakutenSearch(base + [("keyword", keyword)])
        #expect(answer.status == 200)
    }

    @Test func keywordLengthCountsDoubleByteCharactersTwice() async throws {
        #expect(RakutenKeyword.length(of: "abc") == 3)
        #expect(RakutenKeyword.length(of: "緑茶") == 4)
        #expect(RakutenKeyword.length(of: "ｱｲ") == 2)
        let tooLong = "keyword must be under 128 length"
        // 128 single-byte characters pass, 129 fail; 64 double-byte pass, 65 fail.
        #expect(try await rakutenSearch(base + [("keyword", String(repeating: "a", count: 128))]).status == 200)
        try await expectWrongParameter(base + [("keyword", String(repeating: "a", count: 129))], tooLong)
        #expect(try await rakutenSearch(base + [("keyword", String(repeating: "茶", count: 64))]).status == 200)
        try await expectWrongParameter(base + [("keyword", String(repeating: "茶", count: 65))], tooLong)
        try await expectWrongParameter(
            base + [("keyword", "緑茶"), ("NGKeyword", String(repeating: "x", count: 129))],
            "NGKeyword must be under 128 length")
        try await expectWrongParameter(base + [("keyword", "緑茶"), ("NGKeyword", "x")], "NGKeyword is not valid")
    }

    @Test func hitsAndPageRanges() async throws {
        for hits in ["0", "31", "-1", "ten", "1.5"] {
            try await expectWrongParameter(base + [("keyword", "緑茶"), ("hits", hits)], "hits must be between 1 and 30")
        }
        for page in ["0", "101", "x"] {
            try await expectWrongParameter(
                base + [("keyword", "緑茶"), ("page", page)], "page must be between 1 and 100")
        }
        #expect(try await rakutenSearch(base + [("keyword", "緑茶"), ("hits", "1"), ("page", "100")]).status == 200)
    }

    /// The eleven `sort` values of the API's documentation, written out rather than taken from the server's type.
    static let sortValues = [
        "standard", "+affiliateRate", "-affiliateRate", "+reviewCount", "-reviewCount", "+reviewAverage",
        "-reviewAverage", "+itemPrice", "-itemPrice", "+updateTimestamp", "-updateTimestamp",
    ]

    @Test func sortMustBeOneOfElevenOrders() async throws {
        #expect(RakutenSearchOrder.allCases.map(\.parameter) == Self.sortValues)
        for value in Self.sortValues {
            #expect(RakutenSearchOrder(parameter: value)?.parameter == value)
            #expect(try await rakutenSearch(base + [("keyword", "coffee"), ("sort", value)]).status == 200)
        }
        for wrong in [
            "price", "itemPrice", "+standard", "-standard", "+itemprice", "++itemPrice", "*itemPrice", "+", "",
        ] {
            #expect(RakutenSearchOrder(parameter: wrong) == nil, "\(wrong.debugDescription)")
        }
        try await expectWrongParameter(base + [("keyword", "coffee"), ("sort", "price")], "sort is not valid")
        // A literal "+" arrives as a space: rejected, with the fix in the description.
        let answer = try await rakutenGet(
            "/services/api/IchibaItem/Search/20220601?applicationId=1&keyword=coffee&sort=+itemPrice")
        #expect(answer.status == 400)
        #expect(answer.body["error_description"].string == "sort is not valid: send the \"+\" percent-encoded, as %2B")
    }

    @Test func priceRules() async throws {
        let keyword = ("keyword", "coffee")
        try await expectWrongParameter(base + [keyword, ("minPrice", "0")], "minPrice is not valid")
        try await expectWrongParameter(base + [keyword, ("maxPrice", "999999999")], "maxPrice is not valid")
        try await expectWrongParameter(base + [keyword, ("minPrice", "abc")], "minPrice is not valid")
        try await expectWrongParameter(
            base + [keyword, ("minPrice", "2000"), ("maxPrice", "2000")], "maxPrice must be greater than minPrice")
        try await expectWrongParameter(
            base + [keyword, ("minPrice", "3000"), ("maxPrice", "1000")], "maxPrice must be greater than minPrice")
    }

    @Test func flagAndFormatParameters() async throws {
        let keyword = ("keyword", "coffee")
        try await expectWrongParameter(base + [keyword, ("availability", "2")], "availability is not valid")
        try await expectWrongParameter(base + [keyword, ("imageFlag", "yes")], "imageFlag is not valid")
        try await expectWrongParameter(base + [keyword, ("formatVersion", "3")], "formatVersion is not valid")
        try await expectWrongParameter(base + [keyword, ("orFlag", "2")], "orFlag is not valid")
        try await expectWrongParameter(base + [keyword, ("genreId", "abc")], "genreId is not valid")
        try await expectWrongParameter(base + [keyword, ("callback", "alert(1)")], "callback is not valid")
        try await expectWrongParameter(
            base + [keyword, ("format", "xml")], "format is not valid: this server answers json only")
        try await expectWrongParameter(base + [keyword, ("tagId", "1,x")], "tagId is not valid")
    }

    @Test func otherMethodsAreRefused() async throws {
        let request = HTTPRequest(
            method: .post, target: "/services/api/IchibaItem/Search/20220601?applicationId=1&keyword=abc")
        let response = try #require(await RakutenTestCatalog.responder.respond(to: request))
        #expect(response.status.code == 405)
    }
}
