import Testing
import TetherHTTP1
import TetherJSON

@testable import TetherServer

/// The json-server 0.17 read semantics, checked on jsonplaceholder's `db.json` against the answers in
/// `shared/reference/json-server-0.17.md`.
@Suite("json-server reads on jsonplaceholder", .enabled(if: JSONServerFixtures.isAvailable))
struct JSONServerRoutesTests {
    let server: JSONServerResponder

    init() throws { server = try JSONServerFixtures.jsonPlaceholder() }

    @Test func listsEveryCollectionWithItsCount() async throws {
        let counts = [
            ("posts", 100), ("comments", 500), ("albums", 100), ("photos", 5000), ("users", 10), ("todos", 200),
        ]
        for (name, count) in counts {
            let reply = try await server.get("/\(name)")
            #expect(reply.status == 200)
            #expect(reply.json?.array?.count == count, "\(name)")
            #expect(reply["X-Total-Count"] == nil)
        }
    }

    @Test func itemBodyIsPrettyPrintedExactlyAsJSONServer() async throws {
        let reply = try await server.get("/posts/1")
        #expect(reply.status == 200)
        let expected = """
            {
              "userId": 1,
              "id": 1,
              "title": "sunt aut facere repellat provident occaecati excepturi optio reprehenderit",
              "body": "quia et suscipit\\nsuscipit recusandae consequuntur expedita et cum\\nreprehenderit molestiae ut ut \
            quas totam\\nnostrum rerum est autem sunt rem eveniet architecto"
            }
            """
        #expect(reply.text == expected)
        #expect(reply["Content-Type"] == "application/json; charset=utf-8")
    }

    @Test func nestedObjectsKeepTheirKeyOrder() async throws {
        let reply = try await server.get("/users/1")
        let user = try #require(reply.json?.object)
        #expect(user.keys == ["id", "name", "username", "email", "address", "phone", "website", "company"])
        #expect(user["address"]?.object?.keys == ["street", "suite", "city", "zipcode", "geo"])
        #expect(reply.text.hasPrefix("{\n  \"id\": 1,\n  \"name\": \"Leanne Graham\",\n"))
    }

    @Test func headersAreJSONServers() async throws {
        let reply = try await server.get("/posts/1")
        #expect(reply["X-Powered-By"] == "Express")
        #expect(reply["Vary"] == "Origin")
        #expect(reply["Access-Control-Allow-Credentials"] == "true")
        #expect(reply["Access-Control-Allow-Origin"] == nil)
        #expect(reply["Cache-Control"] == "no-cache")
        #expect(reply["Pragma"] == "no-cache")
        #expect(reply["Expires"] == "-1")
        let cors = try await server.get("/posts/1", headers: [("Origin", "http://app.example")])
        #expect(cors["Access-Control-Allow-Origin"] == "http://app.example")
    }

    @Test func missingItemsAndUnknownPathsAre404EmptyObject() async throws {
        for target in ["/posts/999", "/unknown", "/posts/1/2/3/4/5", "/"] {
            let reply = try await server.get(target)
            #expect(reply.status == 404, "\(target)")
            #expect(reply.text == "{}", "\(target)")
        }
        #expect(try await server.send(.post, "/posts/1", body: "{}").status == 404)
        #expect(try await server.send(.put, "/posts", body: "{}").status == 404)
        #expect(try await server.send(.delete, "/posts").status == 404)
    }

    @Test func unknownPathsCanBeLeftToOtherResponders() async throws {
        var configuration = JSONServerResponder.Configuration()
        configuration.claimsUnknownPaths = false
        let polite = JSONServerResponder(database: server.database, configuration: configuration)
        #expect(await polite.respond(to: HTTPRequest(method: .get, target: "/services/api/x")) == nil)
        #expect(await polite.respond(to: HTTPRequest(method: .get, target: "/posts/1")) != nil)
    }

    @Test func dbIsTheWholeDatabase() async throws {
        let reply = try await server.get("/db")
        #expect(reply.json?.object?.keys == ["posts", "comments", "albums", "photos", "users", "todos"])
    }

    @Test func routesIgnoreCaseAndTrailingSlashes() async throws {
        #expect(try await server.get("/POSTS/1").json?["id"]?.int == 1)
        #expect(try await server.get("/posts/1/").json?["id"]?.int == 1)
    }

    @Test func equalityFiltersCompareText() async throws {
        #expect(try await server.get("/posts?userId=1").json?.array?.count == 10)
        #expect(try await server.get("/posts?userId=1&userId=2").json?.array?.count == 20)
        #expect(ids(try await server.get("/posts?id=5")) == [5])
        #expect(try await server.get("/todos?userId=1&completed=true").json?.array?.count == 11)
        #expect(ids(try await server.get("/users?address.city=Gwenborough")) == [1])
        // A field no document has is dropped, so every post comes back.
        #expect(try await server.get("/posts?foo=bar").json?.array?.count == 100)
        #expect(try await server.get("/posts?userId=99").json?.array == [])
    }

    @Test func operatorFilters() async throws {
        #expect(ids(try await server.get("/posts?id_gte=98")) == [98, 99, 100])
        #expect(ids(try await server.get("/posts?id_lte=3")) == [1, 2, 3])
        #expect(ids(try await server.get("/posts?id_gte=4&id_lte=6")) == [4, 5, 6])
        #expect(try await server.get("/users?id_ne=1").json?.array?.count == 9)
        #expect(try await server.get("/users?id_ne=1&id_ne=2").json?.array?.count == 8)
        let like = try await server.get("/posts?title_like=^qui")
        #expect(ids(like).prefix(5) == [2, 33, 47, 52, 56])
        #expect(ids(like).count == 7)
        #expect(try await server.get("/posts?title_like=^QUI").json?.array?.count == 7)
        let bad = try await server.get("/posts?title_like=(")
        #expect(bad.status == 400)
        #expect(bad.json?["error"]?.string == "Bad Request")
    }

    @Test func fullTextSearch() async throws {
        #expect(try await server.get("/posts?q=dolorem").json?.array?.count == 33)
        #expect(try await server.get("/posts?q=DOLOREM").json?.array?.count == 33)
        #expect(ids(try await server.get("/users?q=gwenborough")) == [1])
    }

    @Test func sortingBySeveralFields() async throws {
        #expect(ids(try await server.get("/posts?_sort=userId,id&_order=desc,asc")).prefix(3) == [91, 92, 93])
        #expect(ids(try await server.get("/posts?_sort=id&_order=desc")).prefix(2) == [100, 99])
        #expect(ids(try await server.get("/posts?_sort=title")).first == 30)
        #expect(ids(try await server.get("/posts?_sort=userId")).prefix(3) == [1, 2, 3])
    }

    @Test func pagesCarryTotalCountAndLinks() async throws {
        let reply = try await server.get("/posts?_page=2")
        #expect(ids(reply) == Array(11...20))
        #expect(reply["X-Total-Count"] == "100")
        #expect(reply["Access-Control-Expose-Headers"] == "X-Total-Count, Link")
        let base = "http://localhost:3000/posts?_page="
        #expect(
            reply["Link"]
                == "<\(base)1>; rel=\"first\", <\(base)1>; rel=\"prev\", <\(base)3>; rel=\"next\", <\(base)10>; rel=\"last\""
        )

        let first = try await server.get("/posts?_page=1&_limit=25")
        #expect(ids(first) == Array(1...25))
        let base25 = "http://localhost:3000/posts?_page="
        #expect(
            first["Link"]
                == "<\(base25)1&_limit=25>; rel=\"first\", <\(base25)2&_limit=25>; rel=\"next\", "
                + "<\(base25)4&_limit=25>; rel=\"last\"")

        let last = try await server.get("/posts?userId=1&_page=2&_limit=5")
        #expect(ids(last) == Array(6...10))
        #expect(last["X-Total-Count"] == "10")
        let filtered = "http://localhost:3000/posts?userId=1&_page="
        #expect(
            last["Link"]
                == "<\(filtered)1&_limit=5>; rel=\"first\", <\(filtered)1&_limit=5>; rel=\"prev\", "
                + "<\(filtered)2&_limit=5>; rel=\"last\"")
    }

    @Test func pagesPastTheEndAndSinglePages() async throws {
        let past = try await server.get("/posts?_page=11")
        #expect(past.status == 200)
        #expect(past.text == "[]")
        #expect(past["X-Total-Count"] == "100")
        #expect(past["Link"] == "")
        let single = try await server.get("/users?_page=1")
        #expect(ids(single).count == 10)
        #expect(single["Link"] == "")
        #expect(ids(try await server.get("/posts?_page=0")) == Array(1...10))
    }

    @Test func linkURLsUseTheRequestHost() async throws {
        let reply = try await server.send(.get, "/posts?_page=2&_limit=50", host: "127.0.0.1:8080")
        #expect(
            reply["Link"]
                == "<http://127.0.0.1:8080/posts?_page=1&_limit=50>; rel=\"first\", "
                + "<http://127.0.0.1:8080/posts?_page=1&_limit=50>; rel=\"prev\", "
                + "<http://127.0.0.1:8080/posts?_page=2&_limit=50>; rel=\"last\"")
        #expect(ids(reply) == Array(51...100))
    }

    @Test func slicing() async throws {
        let range = try await server.get("/posts?_start=10&_end=12")
        #expect(ids(range) == [11, 12])
        #expect(range["X-Total-Count"] == "100")
        #expect(range["Access-Control-Expose-Headers"] == "X-Total-Count")
        #expect(ids(try await server.get("/posts?_start=20&_limit=3")) == [21, 22, 23])
        #expect(ids(try await server.get("/posts?_limit=2")) == [1, 2])
        #expect(ids(try await server.get("/posts?_end=-98")) == [1, 2])
        // `_start` alone does not slice in json-server.
        #expect(try await server.get("/posts?_start=95").json?.array?.count == 100)
    }

    @Test func embedAndExpand() async throws {
        let post = try await server.get("/posts/1?_embed=comments")
        #expect(post.json?["comments"]?.array?.compactMap { $0["id"]?.int } == [1, 2, 3, 4, 5])
        #expect(post.json?.object?.keys == ["userId", "id", "title", "body", "comments"])
        let expanded = try await server.get("/posts/1?_expand=user")
        #expect(expanded.json?["user"]?["name"]?.string == "Leanne Graham")
        let both = try await server.get("/comments?postId=1&_expand=post&_limit=1")
        #expect(both.json?[0]?["post"]?["id"]?.int == 1)
        let list = try await server.get("/posts?_embed=comments&_limit=2")
        #expect(list.json?.array?.map { $0["comments"]?.array?.count } == [5, 5])
        let repeated = try await server.get("/users/1?_embed=posts&_embed=albums")
        #expect(repeated.json?["posts"]?.array?.count == 10)
        #expect(repeated.json?["albums"]?.array?.count == 10)
        #expect(try await server.get("/posts/1?_embed=nothing").json?["nothing"]?.array == [])
    }

    @Test func nestedRoutes() async throws {
        #expect(ids(try await server.get("/posts/1/comments")) == [1, 2, 3, 4, 5])
        #expect(try await server.get("/users/1/todos?completed=true").json?.array?.count == 11)
        #expect(try await server.get("/users/1/albums?_page=1&_limit=3").json?.array?.count == 3)
        #expect(try await server.get("/posts/1/comments/7").json?["id"]?.int == 7)
        #expect(try await server.get("/posts/1/nothing").status == 404)
    }

    @Test func idsCompareAsStrings() async throws {
        let database = try JSONDatabase(["items": [["id": "1", "name": "text"], ["id": 2, "name": "number"]]])
        let server = JSONServerResponder(database: database)
        #expect(try await server.get("/items/1").json?["name"]?.string == "text")
        #expect(try await server.get("/items/2").json?["name"]?.string == "number")
        #expect(try await server.get("/items?id=2").json?.array?.count == 1)
    }

    @Test func preflight() async throws {
        let reply = try await server.send(
            .options, "/posts/1",
            headers: [
                ("Origin", "http://app.example"), ("Access-Control-Request-Method", "PUT"),
                ("Access-Control-Request-Headers", "content-type,if-match"),
            ])
        #expect(reply.status == 204)
        #expect(reply.body.isEmpty)
        #expect(reply["Access-Control-Allow-Origin"] == "http://app.example")
        #expect(reply["Access-Control-Allow-Methods"] == "GET,HEAD,PUT,PATCH,POST,DELETE")
        #expect(reply["Access-Control-Allow-Headers"] == "content-type,if-match")
        #expect(reply["Access-Control-Allow-Credentials"] == "true")
        #expect(reply["Vary"] == "Origin, Access-Control-Request-Headers")
    }

    @Test func delayStillAnswers() async throws {
        let reply = try await server.get("/posts/1?_delay=5")
        #expect(reply.status == 200)
        #expect(reply.json?["id"]?.int == 1)
        #expect(try await server.get("/posts?_delay=1&userId=1").json?.array?.count == 10)
        #expect(JSONServerResponder.parseFloat("1.5s") == 1.5)
        #expect(JSONServerResponder.parseFloat("soon") == nil)
    }

    @Test func strongETagsAndNotModified() async throws {
        let first = try await server.get("/posts/1")
        let tag = try #require(first["ETag"])
        #expect(tag.hasPrefix("\"") && tag.hasSuffix("\"") && !tag.hasPrefix("W/") && tag.count == 18)
        #expect(try await server.get("/posts/1")["ETag"] == tag)
        #expect(try await server.get("/posts/2")["ETag"] != tag)
        let cached = try await server.get("/posts/1", headers: [("If-None-Match", tag)])
        #expect(cached.status == 304)
        #expect(cached.body.isEmpty)
        #expect(cached["ETag"] == tag)
        #expect(try await server.get("/posts/1", headers: [("If-None-Match", "W/\(tag)")]).status == 304)
        #expect(try await server.get("/posts/1", headers: [("If-None-Match", "\"other\"")]).status == 200)
        let list = try await server.get("/posts?userId=1")
        let listTag = try #require(list["ETag"])
        #expect(try await server.get("/posts?userId=1", headers: [("If-None-Match", listTag)]).status == 304)
    }

    @Test func headIsAnsweredLikeGet() async throws {
        let reply = try await server.send(.head, "/posts/1")
        #expect(reply.status == 200)
        #expect(reply["ETag"] == (try await server.get("/posts/1"))["ETag"])
    }

    @Test func jsonpWrapsTheBody() async throws {
        let reply = try await server.get("/users/1?callback=handle")
        #expect(reply["Content-Type"] == "text/javascript; charset=utf-8")
        #expect(reply["X-Content-Type-Options"] == "nosniff")
        #expect(reply.text.hasPrefix("/**/ typeof handle === 'function' && handle({\n  \"id\": 1,"))
        #expect(reply.text.hasSuffix("});"))
        let cleaned = try await server.get("/posts/1?callback=a%3Cb%3E.c")
        #expect(cleaned.text.hasPrefix("/**/ typeof ab.c === 'function' && ab.c({"))
        // `callback` is not a filter.
        #expect(try await server.get("/posts?callback=f").text.hasPrefix("/**/ typeof f"))
    }
}
