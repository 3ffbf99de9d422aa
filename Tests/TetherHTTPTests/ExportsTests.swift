import Testing
import TetherHTTP

@Suite struct ExportsTests {
    @Test func sharedVocabularyIsVisibleThroughTetherHTTP() {
        var headers: HTTPHeaders = ["Accept": "application/json"]
        headers.add("X-A", "1")
        #expect(headers["accept"] == "application/json")
        #expect(HTTPMethod.get.rawValue == "GET")
        #expect(HTTPStatus.notFound.code == 404)
    }
}
