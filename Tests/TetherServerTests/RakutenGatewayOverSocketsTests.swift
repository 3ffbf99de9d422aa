import Foundation
import Testing
import TetherHTTP1
import TetherJSON

@testable import TetherServer

/// The 2026 gateway's path on the local server: the access key (query item or bearer token) or the gateway's own
/// error shape, the versions it answers, and the same results as the classic path.
@Suite(.serialized, .timeLimit(.minutes(1)))
struct RakutenGatewayOverSocketsTests {
    private func withSearchServer<Value>(_ body: (LiveServer) async throws -> Value) async throws -> Value {
        let search = RakutenSearchResponder(catalog: try await builtInCatalog(), configuration: .init(rateLimit: nil))
        return try await withLiveServer(responders: [search], body)
    }

    private let query = "applicationId=1&keyword=%E3%82%AB%E3%83%A1%E3%83%A9&hits=3&formatVersion=2"

    @Test func withoutAnAccessKeyTheGatewayAnswersInItsOwnShape() async throws {
        try await withSearchServer { server in
            for version in ["20260701", "20260401", "20220601"] {
                let response = try await server.get("/ichibams/api/IchibaItem/Search/\(version)?" + query)
                #expect(response.status == 400, "\(version)")
                #expect(response.json?["errors"]["errorCode"].int == 400)
                #expect(
                    response.json?["errors"]["errorMessage"].string
                        == "accessKey must be present as a query parameter or in the header")
                #expect(response.json?["error"] == nil)
            }
            // An empty key or another scheme does not count.
            let empty = try await server.get("/ichibams/api/IchibaItem/Search/20260701?accessKey=&" + query)
            #expect(empty.status == 400)
            let basic = try await server.get(
                "/ichibams/api/IchibaItem/Search/20260701?" + query, headers: [("Authorization", "Basic abc")])
            #expect(basic.status == 400)
        }
    }

    @Test func withAKeyItAnswersAsTheClassicPathDoes() async throws {
        try await withSearchServer { server in
            let classic = try await server.get("/services/api/IchibaItem/Search/20220601?" + query)
            let byQuery = try await server.get("/ichibams/api/IchibaItem/Search/20260701?accessKey=pk_1&" + query)
            let byHeader = try await server.get(
                "/ichibams/api/IchibaItem/Search/20260401?" + query, headers: [("Authorization", "Bearer pk_1")])
            #expect(classic.status == 200 && byQuery.status == 200 && byHeader.status == 200)
            #expect(byQuery.json?["Items"] == classic.json?["Items"])
            #expect(byHeader.json?["count"] == classic.json?["count"])
            // The application id is still checked, in the classic shape.
            let noID = try await server.get("/ichibams/api/IchibaItem/Search/20260701?accessKey=pk_1&keyword=abc")
            #expect(noID.status == 400 && noID.json?["error"].string == "wrong_parameter")
        }
    }

    @Test func unknownGatewayPathsAre404() async throws {
        try await withSearchServer { server in
            for path in ["/ichibams/api/IchibaItem/Search/20990101", "/ichibams/api/Other/Search/20260701"] {
                let response = try await server.get(path + "?accessKey=pk_1&" + query)
                #expect(response.status == 404, "\(path)")
            }
        }
    }
}
