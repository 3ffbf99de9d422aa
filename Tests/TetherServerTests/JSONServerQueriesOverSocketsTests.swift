import Foundation
import Testing
import TetherJSON

@testable import TetherServer

/// json-server 0.17 reads over real sockets, on jsonplaceholder's `db.json` (one read-only copy shared by the
/// tests): exact statuses, headers and bodies, compared with the fixture and with
/// `shared/reference/json-server-0.17.md`.
@Suite(.enabled(if: JSONServerFixtures.isAvailable), .serialized, .timeLimit(.minutes(1)))
struct JSONServerQueriesOverSocketsTests {
    /// The pretty bytes json-server sends for `json`.
    private func expectedBody(_ json: JSON) throws -> [UInt8] {
        Array(try pretty(json).utf8)
    }

    /// The fixture's elements of `collection` whose `field` is `value`.
    private func fixture(_ collection: String, where field: String, is value: Int) -> [JSON] {
        JSONPlaceholder.collection(collection).filter { $0[field].int == value }
    }

    @Test func listAndItemAreTheFixturesBytesWithJSONServersHeaders() async throws {
        try await withJSONPlaceholderServer { server in
            let list = try await server.get("/posts")
            #expect(list.status == 200)
            #expect(list.body == (try expectedBody(.array(JSONPlaceholder.collection("posts")))))
            #expect(list.header("X-Total-Count") == nil)
            #expect(list.header("Link") == nil)

            let item = try await server.get("/posts/1")
            #expect(item.status == 200)
            #expect(item.body == (try expectedBody(JSONPlaceholder.collection("posts")[0])))
            #expect(item.header("Content-Length") == "\(item.body.count)")
            #expect(item.header("Content-Type") == "application/json; charset=utf-8")
            #expect(item.header("X-Powered-By") == "Express")
            #expect(item.header("Vary") == "Origin")
            #expect(item.header("Access-Control-Allow-Credentials") == "true")
            #expect(item.header("Access-Control-Allow-Origin") == nil)
            #expect(item.header("Cache-Control") == "no-cache")
            #expect(item.header("Pragma") == "no-cache")
            #expect(item.header("Expires") == "-1")
            let tag = try #require(item.header("ETag"))
            #expect(tag.hasPrefix("\"") && !tag.hasPrefix("W/"))

            let user = try await server.get("/users/1")
            #expect(
                user.json?.object?.keys == [
                    "id", "name", "username", "email", "address", "phone", "website", "company",
                ])
            #expect(user.body == (try expectedBody(JSONPlaceholder.collection("users")[0])))

            let cors = try await server.get("/posts/1", headers: [("Origin", "http://app.example")])
            #expect(cors.header("Access-Control-Allow-Origin") == "http://app.example")

            // Every collection with its count, ids compared as text, case and trailing slash ignored.
            for (name, count) in [("comments", 500), ("albums", 100), ("users", 10), ("todos", 200)] {
                #expect(try await server.get("/\(name)").json?.array?.count == count, "\(name)")
            }
            // The 5000 photos by their total rather than their bytes, to keep the test quick.
            #expect(try await server.get("/photos?_limit=1").header("X-Total-Count") == "5000")
            #expect(try await server.get("/POSTS/7/").json?["id"].int == 7)
            #expect(
                try await server.get("/db").json?.object?.keys == [
                    "posts", "comments", "albums", "photos", "users", "todos",
                ])
        }
    }

    @Test func missingItemsAndUnknownPathsAre404EmptyObject() async throws {
        try await withJSONPlaceholderServer { server in
            for target in ["/posts/9999", "/unknown", "/posts/1/nothing", "/posts/1/2/3/4"] {
                let reply = try await server.get(target)
                #expect(reply.status == 404, "\(target)")
                #expect(reply.text == "{}", "\(target)")
                #expect(reply.header("Content-Type") == "application/json; charset=utf-8", "\(target)")
            }
        }
    }

    @Test func equalityFilters() async throws {
        try await withJSONPlaceholderServer { server in
            let first = try await server.get("/posts?userId=1")
            #expect(first.body == (try expectedBody(.array(fixture("posts", where: "userId", is: 1)))))
            // A repeated key is an OR.
            #expect(try await server.get("/posts?userId=1&userId=2").ids == Array(1...20))
            #expect(try await server.get("/posts?id=5").ids == [5])
            #expect(try await server.get("/todos?userId=1&completed=true").json?.array?.count == 11)
            // Nested paths.
            #expect(try await server.get("/users?address.city=Gwenborough").ids == [1])
            #expect(try await server.get("/users?address.geo.lat=-37.3159").ids == [1])
            #expect(try await server.get("/users?company.name=Romaguera-Crona").ids == [1])
            // A field no document has is dropped; a value nobody has is an empty list.
            #expect(try await server.get("/posts?foo=bar").json?.array?.count == 100)
            let none = try await server.get("/posts?userId=99")
            #expect(none.status == 200 && none.text == "[]")
        }
    }

    @Test func operatorFilters() async throws {
        try await withJSONPlaceholderServer { server in
            #expect(try await server.get("/posts?id_gte=98").ids == [98, 99, 100])
            #expect(try await server.get("/posts?id_lte=3").ids == [1, 2, 3])
            #expect(try await server.get("/posts?id_gte=4&id_lte=6").ids == [4, 5, 6])
            #expect(try await server.get("/users?id_ne=1").ids == Array(2...10))
            #expect(try await server.get("/users?id_ne=1&id_ne=2").ids == Array(3...10))
            let like = try await server.get("/posts?title_like=%5Equi")
            let expected = JSONPlaceholder.collection("posts")
                .filter { $0["title"].string?.lowercased().hasPrefix("qui") == true }.compactMap { $0["id"].int }
            #expect(expected.count == 7)
            #expect(like.ids == expected)
            #expect(try await server.get("/posts?title_like=%5EQUI").ids == expected)
            let bad = try await server.get("/posts?title_like=(")
            #expect(bad.status == 400)
            #expect(bad.json?["error"].string == "Bad Request")
            #expect(bad.json?["message"].string?.contains("(") == true)
        }
    }

    @Test func filtersAndSortsFollowJavaScriptComparisons() async throws {
        try await withJSONPlaceholderServer { server in
            let users = JSONPlaceholder.collection("users")
            // A nested sort key.
            let cities = try await server.get("/users?_sort=address.city").json?.array?.compactMap {
                $0["address"]["city"].string
            }
            #expect(cities == users.compactMap { $0["address"]["city"].string }.sorted())
            // `_like` reads numbers as text.
            #expect(try await server.get("/posts?id_like=%5E1").ids == [1] + Array(10...19) + [100])
            // `_gte` on text compares text; the latitudes are strings, so "0" is below every positive one.
            let names = try await server.get("/users?username_gte=M").json?.array?.compactMap { $0["username"].string }
            #expect(names == users.compactMap { $0["username"].string }.filter { $0 >= "M" })
            let north = users.filter { $0["address"]["geo"]["lat"].string?.hasPrefix("-") == false }
            #expect(try await server.get("/users?address.geo.lat_gte=0").ids == north.compactMap { $0["id"].int })
            // `q` matches numbers and `true` as text, and skips `false`.
            let done = JSONPlaceholder.collection("todos").filter { $0["completed"] == true }
            #expect(try await server.get("/todos?q=true").ids == done.compactMap { $0["id"].int })
            #expect(try await server.get("/todos?q=false").text == "[]")
            #expect(try await server.get("/posts?q=100").ids == [100])
            // Sorted, then sliced.
            let slice = try await server.get("/users?_sort=address.city&_order=desc&_start=2&_end=4")
            #expect(slice.json?.array?.compactMap { $0["address"]["city"].string } == ["South Christy", "Roscoeview"])
        }
    }

    @Test func fullTextSearch() async throws {
        try await withJSONPlaceholderServer { server in
            let found = try await server.get("/posts?q=dolorem")
            let expected = JSONPlaceholder.collection("posts").filter { post in
                ["title", "body"].contains { post[$0].string?.lowercased().contains("dolorem") == true }
            }
            #expect(expected.count == 33)
            #expect(found.body == (try expectedBody(.array(expected))))
            #expect(try await server.get("/posts?q=DOLOREM").ids == found.ids)
            // Values at any depth: the city is inside `address`.
            #expect(try await server.get("/users?q=gwenborough").ids == [1])
            #expect(try await server.get("/posts?q=zzzzzz").text == "[]")
        }
    }

    @Test func sortingBySeveralFields() async throws {
        try await withJSONPlaceholderServer { server in
            let posts = JSONPlaceholder.collection("posts")
            let byUserDescThenIDAsc = posts.sorted {
                let (left, right) = ($0["userId"].int ?? 0, $1["userId"].int ?? 0)
                return left != right ? left > right : ($0["id"].int ?? 0) < ($1["id"].int ?? 0)
            }
            let mixed = try await server.get("/posts?_sort=userId,id&_order=desc,asc")
            #expect(mixed.ids == byUserDescThenIDAsc.compactMap { $0["id"].int })
            #expect(mixed.ids.prefix(3) == [91, 92, 93])
            #expect(try await server.get("/posts?_sort=id&_order=desc").ids == Array((1...100).reversed()))
            let titles = try await server.get("/posts?_sort=title").json?.array?.compactMap { $0["title"].string }
            #expect(titles == posts.compactMap { $0["title"].string }.sorted())
            // Sorting and filtering together.
            #expect(try await server.get("/posts?userId=2&_sort=id&_order=desc").ids == Array((11...20).reversed()))
        }
    }

    @Test func pagesCarryTotalCountAndExactLinks() async throws {
        try await withJSONPlaceholderServer { server in
            let url = "\(server.base)/posts?_page="
            func links(_ parts: [(String, String)]) -> String {
                parts.map { "<\(url)\($0.1)>; rel=\"\($0.0)\"" }.joined(separator: ", ")
            }
            let middle = try await server.get("/posts?_page=2")
            #expect(middle.ids == Array(11...20))
            #expect(middle.header("X-Total-Count") == "100")
            #expect(middle.header("Access-Control-Expose-Headers") == "X-Total-Count, Link")
            #expect(middle.header("Link") == links([("first", "1"), ("prev", "1"), ("next", "3"), ("last", "10")]))

            let first = try await server.get("/posts?_page=1&_limit=25")
            #expect(first.ids == Array(1...25))
            #expect(
                first.header("Link")
                    == links([("first", "1&_limit=25"), ("next", "2&_limit=25"), ("last", "4&_limit=25")]))

            let last = try await server.get("/posts?_page=10")
            #expect(last.ids == Array(91...100))
            #expect(last.header("Link") == links([("first", "1"), ("prev", "9"), ("last", "10")]))

            // The other parameters stay where they were in the URL.
            let filtered = try await server.get("/posts?userId=1&_page=2&_limit=3")
            #expect(filtered.ids == [4, 5, 6])
            #expect(filtered.header("X-Total-Count") == "10")
            let filteredURL = "\(server.base)/posts?userId=1&_page="
            #expect(
                filtered.header("Link")
                    == "<\(filteredURL)1&_limit=3>; rel=\"first\", <\(filteredURL)1&_limit=3>; rel=\"prev\", "
                    + "<\(filteredURL)3&_limit=3>; rel=\"next\", <\(filteredURL)4&_limit=3>; rel=\"last\"")
        }
    }

    @Test func pagesPastTheEndSinglePagesAndPagesBelowOne() async throws {
        try await withJSONPlaceholderServer { server in
            let past = try await server.get("/posts?_page=11")
            #expect(past.status == 200)
            #expect(past.text == "[]")
            #expect(past.header("X-Total-Count") == "100")
            #expect(past.headerValues("Link") == [""])
            let single = try await server.get("/users?_page=1")
            #expect(single.ids == Array(1...10))
            #expect(single.headerValues("Link") == [""])
            #expect(try await server.get("/posts?_page=0").ids == Array(1...10))
            #expect(try await server.get("/posts?_page=-3&_limit=2").ids == [1, 2])
        }
    }

    @Test func slicesWithStartEndAndLimit() async throws {
        try await withJSONPlaceholderServer { server in
            let range = try await server.get("/posts?_start=10&_end=12")
            #expect(range.ids == [11, 12])
            #expect(range.header("X-Total-Count") == "100")
            #expect(range.header("Access-Control-Expose-Headers") == "X-Total-Count")
            #expect(range.header("Link") == nil)
            #expect(try await server.get("/posts?_start=20&_limit=3").ids == [21, 22, 23])
            let limited = try await server.get("/posts?_limit=2")
            #expect(limited.ids == [1, 2])
            #expect(limited.header("X-Total-Count") == "100")
            let filtered = try await server.get("/comments?postId=2&_start=1&_end=3")
            #expect(filtered.ids == [7, 8])
            #expect(filtered.header("X-Total-Count") == "5")
        }
    }

    @Test func embedAndExpand() async throws {
        try await withJSONPlaceholderServer { server in
            var post = try #require(JSONPlaceholder.collection("posts")[0].object)
            post["comments"] = .array(fixture("comments", where: "postId", is: 1))
            let embedded = try await server.get("/posts/1?_embed=comments")
            #expect(embedded.body == (try expectedBody(.object(post))))

            var comment = try #require(JSONPlaceholder.collection("comments")[0].object)
            comment["post"] = JSONPlaceholder.collection("posts")[0]
            #expect(try await server.get("/comments/1?_expand=post").body == (try expectedBody(.object(comment))))

            let list = try await server.get("/posts?_embed=comments&_limit=2")
            #expect(list.json?.array?.map { $0["comments"].array?.count } == [5, 5])
            let expandedList = try await server.get("/albums?userId=2&_expand=user")
            #expect(expandedList.json?.array?.allSatisfy { $0["user"]["id"].int == 2 } == true)
            #expect(expandedList.json?.array?.count == 10)
            let repeated = try await server.get("/users/1?_embed=posts&_embed=albums")
            #expect(repeated.json?["posts"].array?.count == 10)
            #expect(repeated.json?["albums"].array?.count == 10)
            #expect(repeated.json?.object?.keys.suffix(2) == ["posts", "albums"])
        }
    }

    @Test func nestedRoutes() async throws {
        try await withJSONPlaceholderServer { server in
            let comments = try await server.get("/posts/1/comments")
            #expect(comments.body == (try expectedBody(.array(fixture("comments", where: "postId", is: 1)))))
            #expect(try await server.get("/users/1/todos?completed=true").json?.array?.count == 11)
            let paged = try await server.get("/users/1/albums?_page=2&_limit=3")
            #expect(paged.ids == [4, 5, 6])
            #expect(paged.header("X-Total-Count") == "10")
            #expect(paged.header("Link")?.hasPrefix("<\(server.base)/users/1/albums?_page=1&_limit=3>") == true)
            #expect(try await server.get("/posts/1/comments/7").json?["id"].int == 7)
        }
    }

    @Test func preflightAnswers204WithTheCORSHeaders() async throws {
        try await withJSONPlaceholderServer { server in
            let reply = try await server.send(
                "OPTIONS", "/posts/1",
                headers: [
                    ("Origin", "http://app.example"), ("Access-Control-Request-Method", "PUT"),
                    ("Access-Control-Request-Headers", "content-type,if-match"),
                ])
            #expect(reply.status == 204)
            #expect(reply.body.isEmpty)
            #expect(reply.header("Access-Control-Allow-Origin") == "http://app.example")
            #expect(reply.header("Access-Control-Allow-Methods") == "GET,HEAD,PUT,PATCH,POST,DELETE")
            #expect(reply.header("Access-Control-Allow-Headers") == "content-type,if-match")
            #expect(reply.header("Access-Control-Allow-Credentials") == "true")
            #expect(reply.header("Vary") == "Origin, Access-Control-Request-Headers")
            // A preflight for a collection or an unknown path is answered the same way.
            #expect(try await server.send("OPTIONS", "/comments").status == 204)
        }
    }

    @Test func delayWaitsAtLeastThatLongThenAnswers() async throws {
        try await withJSONPlaceholderServer { server in
            let clock = ContinuousClock()
            let start = clock.now
            let reply = try await server.get("/posts/1?_delay=150")
            let elapsed = clock.now - start
            #expect(reply.status == 200)
            #expect(reply.json?["id"].int == 1)
            #expect(elapsed >= .milliseconds(150))
            // `_delay` is not a filter.
            #expect(try await server.get("/posts?_delay=1&userId=1").ids == Array(1...10))
        }
    }

    @Test func entityTagsGive304ForItemsAndLists() async throws {
        try await withJSONPlaceholderServer { server in
            let list = try await server.get("/posts?userId=1")
            let tag = try #require(list.header("ETag"))
            let cached = try await server.get("/posts?userId=1", headers: [("If-None-Match", tag)])
            #expect(cached.status == 304)
            #expect(cached.body.isEmpty)
            #expect(cached.header("ETag") == tag)
            #expect(cached.header("Content-Type") == nil)
            let weak = try await server.get("/posts?userId=1", headers: [("If-None-Match", "W/\(tag)")])
            #expect(weak.status == 304)
            let listed = try await server.get("/posts?userId=1", headers: [("If-None-Match", "\"x\", \(tag)")])
            #expect(listed.status == 304)
            // Another query is another representation.
            #expect(try await server.get("/posts?userId=2", headers: [("If-None-Match", tag)]).status == 200)
            #expect(try await server.get("/posts/1", headers: [("If-None-Match", "\"stale\"")]).status == 200)
        }
    }

    @Test func headSendsTheHeadOfTheGetResponse() async throws {
        try await withJSONPlaceholderServer { server in
            let get = try await server.get("/posts/1")
            let head = try await server.send("HEAD", "/posts/1")
            #expect(head.status == 200)
            #expect(head.body.isEmpty)
            #expect(head.header("Content-Length") == "\(get.body.count)")
            #expect(head.header("ETag") == get.header("ETag"))
            // Nothing follows the head: the next response on the same connection reads cleanly.
            let port = server.port
            let authority = server.authority
            let next = try await onThread {
                let client = try RawHTTPClient(port: port)
                _ = try client.exchange("HEAD /posts HTTP/1.1\r\nHost: \(authority)\r\n\r\n", isHead: true)
                return try client.exchange("GET /posts/2 HTTP/1.1\r\nHost: \(authority)\r\n\r\n")
            }
            #expect(next.json?["id"].int == 2)
        }
    }

    @Test func callbackGivesJSONP() async throws {
        try await withJSONPlaceholderServer { server in
            let reply = try await server.get("/users/1?callback=handle")
            #expect(reply.header("Content-Type") == "text/javascript; charset=utf-8")
            #expect(reply.header("X-Content-Type-Options") == "nosniff")
            let body = try pretty(JSONPlaceholder.collection("users")[0])
            #expect(reply.text == "/**/ typeof handle === 'function' && handle(\(body));")
        }
    }
}
