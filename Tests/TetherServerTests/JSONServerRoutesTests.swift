import Testing
import TetherHTTP1
import TetherJSON

@testable import TetherServer

@Suite("json-server routes on jsonplaceholder", .enabled(if: JSONServerFixtures.isAvailable))
struct JSONServerRoutesTests {
    let server: JSONServerResponder

    init() throws { server = try JSONServerFixtures.jsonPlaceholder() }

    @Test func listsEveryCollection() async throws {
        for (name, count) in [
            ("posts", 100), ("comments", 500), ("albums", 100), ("photos", 5000), ("users", 10), ("todos", 200),
        ] {
            let reply = try await server.get("/\(name)")
            #expect(reply.status == 200)
            #expect(reply.json?.array?.count == count, "\(name)")
        }
    }
}
