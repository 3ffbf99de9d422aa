import Foundation
import Testing
import TetherJSON

@testable import TetherServer

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The json-server routes and their errors through the whole server, over real sockets, on jsonplaceholder's
/// `db.json` (in memory, so the fixture is never written).
@Suite(.enabled(if: JSONServerFixtures.isAvailable), .timeLimit(.minutes(1)))
struct JSONServerOverSocketsTests {
    private struct Reply {
        var status: Int
        var headers: [AnyHashable: Any]
        var body: Data

        func header(_ name: String) -> String? {
            headers.first { ($0.key as? String)?.lowercased() == name.lowercased() }?.value as? String
        }
        var json: JSON? { try? JSON(parsing: Array(body)) }
    }

    private func send(
        _ method: String, _ url: String, body: String? = nil, headers: [String: String] = [:]
    ) async throws -> Reply {
        var request = URLRequest(url: try #require(URL(string: url)))
        request.httpMethod = method
        if let body {
            request.httpBody = Data(body.utf8)
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        }
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        let session = URLSession(configuration: .ephemeral)
        defer { session.finishTasksAndInvalidate() }
        let (data, response) = try await session.data(for: request)
        let http = try #require(response as? HTTPURLResponse)
        return Reply(status: http.statusCode, headers: http.allHeaderFields, body: data)
    }

    @Test func readsWritesAndErrorsOverTheWire() async throws {
        let file = JSONServerFixtures.jsonPlaceholderURL
        let app = try await TetherServerApp.start(.init(data: .file(file), writes: .inMemory, rakutenRateLimit: false))
        let base = app.baseURL.absoluteString

        // Paging with X-Total-Count and Link.
        let page = try await send("GET", "\(base)/posts?userId=1&_page=2&_limit=3")
        #expect(page.status == 200)
        #expect(page.header("X-Total-Count") == "10")
        #expect(page.header("Link")?.contains(#"rel="next""#) == true)
        #expect(page.json?.array?.map { $0["id"].int } == [4, 5, 6])

        // Nested route, embed, and a missing item.
        #expect(try await send("GET", "\(base)/posts/1/comments").json?.array?.count == 5)
        #expect(try await send("GET", "\(base)/posts/1?_embed=comments").json?["comments"].array?.count == 5)
        let missing = try await send("GET", "\(base)/posts/9999")
        #expect(missing.status == 404 && missing.json == [:])

        // Writes: create, conflict, malformed body.
        let created = try await send("POST", "\(base)/posts", body: #"{"userId": 1, "title": "t", "body": "b"}"#)
        #expect(created.status == 201 && created.json?["id"].int == 101)
        #expect(try await send("POST", "\(base)/posts", body: #"{"id": 1, "title": "taken"}"#).status == 409)
        let malformed = try await send("POST", "\(base)/posts", body: #"{"title": "#)
        #expect(malformed.status == 400 && malformed.json?["error"] != nil)

        // ETags: 304 for an unchanged item, 412 for an edit made against an old version.
        let item = try await send("GET", "\(base)/posts/2")
        let tag = try #require(item.header("ETag"))
        #expect(try await send("GET", "\(base)/posts/2", headers: ["If-None-Match": tag]).status == 304)
        let edited = try await send("PATCH", "\(base)/posts/2", body: #"{"title": "new"}"#, headers: ["If-Match": tag])
        #expect(edited.status == 200 && edited.json?["title"].string == "new")
        let stale = try await send("PATCH", "\(base)/posts/2", body: #"{"title": "newer"}"#, headers: ["If-Match": tag])
        #expect(stale.status == 412)

        // Delete cascades to the post's comments.
        #expect(try await send("DELETE", "\(base)/posts/3").status == 200)
        #expect(try await send("GET", "\(base)/comments?postId=3").json?.array?.isEmpty == true)

        // The Rakuten route is not swallowed by the REST responder.
        let search = try await send("GET", "\(base)/services/api/IchibaItem/Search/20220601?keyword=camera")
        #expect(search.status == 400 && search.json?["error"].string == "wrong_parameter")
        await app.stop()
    }
}
