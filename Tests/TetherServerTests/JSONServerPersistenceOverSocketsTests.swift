import Foundation
import Testing
import TetherJSON

@testable import TetherServer

/// Persistence over real sockets: writes saved beside the file (its journal, folded into it at a clean stop)
/// survive a restart on it, concurrent writes over many connections are all saved, the file is replaced
/// atomically (always whole JSON, no temporary file left), and `--in-memory` / `--read-only` leave it alone. The database is a copy of part of jsonplaceholder's `db.json`
/// in a scratch directory.
@Suite(.enabled(if: JSONServerFixtures.isAvailable), .serialized, .timeLimit(.minutes(1)))
struct JSONServerPersistenceOverSocketsTests {
    /// jsonplaceholder's posts and the comments of its first three posts, as json-server writes a file.
    private static func smallDatabase() throws -> [UInt8] {
        let comments = JSONPlaceholder.collection("comments").filter { ($0["postId"].int ?? 0) <= 3 }
        let root: JSON = ["posts": .array(JSONPlaceholder.collection("posts")), "comments": .array(comments)]
        return Array(try pretty(root).utf8)
    }

    private func parsedFile(_ url: URL) throws -> JSON {
        try JSON(parsing: Array(try Data(contentsOf: url)))
    }

    /// Opens `file` as `tether serve db.json` does (``TetherServerApp/openFile(_:writes:)``, on a thread of its
    /// own) and serves it with the json-server routes, without the app's Rakuten catalog; closes the database at
    /// the end, as `tether serve` does at a clean stop (its journal is folded into the file).
    private func withFileServer<Value>(
        _ file: URL, writes: TetherServerApp.Options.Writes, _ body: (LiveServer) async throws -> Value
    ) async throws -> Value {
        let database = try await onThread { try TetherServerApp.openFile(file, writes: writes) }
        let value = try await withJSONServer(database, .init(), body)
        try await database.close()
        return value
    }

    @Test func writesSurviveARestartOnTheSameFile() async throws {
        let scratch = try ScratchDirectory()
        let file = try scratch.file("db.json", try Self.smallDatabase())
        let before = try await withFileServer(file, writes: .persistent) { server in
            #expect(try await server.send("POST", "/posts", body: #"{"title": "kept"}"#).status == 201)
            #expect(try await server.send("PATCH", "/posts/1", body: #"{"title": "patched"}"#).status == 200)
            #expect(try await server.send("PUT", "/posts/3", body: #"{"title": "replaced"}"#).status == 200)
            #expect(try await server.send("DELETE", "/posts/2").status == 200)
            return try await server.get("/posts/1")
        }
        #expect(scratch.entries == [".db.json.tether", "db.json"])
        let saved = try parsedFile(file)
        #expect(saved["posts"].array?.count == 100)
        #expect(saved["comments"].array?.count == 10)
        // Written as json-server (lowdb) writes it: two-space indentation, no trailing newline.
        let text = try String(contentsOf: file, encoding: .utf8)
        #expect(text.hasPrefix("{\n  \"posts\": [\n    {\n      \"userId\": 1,\n      \"id\": 1,"))
        #expect(!text.hasSuffix("\n"))

        try await withFileServer(file, writes: .persistent) { server in
            let after = try await server.get("/posts/1")
            #expect(after.body == before.body)
            #expect(after.header("ETag") == before.header("ETag"))
            #expect(after.json?["title"].string == "patched")
            #expect(try await server.get("/posts/101").json == ["title": "kept", "id": 101])
            #expect(try await server.get("/posts/3").json == ["title": "replaced", "id": 3])
            #expect(try await server.get("/posts/2").status == 404)
            #expect(try await server.get("/comments?postId=2").text == "[]")
            // Ids go on from the saved maximum.
            #expect(try await server.send("POST", "/posts", body: "{}").json?["id"].int == 102)
        }
        #expect(try parsedFile(file)["posts"].array?.count == 101)
        #expect(scratch.entries == [".db.json.tether", "db.json"])
    }

    /// Set once the writers are done, read by the thread that watches the file.
    private final class Flag: @unchecked Sendable {
        private let lock = NSLock()
        private var value = false
        var isSet: Bool { lock.withLock { value } }
        func set() { lock.withLock { value = true } }
    }

    @Test func concurrentWritesOverManyConnectionsAreAllSavedAndTheFileIsAlwaysWhole() async throws {
        let scratch = try ScratchDirectory()
        let file = try scratch.file("db.json", try Self.smallDatabase())
        let database = try await onThread { try JSONDatabase(contentsOf: file, mode: .persistent(file)) }
        let connections = 8
        let writesPerConnection = 10
        let done = Flag()

        let (created, observed) = try await withJSONServer(database, .init()) { server in
            // Set however the writers end (a thrown error too): the reader's thread would otherwise poll forever,
            // and the implicit wait for it at the end of this scope would hang the test.
            defer { done.set() }
            // A reader polls the file while the writes happen: every version it sees must be whole JSON. It stops
            // after ten minutes in any case (a writer stuck past the test's time limit must not keep it going).
            let readerDeadline = ContinuousClock.now + .seconds(600)
            async let observed = onThread { () -> [Int] in
                var counts: [Int] = []
                while !done.isSet, ContinuousClock.now < readerDeadline {
                    guard let data = try? Data(contentsOf: file) else {
                        counts.append(-1)
                        continue
                    }
                    counts.append((try? JSON(parsing: Array(data)))?["posts"].array?.count ?? -1)
                    // Leaves the writers most of the machine (it has two cores in CI, and TSan slows parsing).
                    usleep(3000)
                }
                return counts
            }
            let port = server.port
            let created = try await withThrowingTaskGroup(of: [Int].self) { group in
                for connection in 0..<connections {
                    group.addTask {
                        try await onThread {
                            let client = try RawHTTPClient(port: port)
                            return try (0..<writesPerConnection).map { index in
                                let reply = try client.exchange(
                                    server.requestText(
                                        "POST", "/posts", body: #"{"title": "c\#(connection)-\#(index)"}"#))
                                return reply.status == 201 ? reply.json?["id"].int ?? -1 : -reply.status
                            }
                        }
                    }
                }
                return try await group.reduce(into: [Int]()) { $0 += $1 }
            }
            done.set()
            return (created, try await observed)
        }
        // The writes are in the journal; the clean stop folds them into the file.
        try await database.close()

        let total = connections * writesPerConnection
        #expect(created.sorted() == Array(101...(100 + total)))
        let saved = try #require(try parsedFile(file)["posts"].array)
        #expect(saved.count == 100 + total)
        #expect(
            Set(saved.compactMap { $0["title"].string }.filter { $0.hasPrefix("c") && $0.contains("-") }).count == total
        )
        #expect(scratch.entries == [".db.json.tether", "db.json"])
        #expect(!observed.isEmpty)
        #expect(
            observed.allSatisfy { (100...(100 + total)).contains($0) }, "a read saw \(observed.filter { $0 < 100 })")
        #expect(observed == observed.sorted())
    }

    @Test(arguments: [TetherServerApp.Options.Writes.inMemory, .readOnly])
    func inMemoryAndReadOnlyNeverWriteTheFile(writes: TetherServerApp.Options.Writes) async throws {
        let scratch = try ScratchDirectory()
        let bytes = try Self.smallDatabase()
        let file = try scratch.file("db.json", bytes)
        try await withFileServer(file, writes: writes) { server in
            let created = try await server.send("POST", "/posts", body: #"{"title": "t"}"#)
            let deleted = try await server.send("DELETE", "/posts/1")
            if writes == .readOnly {
                #expect(created.status == 403 && deleted.status == 403)
                #expect(created.json?["error"].string == "Forbidden")
                #expect(try await server.get("/posts").json?.array?.count == 100)
            } else {
                #expect(created.status == 201 && deleted.status == 200)
                #expect(try await server.get("/posts").json?.array?.count == 100)
                #expect(try await server.get("/posts/101").json?["title"].string == "t")
                #expect(try await server.get("/posts/1").status == 404)
            }
        }
        #expect(Array(try Data(contentsOf: file)) == bytes)
        #expect(scratch.entries == ["db.json"])
    }

    @Test func aFileThatCannotBeReplacedIs500WithAJSONErrorAndChangesNothing() async throws {
        let scratch = try ScratchDirectory()
        let file = try scratch.file("db.json", try Self.smallDatabase())
        let unwritable = scratch.url.appendingPathComponent("missing/dir/db.json")
        let database = try JSONDatabase(contentsOf: file, mode: .persistent(unwritable))
        try await withJSONServer(database, .init()) { server in
            let reply = try await server.send("POST", "/posts", body: #"{"title": "lost"}"#)
            #expect(reply.status == 500)
            #expect(reply.json?["error"].string == "Internal Server Error")
            #expect(reply.json?["message"].string?.contains("not saved") == true)
            #expect(try await server.get("/posts").json?.array?.count == 100)
            #expect(try await server.get("/posts/101").status == 404)
        }
        #expect(scratch.entries == ["db.json"])
    }
}
