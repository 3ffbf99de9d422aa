import Foundation
import Testing
import TetherJSON

@testable import TetherServer

/// json-server 0.17 writes over real sockets on jsonplaceholder's `db.json` (a fresh in-memory copy per test):
/// POST, PUT, PATCH, DELETE with cascade, singular resources, and what Tether does better on purpose (400 and
/// 409 with JSON errors, ETags with `If-Match`, `Idempotency-Key`).
@Suite(.enabled(if: JSONServerFixtures.isAvailable), .serialized, .timeLimit(.minutes(1)))
struct JSONServerWritesOverSocketsTests {
    private func expectedBody(_ json: JSON) throws -> [UInt8] {
        Array(try pretty(json).utf8)
    }

    @Test func postAnswers201WithLocationAndMaxPlusOneIDs() async throws {
        try await withJSONPlaceholderServer(writable: true) { server in
            let created = try await server.send("POST", "/posts", body: #"{"userId": 1, "title": "t", "body": "b"}"#)
            #expect(created.status == 201)
            #expect(created.body == (try expectedBody(["userId": 1, "title": "t", "body": "b", "id": 101])))
            #expect(created.header("Location") == "\(server.base)/posts/101")
            #expect(created.header("Access-Control-Expose-Headers") == "Location")
            #expect(created.header("ETag") != nil)
            #expect(try await server.get("/posts/101").body == created.body)
            #expect(try await server.send("POST", "/posts", body: "{}").json?["id"].int == 102)
            #expect(try await server.get("/posts").json?.array?.count == 102)
        }
    }

    @Test func aClientIDIsKeptUnlessTakenThen409() async throws {
        try await withJSONPlaceholderServer(writable: true) { server in
            let kept = try await server.send("POST", "/posts", body: #"{"id": 5000, "title": "mine"}"#)
            #expect(kept.status == 201)
            #expect(kept.json == ["id": 5000, "title": "mine"])
            #expect(kept.header("Location") == "\(server.base)/posts/5000")
            // The next generated id is the new maximum plus one.
            #expect(try await server.send("POST", "/posts", body: "{}").json?["id"].int == 5001)
            let text = try await server.send("POST", "/todos", body: #"{"id": "abc"}"#)
            #expect(text.status == 201 && text.json?["id"].string == "abc")

            let taken = try await server.send("POST", "/posts", body: #"{"id": 1, "title": "taken"}"#)
            #expect(taken.status == 409)
            #expect(taken.header("Content-Type") == "application/json; charset=utf-8")
            #expect(taken.json?.object?.keys == ["error", "message"])
            #expect(taken.json?["error"].string == "Conflict")
            #expect(taken.json?["message"].string?.contains("id 1") == true)
            #expect(try await server.get("/posts/1").json?["title"].string != "taken")
            #expect(try await server.get("/posts").json?.array?.count == 102)
        }
    }

    @Test func anEmptyCollectionStartsAt1AndStringIDsGetARandomOne() async throws {
        let database = try JSONDatabase(["empty": [], "tags": [["id": "a1", "name": "x"]]])
        try await withJSONServer(database, .init()) { server in
            let first = try await server.send("POST", "/empty", body: #"{"n": 1}"#)
            #expect(first.status == 201 && first.json == ["n": 1, "id": 1])
            #expect(try await server.send("POST", "/empty", body: "{}").json?["id"].int == 2)
            let tag = try await server.send("POST", "/tags", body: #"{"name": "y"}"#)
            #expect(tag.status == 201)
            let id = try #require(tag.json?["id"].string)
            let alphabet = Set("useandom-26T198340PX75pxJACKVERYMINDBUSHWOLF_GQZbfghjklqvwyzrict")
            #expect(id.count == 7 && id.allSatisfy(alphabet.contains))
            #expect(tag.header("Location") == "\(server.base)/tags/\(id)")
            #expect(try await server.get("/tags/\(id)").json?["name"].string == "y")
        }
    }

    @Test func formBodiesAreStoredAsText() async throws {
        try await withJSONPlaceholderServer(writable: true) { server in
            let created = try await server.send(
                "POST", "/posts", body: "userId=1&title=form+body&tag=a&tag=b",
                headers: [("Content-Type", "application/x-www-form-urlencoded")])
            #expect(created.status == 201)
            #expect(created.json == ["userId": "1", "title": "form body", "tag": ["a", "b"], "id": 101])
        }
    }

    @Test func nestedPostSetsTheParentKeyAsText() async throws {
        try await withJSONPlaceholderServer(writable: true) { server in
            let created = try await server.send("POST", "/posts/1/comments", body: #"{"body": "hi"}"#)
            #expect(created.status == 201)
            #expect(created.json == ["body": "hi", "postId": "1", "id": 501])
            #expect(created.header("Location") == "\(server.base)/posts/1/comments/501")
            #expect(try await server.get("/posts/1/comments").ids == [1, 2, 3, 4, 5, 501])
        }
    }

    @Test func nestedItemRoutesRewriteToTheChildAsJSONServerDoes() async throws {
        try await withJSONPlaceholderServer(writable: true) { server in
            // `/:resource/:id/:nested/:nestedId` is `/:nested/:nestedId` for GET, PUT and DELETE; the parent id
            // is not checked (comment 7 belongs to post 2), and PATCH has no such route.
            #expect(try await server.get("/posts/1/comments/7").json?["postId"].int == 2)
            #expect(try await server.send("PATCH", "/posts/1/comments/7", body: "{}").text == "{}")
            let replaced = try await server.send("PUT", "/posts/1/comments/7", body: #"{"body": "new"}"#)
            #expect(replaced.status == 200 && replaced.json == ["body": "new", "id": 7])
            #expect(try await server.get("/comments/7").json == ["body": "new", "id": 7])
            #expect(try await server.send("DELETE", "/posts/1/comments/7").status == 200)
            #expect(try await server.get("/comments/7").status == 404)
            // A nested POST does not check the parent either.
            let orphan = try await server.send("POST", "/posts/9999/comments", body: "{}")
            #expect(orphan.status == 201 && orphan.json == ["postId": "9999", "id": 501])
        }
    }

    @Test func putReplacesAndKeepsThePathID() async throws {
        try await withJSONPlaceholderServer(writable: true) { server in
            let replaced = try await server.send("PUT", "/posts/1", body: #"{"title": "x"}"#)
            #expect(replaced.status == 200)
            #expect(replaced.body == (try expectedBody(["title": "x", "id": 1])))
            #expect(try await server.get("/posts/1").body == replaced.body)
            let moved = try await server.send("PUT", "/posts/2", body: #"{"id": 7, "title": "y"}"#)
            #expect(moved.json == ["id": 2, "title": "y"])
            #expect(try await server.get("/posts/7").json?["title"].string != "y")
        }
    }

    @Test func patchMergesAndIgnoresABodyID() async throws {
        try await withJSONPlaceholderServer(writable: true) { server in
            var expected = try #require(JSONPlaceholder.collection("posts")[2].object)
            expected["title"] = "z"
            expected["extra"] = true
            let patched = try await server.send("PATCH", "/posts/3", body: #"{"id": 9, "title": "z", "extra": true}"#)
            #expect(patched.status == 200)
            #expect(patched.body == (try expectedBody(.object(expected))))
            #expect(try await server.get("/posts/3").body == patched.body)
            #expect(try await server.get("/posts/9").json?["title"].string != "z")
        }
    }

    @Test func writesToMissingItemsOrCollectionsAre404EmptyObject() async throws {
        try await withJSONPlaceholderServer(writable: true) { server in
            for (method, target) in [
                ("PUT", "/posts/999"), ("PATCH", "/posts/999"), ("DELETE", "/posts/999"), ("POST", "/posts/1"),
                ("PUT", "/posts"), ("PATCH", "/posts"), ("DELETE", "/posts"), ("POST", "/unknown"),
            ] {
                let reply = try await server.send(method, target, body: method == "DELETE" ? nil : "{}")
                #expect(reply.status == 404, "\(method) \(target)")
                #expect(reply.text == "{}", "\(method) \(target)")
            }
            #expect(try await server.get("/posts").json?.array?.count == 100)
        }
    }

    @Test func deleteAnswersEmptyObjectAndCascades() async throws {
        try await withJSONPlaceholderServer(writable: true) { server in
            #expect(try await server.get("/comments?postId=3").ids == [11, 12, 13, 14, 15])
            let deleted = try await server.send("DELETE", "/posts/3")
            #expect(deleted.status == 200)
            #expect(deleted.text == "{}")
            #expect(try await server.get("/posts/3").status == 404)
            #expect(try await server.get("/comments?postId=3").text == "[]")
            #expect(try await server.get("/comments").json?.array?.count == 495)
            #expect(try await server.get("/posts").json?.array?.count == 99)
            #expect(try await server.send("DELETE", "/posts/3").status == 404)
            // A user's posts, albums and todos go with the user.
            #expect(try await server.send("DELETE", "/users/1").status == 200)
            #expect(try await server.get("/posts?userId=1").text == "[]")
            #expect(try await server.get("/todos").json?.array?.count == 180)
            #expect(try await server.get("/albums").json?.array?.count == 90)
        }
    }

    @Test func methodOverrideTurnsAPostIntoADelete() async throws {
        try await withJSONPlaceholderServer(writable: true) { server in
            let reply = try await server.send("POST", "/posts/4", headers: [("X-HTTP-Method-Override", "DELETE")])
            #expect(reply.status == 200)
            #expect(try await server.get("/posts/4").status == 404)
        }
    }

    @Test func malformedAndNonObjectBodiesAre400WithAJSONError() async throws {
        try await withJSONPlaceholderServer(writable: true) { server in
            let malformed = try await server.send("POST", "/posts", body: "{\n  \"title\": \"x\",\n  oops\n}")
            #expect(malformed.status == 400)
            #expect(malformed.header("Content-Type") == "application/json; charset=utf-8")
            #expect(malformed.json?["error"].string == "Bad Request")
            let message = try #require(malformed.json?["message"].string)
            #expect(message.hasPrefix("malformed JSON body"))
            #expect(message.contains("line 3, column 3"), "\(message)")
            for body in ["[1, 2]", "\"text\"", "null", "42", "{\"title\": "] {
                let reply = try await server.send("POST", "/posts", body: body)
                #expect(reply.status == 400, "\(body)")
                #expect(reply.json?["error"].string == "Bad Request", "\(body)")
            }
            #expect(try await server.send("PATCH", "/posts/1", body: "[]").status == 400)
            #expect(try await server.send("PUT", "/posts/1", body: "{").status == 400)
            #expect(try await server.get("/posts").json?.array?.count == 100)
            #expect(try await server.get("/posts/1").json?["title"] == JSONPlaceholder.collection("posts")[0]["title"])
        }
    }

    @Test func ifMatchDetectsConflictingEditsWith412() async throws {
        try await withJSONPlaceholderServer(writable: true) { server in
            let original = try #require(try await server.get("/posts/2").header("ETag"))
            let edited = try await server.send(
                "PATCH", "/posts/2", body: #"{"title": "a"}"#, headers: [("If-Match", original)])
            #expect(edited.status == 200)
            let current = try #require(edited.header("ETag"))
            #expect(current != original)
            #expect(try await server.get("/posts/2").header("ETag") == current)
            #expect(try await server.get("/posts/2", headers: [("If-None-Match", original)]).status == 200)

            for (method, body) in [("PUT", #"{"title": "b"}"#), ("PATCH", #"{"title": "b"}"#), ("DELETE", nil)] {
                let stale = try await server.send(method, "/posts/2", body: body, headers: [("If-Match", original)])
                #expect(stale.status == 412, "\(method)")
                #expect(stale.json?["error"].string == "Precondition Failed", "\(method)")
                #expect(stale.header("ETag") == current, "\(method)")
            }
            #expect(try await server.get("/posts/2").json?["title"].string == "a")
            let starred = try await server.send("PATCH", "/posts/2", body: "{}", headers: [("If-Match", "*")])
            #expect(starred.status == 200)
            let deleted = try await server.send("DELETE", "/posts/2", headers: [("If-Match", current)])
            #expect(deleted.status == 200)
            #expect(try await server.get("/posts/2").status == 404)
        }
    }

    @Test func concurrentEditsWithOneETagOverManyConnectionsLetExactlyOneWin() async throws {
        try await withJSONPlaceholderServer(writable: true) { server in
            let tag = try #require(try await server.get("/posts/7").header("ETag"))
            let statuses = try await withThrowingTaskGroup(of: (Int, Int).self) { group in
                for index in 0..<10 {
                    group.addTask {
                        let reply = try await server.send(
                            "PATCH", "/posts/7", body: #"{"title": "edit \#(index)"}"#, headers: [("If-Match", tag)])
                        return (index, reply.status)
                    }
                }
                return try await group.reduce(into: [Int: Int]()) { $0[$1.0] = $1.1 }
            }
            let winners = statuses.filter { $0.value == 200 }.map(\.key)
            #expect(winners.count == 1)
            #expect(statuses.values.filter { $0 == 412 }.count == 9)
            let winner = try #require(winners.first)
            #expect(try await server.get("/posts/7").json?["title"].string == "edit \(winner)")
        }
    }

    @Test func writesHonourDelayAndCORS() async throws {
        try await withJSONPlaceholderServer(writable: true) { server in
            let clock = ContinuousClock()
            let start = clock.now
            let created = try await server.send(
                "POST", "/posts?_delay=100", body: "{}", headers: [("Origin", "http://app.example")])
            #expect(clock.now - start >= .milliseconds(100))
            #expect(created.status == 201)
            #expect(created.header("Access-Control-Allow-Origin") == "http://app.example")
            #expect(created.header("Access-Control-Allow-Credentials") == "true")
            // `_delay` is not stored; the Location is json-server's `getFullURL(req) + "/" + id`, query included.
            #expect(created.json == ["id": 101])
            #expect(created.header("Location") == "\(server.base)/posts?_delay=100/101")
        }
    }

    @Test func anIdempotencyKeyAppliesAWriteOnce() async throws {
        try await withJSONPlaceholderServer(writable: true) { server in
            let key = [("Idempotency-Key", "create-1")]
            let first = try await server.send("POST", "/posts", body: #"{"title": "once"}"#, headers: key)
            let retry = try await server.send("POST", "/posts", body: #"{"title": "once"}"#, headers: key)
            #expect(first.status == 201 && retry.status == 201)
            #expect(retry.body == first.body)
            #expect(retry.header("Location") == first.header("Location"))
            #expect(first.header("Idempotent-Replayed") == nil)
            #expect(retry.header("Idempotent-Replayed") == "true")
            #expect(try await server.get("/posts?title=once").ids == [101])

            // The same key on a different body is refused, and nothing is applied.
            let misuse = try await server.send("POST", "/posts", body: #"{"title": "other"}"#, headers: key)
            #expect(misuse.status == 422)
            #expect(misuse.json?["message"].string?.contains("create-1") == true)
            #expect(try await server.get("/posts").json?.array?.count == 101)

            // PATCH and PUT replay too: the second PATCH would otherwise see the first one's result.
            let patchKey = [("Idempotency-Key", "patch-1")]
            let patched = try await server.send("PATCH", "/posts/1", body: #"{"title": "p"}"#, headers: patchKey)
            _ = try await server.send("PATCH", "/posts/1", body: #"{"title": "q"}"#)
            let replayed = try await server.send("PATCH", "/posts/1", body: #"{"title": "p"}"#, headers: patchKey)
            #expect(replayed.header("Idempotent-Replayed") == "true")
            #expect(replayed.body == patched.body)
            #expect(try await server.get("/posts/1").json?["title"].string == "q")
            let putKey = [("Idempotency-Key", "put-1")]
            let put = try await server.send("PUT", "/posts/5", body: #"{"title": "r"}"#, headers: putKey)
            let putAgain = try await server.send("PUT", "/posts/5", body: #"{"title": "r"}"#, headers: putKey)
            #expect(put.status == 200 && putAgain.header("Idempotent-Replayed") == "true")
        }
    }

    @Test func concurrentRetriesWithOneKeyOverManyConnectionsCreateOneItem() async throws {
        try await withJSONPlaceholderServer(writable: true) { server in
            let statuses = try await withThrowingTaskGroup(of: Int.self) { group in
                for _ in 0..<12 {
                    group.addTask {
                        try await server.send(
                            "POST", "/todos", body: #"{"title": "race"}"#, headers: [("Idempotency-Key", "same")]
                        ).status
                    }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(statuses == Array(repeating: 201, count: 12))
            #expect(try await server.get("/todos?title=race").ids == [201])
        }
    }

    @Test func oneKeptAliveConnectionCarriesEveryKindOfAnswer() async throws {
        try await withJSONPlaceholderServer(writable: true) { server in
            let port = server.port
            let tag = try #require(try await server.get("/posts/1").header("ETag"))
            let requests: [(String, Bool)] = [
                (server.requestText("GET", "/posts/1", headers: [("If-None-Match", tag)]), false),
                (server.requestText("HEAD", "/posts/1"), true),
                (server.requestText("OPTIONS", "/posts"), false),
                (server.requestText("POST", "/posts", body: #"{"title": "kept"}"#), false),
                (server.requestText("POST", "/posts", body: "{oops"), false),
                (server.requestText("GET", "/nothing"), false),
                (server.requestText("DELETE", "/posts/101"), false),
                (server.requestText("GET", "/posts/101"), false),
            ]
            let replies = try await onThread {
                let client = try RawHTTPClient(port: port)
                return try requests.map { text, isHead in try client.exchange(text, isHead: isHead) }
            }
            #expect(replies.map(\.status) == [304, 200, 204, 201, 400, 404, 200, 404])
            #expect(replies.allSatisfy { $0.header("Connection") == nil })
        }
    }

    @Test func pipelinedWritesAndReadsOnOneConnectionApplyInOrder() async throws {
        try await withJSONPlaceholderServer(writable: true) { server in
            let port = server.port
            let pipeline =
                server.requestText("POST", "/posts", body: #"{"title": "first"}"#)
                + server.requestText("PATCH", "/posts/101", body: #"{"title": "second"}"#)
                + server.requestText("GET", "/posts/101")
                + server.requestText("DELETE", "/posts/101")
                + server.requestText("GET", "/posts/101")
            let replies = try await onThread {
                let client = try RawHTTPClient(port: port)
                try client.send(pipeline)
                return try (0..<5).map { _ in try client.readResponse() }
            }
            #expect(replies.map(\.status) == [201, 200, 200, 200, 404])
            #expect(replies[2].json == ["title": "second", "id": 101])
        }
    }

    @Test func singularResourceOfTheFile() async throws {
        // db.json has no singular resource; this copy of it adds json-server's README `profile`.
        let database = try await onThread {
            var root = JSONPlaceholder.database.object ?? [:]
            root["profile"] = ["name": "typicode"]
            return try JSONDatabase(.object(root))
        }
        try await withJSONServer(database, .init()) { server in
            let profile = try await server.get("/profile")
            #expect(profile.status == 200)
            #expect(profile.text == "{\n  \"name\": \"typicode\"\n}")
            #expect(profile.header("ETag") != nil)
            let merged = try await server.send("PATCH", "/profile", body: #"{"age": 3}"#)
            #expect(merged.status == 200 && merged.json == ["name": "typicode", "age": 3])
            let replaced = try await server.send("PUT", "/profile", body: #"{"name": "x"}"#)
            #expect(replaced.status == 200 && replaced.json == ["name": "x"])
            let created = try await server.send("POST", "/profile", body: #"{"name": "y"}"#)
            #expect(created.status == 201)
            #expect(created.header("Location") == "\(server.base)/profile")
            #expect(try await server.get("/profile").json == ["name": "y"])
            #expect(try await server.send("DELETE", "/profile").status == 404)
            #expect(try await server.get("/profile/1").status == 404)
            #expect(try await server.get("/db").json?.object?.keys.last == "profile")
        }
    }

    @Test func readOnlyRefusesEveryWriteWith403() async throws {
        try await withJSONPlaceholderServer { server in
            for (method, target) in [
                ("POST", "/posts"), ("PUT", "/posts/1"), ("PATCH", "/posts/1"), ("DELETE", "/posts/1"),
                ("POST", "/posts/1/comments"),
            ] {
                let reply = try await server.send(method, target, body: method == "DELETE" ? nil : "{}")
                #expect(reply.status == 403, "\(method) \(target)")
                #expect(reply.json?["error"].string == "Forbidden", "\(method) \(target)")
                #expect(reply.json?["message"].string?.isEmpty == false)
            }
            #expect(try await server.get("/posts/1").status == 200)
            #expect(try await server.send("OPTIONS", "/posts").status == 204)
            #expect(try await server.get("/posts").json?.array?.count == 100)
        }
    }
}
