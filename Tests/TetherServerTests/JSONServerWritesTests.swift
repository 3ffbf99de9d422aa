import Testing
import TetherHTTP1
import TetherJSON

@testable import TetherServer

/// json-server 0.17 writes (POST, PUT, PATCH, DELETE with cascade, singular resources) and our improvements
/// (400, 409, 412, ETags, idempotency keys), on jsonplaceholder's data in memory.
@Suite("json-server writes", .enabled(if: JSONServerFixtures.isAvailable))
struct JSONServerWritesTests {
    let server: JSONServerResponder

    init() throws { server = try JSONServerFixtures.jsonPlaceholder() }

    @Test func postCreatesWithMaxPlusOneIdAndLocation() async throws {
        let reply = try await server.send(.post, "/posts", body: #"{"title":"foo","body":"bar","userId":1}"#)
        #expect(reply.status == 201)
        #expect(reply.text == "{\n  \"title\": \"foo\",\n  \"body\": \"bar\",\n  \"userId\": 1,\n  \"id\": 101\n}")
        #expect(reply["Location"] == "http://localhost:3000/posts/101")
        #expect(reply["Access-Control-Expose-Headers"] == "Location")
        #expect(reply["ETag"] == (try await server.get("/posts/101"))["ETag"])
        #expect(try await server.get("/posts/101").json?["title"]?.string == "foo")
        let second = try await server.send(.post, "/posts", body: #"{"title":"again"}"#)
        #expect(second.json?["id"]?.int == 102)
    }

    @Test func clientIdsAreKeptUnlessTaken() async throws {
        let kept = try await server.send(.post, "/posts", body: #"{"id":5000,"title":"mine"}"#)
        #expect(kept.status == 201)
        #expect(kept.json?["id"]?.int == 5000)
        #expect(try await server.send(.post, "/posts", body: "{}").json?["id"]?.int == 5001)
        let taken = try await server.send(.post, "/posts", body: #"{"id":1,"title":"clash"}"#)
        #expect(taken.status == 409)
        #expect(taken.json?["error"]?.string == "Conflict")
        #expect(try await server.get("/posts/1").json?["title"]?.string != "clash")
        #expect(try await server.send(.post, "/posts", body: #"{"id":"1"}"#).status == 409)
    }

    @Test func stringIdsGetRandomIds() async throws {
        let server = JSONServerResponder(database: try JSONDatabase(["notes": [["id": "abc", "text": "x"]]]))
        let reply = try await server.send(.post, "/notes", body: #"{"text":"y"}"#)
        let id = try #require(reply.json?["id"]?.string)
        #expect(id.count == 7)
        #expect(try await server.get("/notes/\(id)").json?["text"]?.string == "y")
        let empty = JSONServerResponder(database: try JSONDatabase(["notes": []]))
        #expect(try await empty.send(.post, "/notes", body: "{}").json?["id"]?.int == 1)
    }

    @Test func formBodiesAreStrings() async throws {
        let reply = try await server.send(
            .post, "/posts", body: "userId=1&title=hello+world",
            headers: [("Content-Type", "application/x-www-form-urlencoded")])
        #expect(reply.status == 201)
        #expect(reply.json?["userId"]?.string == "1")
        #expect(reply.json?["title"]?.string == "hello world")
    }

    @Test func putReplacesAndKeepsTheId() async throws {
        let reply = try await server.send(.put, "/posts/1", body: #"{"title":"x"}"#)
        #expect(reply.status == 200)
        #expect(reply.text == "{\n  \"title\": \"x\",\n  \"id\": 1\n}")
        let withId = try await server.send(.put, "/posts/2", body: #"{"id":77,"title":"y"}"#)
        #expect(withId.json == ["id": 2, "title": "y"])
        #expect(try await server.get("/posts/2").json == ["id": 2, "title": "y"])
        #expect(try await server.send(.put, "/posts/999", body: "{}").status == 404)
    }

    @Test func patchMergesAndIgnoresTheId() async throws {
        let reply = try await server.send(.patch, "/posts/1", body: #"{"title":"patched","id":9,"extra":true}"#)
        #expect(reply.status == 200)
        #expect(reply.json?.object?.keys == ["userId", "id", "title", "body", "extra"])
        #expect(reply.json?["id"]?.int == 1)
        #expect(reply.json?["title"]?.string == "patched")
        #expect(try await server.send(.patch, "/posts/999", body: "{}").text == "{}")
    }

    @Test func deleteCascadesToDependents() async throws {
        #expect(try await server.get("/posts/3/comments").json?.array?.count == 5)
        let reply = try await server.send(.delete, "/posts/3")
        #expect(reply.status == 200)
        #expect(reply.text == "{}")
        #expect(try await server.get("/posts/3").status == 404)
        #expect(try await server.get("/comments?postId=3").json?.array == [])
        #expect(try await server.get("/comments").json?.array?.count == 495)
        #expect(try await server.send(.delete, "/posts/3").status == 404)
        // A user's posts, albums and todos go (one pass: their comments and photos stay, as in json-server).
        #expect(try await server.send(.delete, "/users/1").status == 200)
        #expect(try await server.get("/posts?userId=1").json?.array == [])
        #expect(try await server.get("/todos").json?.array?.count == 180)
        #expect(try await server.get("/albums").json?.array?.count == 90)
    }

    @Test func nestedPostSetsTheParentKeyAsText() async throws {
        let reply = try await server.send(.post, "/posts/1/comments", body: #"{"body":"hi"}"#)
        #expect(reply.status == 201)
        #expect(reply.json?["postId"]?.string == "1")
        #expect(reply.json?["id"]?.int == 501)
        #expect(reply["Location"] == "http://localhost:3000/posts/1/comments/501")
        #expect(try await server.get("/posts/1/comments").json?.array?.count == 6)
    }

    @Test func singularResources() async throws {
        let server = JSONServerResponder(
            database: try JSONDatabase(["profile": ["name": "typicode"], "posts": []]))
        #expect(try await server.get("/profile").text == "{\n  \"name\": \"typicode\"\n}")
        #expect(try await server.send(.patch, "/profile", body: #"{"age":3}"#).json == ["name": "typicode", "age": 3])
        #expect(try await server.send(.put, "/profile", body: #"{"name":"x"}"#).json == ["name": "x"])
        let created = try await server.send(.post, "/profile", body: #"{"name":"y"}"#)
        #expect(created.status == 201)
        #expect(created["Location"] == "http://localhost:3000/profile")
        #expect(try await server.get("/profile").json == ["name": "y"])
        #expect(try await server.send(.delete, "/profile").status == 404)
        #expect(try await server.get("/profile/1").status == 404)
    }

    @Test func methodOverride() async throws {
        let reply = try await server.send(.post, "/posts/4", headers: [("X-HTTP-Method-Override", "DELETE")])
        #expect(reply.status == 200)
        #expect(try await server.get("/posts/4").status == 404)
    }

    @Test func malformedJSONIs400WithLineAndColumn() async throws {
        let reply = try await server.send(.post, "/posts", body: "{\n  \"title\": \"x\",\n  oops\n}")
        #expect(reply.status == 400)
        let message = try #require(reply.json?["message"]?.string)
        #expect(message.contains("line 3, column 3"), "\(message)")
        #expect(reply.json?["error"]?.string == "Bad Request")
        #expect(try await server.get("/posts").json?.array?.count == 100)
    }

    @Test func nonObjectBodiesAre400() async throws {
        for body in ["[1,2]", "\"text\"", "null", "42"] {
            let reply = try await server.send(.post, "/posts", body: body)
            #expect(reply.status == 400, "\(body)")
            #expect(reply.json?["message"]?.string?.contains("JSON object") == true)
        }
        #expect(try await server.send(.patch, "/posts/1", body: "[]").status == 400)
    }

    @Test func etagChangesWhenTheItemChanges() async throws {
        let before = try #require(try await server.get("/posts/1")["ETag"])
        let patched = try await server.send(.patch, "/posts/1", body: #"{"title":"new"}"#)
        let after = try #require(patched["ETag"])
        #expect(after != before)
        #expect(try await server.get("/posts/1")["ETag"] == after)
        #expect(try await server.get("/posts/1", headers: [("If-None-Match", before)]).status == 200)
    }

    @Test func ifMatchDetectsConflictingEdits() async throws {
        let tag = try #require(try await server.get("/posts/1")["ETag"])
        let first = try await server.send(.patch, "/posts/1", body: #"{"title":"a"}"#, headers: [("If-Match", tag)])
        #expect(first.status == 200)
        let stale = try await server.send(.put, "/posts/1", body: #"{"title":"b"}"#, headers: [("If-Match", tag)])
        #expect(stale.status == 412)
        #expect(stale.json?["error"]?.string == "Precondition Failed")
        #expect(stale["ETag"] == first["ETag"])
        #expect(try await server.get("/posts/1").json?["title"]?.string == "a")
        #expect(try await server.send(.delete, "/posts/1", headers: [("If-Match", tag)]).status == 412)
        #expect(try await server.send(.delete, "/posts/1", headers: [("If-Match", first["ETag"]!)]).status == 200)
        #expect(try await server.send(.patch, "/posts/2", body: "{}", headers: [("If-Match", "*")]).status == 200)
    }

    @Test func idempotencyKeysApplyOnce() async throws {
        let headers = [("Idempotency-Key", "k-1")]
        let first = try await server.send(.post, "/posts", body: #"{"title":"once"}"#, headers: headers)
        let retry = try await server.send(.post, "/posts", body: #"{"title":"once"}"#, headers: headers)
        #expect(first.status == 201)
        #expect(retry.status == 201)
        #expect(retry.body == first.body)
        #expect(retry["Location"] == first["Location"])
        #expect(retry["Idempotent-Replayed"] == "true")
        #expect(first["Idempotent-Replayed"] == nil)
        #expect(try await server.get("/posts").json?.array?.count == 101)
        let misuse = try await server.send(.post, "/posts", body: #"{"title":"other"}"#, headers: headers)
        #expect(misuse.status == 422)
        #expect(misuse.json?["message"]?.string?.contains("k-1") == true)
        #expect(try await server.get("/posts").json?.array?.count == 101)
    }

    @Test func concurrentRetriesWithOneKeyApplyOnce() async throws {
        let server = self.server
        let statuses = try await withThrowingTaskGroup(of: Int.self) { group in
            for _ in 0..<20 {
                group.addTask {
                    try await server.send(
                        .post, "/todos", body: #"{"title":"race"}"#, headers: [("Idempotency-Key", "same")]
                    ).status
                }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(statuses == Array(repeating: 201, count: 20))
        #expect(try await server.get("/todos?title=race").json?.array?.count == 1)
    }

    @Test func idempotencyStoreIsBounded() async throws {
        let database = try JSONDatabase(["items": []], idempotencyCapacity: 3)
        let server = JSONServerResponder(database: database)
        for key in ["a", "b", "c", "d"] {
            _ = try await server.send(.post, "/items", body: "{}", headers: [("Idempotency-Key", key)])
        }
        #expect(await database.idempotency.count == 3)
        #expect(await database.idempotency["a"] == nil)
        #expect(await database.idempotency["d"] != nil)
        // "a" was forgotten, so it applies again.
        _ = try await server.send(.post, "/items", body: "{}", headers: [("Idempotency-Key", "a")])
        #expect(try await server.get("/items").json?.array?.count == 5)
    }
}
