import Foundation
import Testing
import TetherHTTP1
import TetherJSON

@testable import TetherServer

/// Persistence modes: a journal beside the file folded into it (atomic replacement) at a clean stop, in-memory,
/// read-only; concurrent writes.
@Suite("json-server persistence")
struct JSONServerPersistenceTests {
    /// A fresh directory holding a small `db.json`, removed at the end of the test.
    final class TemporaryDatabase {
        let directory: URL
        let file: URL

        init(
            _ contents: String =
                #"{"posts": [{"id": 1, "title": "first"}], "comments": [{"id": 1, "postId": 1}], "profile": {"name": "me"}}"#
        ) throws {
            directory = FileManager.default.temporaryDirectory.appendingPathComponent(
                "tether-jsonserver-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            file = directory.appendingPathComponent("db.json")
            try Data(contents.utf8).write(to: file)
        }

        deinit { try? FileManager.default.removeItem(at: directory) }

        var contents: [UInt8] { (try? Array(Data(contentsOf: file))) ?? [] }
        var json: JSON? { try? JSON(parsing: contents) }
        var entries: [String] { (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? [] }
    }

    @Test func writesReachTheFileAndSurviveAReopen() async throws {
        let temp = try TemporaryDatabase()
        let database = try JSONDatabase(contentsOf: temp.file, mode: .persistent(temp.file))
        let server = JSONServerResponder(database: database)
        #expect(try await server.send(.post, "/posts", body: #"{"title":"second"}"#).status == 201)
        #expect(try await server.send(.patch, "/profile", body: #"{"age":3}"#).status == 200)
        // The writes are in the journal beside the file until a fold (here the clean stop) puts them in it.
        #expect(temp.json?["posts"]?[1] == nil)
        try await database.close()
        #expect(temp.json?["posts"]?[1]?["title"]?.string == "second")
        #expect(temp.entries.sorted() == [".db.json.tether", "db.json"])
        // Pretty-printed with two spaces and no trailing newline, like lowdb's FileSync.
        let text = String(decoding: temp.contents, as: UTF8.self)
        #expect(text.hasPrefix("{\n  \"posts\": [\n    {\n      \"id\": 1,"))
        #expect(!text.hasSuffix("\n"))

        let reopenedDatabase = try JSONDatabase(contentsOf: temp.file, mode: .persistent(temp.file))
        let reopened = JSONServerResponder(database: reopenedDatabase)
        #expect(try await reopened.get("/posts/2").json?["title"]?.string == "second")
        #expect(try await reopened.get("/profile").json == ["name": "me", "age": 3])
        #expect(try await reopened.send(.delete, "/posts/1").status == 200)
        try await reopenedDatabase.close()
        let afterDelete = try #require(temp.json)
        #expect(afterDelete["comments"]?.array == [])
        #expect(afterDelete["posts"]?.array?.count == 1)
    }

    @Test func idempotencyKeysAreSavedWithTheirWriteAndSurviveAReopen() async throws {
        let temp = try TemporaryDatabase()
        let headers = [("Idempotency-Key", "k-restart")]
        do {
            let server = JSONServerResponder(
                database: try JSONDatabase(contentsOf: temp.file, mode: .persistent(temp.file)))
            let first = try await server.send(.post, "/posts", body: #"{"title":"once"}"#, headers: headers)
            #expect(first.status == 201)
        }
        // The key is in the server's files beside the database file, never in it.
        #expect(temp.json?[IdempotencyStore.legacyFileKey] == nil)
        #expect(temp.entries.sorted() == [".db.json.tether", "db.json"])
        let reopened = JSONServerResponder(
            database: try JSONDatabase(contentsOf: temp.file, mode: .persistent(temp.file)))
        let retry = try await reopened.send(.post, "/posts", body: #"{"title":"once"}"#, headers: headers)
        #expect(retry.status == 201)
        #expect(retry["Idempotent-Replayed"] == "true")
        #expect(retry.json?["id"]?.int == 2)
        #expect(try await reopened.get("/posts").json?.array?.count == 2)
        #expect(try await reopened.get("/\(IdempotencyStore.legacyFileKey)").status == 404)
        #expect(try await reopened.get("/db").json?[IdempotencyStore.legacyFileKey] == nil)
    }

    @Test func leftoverTemporaryFilesOfAKilledWriterAreRemovedAtStart() async throws {
        let temp = try TemporaryDatabase()
        // A partial write of a process that no longer exists (pid 2^22 + 1 is above Linux's default pid_max).
        let leftover = temp.directory.appendingPathComponent(".db.json.tmp-4194305-12345")
        try Data(repeating: 0x20, count: 1 << 20).write(to: leftover)
        let unrelated = temp.directory.appendingPathComponent("notes.txt")
        try Data("keep".utf8).write(to: unrelated)
        _ = try JSONDatabase(contentsOf: temp.file, mode: .persistent(temp.file))
        #expect(!FileManager.default.fileExists(atPath: leftover.path))
        #expect(FileManager.default.fileExists(atPath: unrelated.path))
    }

    @Test func failedWritesChangeNothing() async throws {
        let temp = try TemporaryDatabase()
        let before = temp.contents
        let server = JSONServerResponder(
            database: try JSONDatabase(contentsOf: temp.file, mode: .persistent(temp.file)))
        #expect(try await server.send(.post, "/posts", body: #"{"id":1}"#).status == 409)
        #expect(try await server.send(.post, "/posts", body: "{").status == 400)
        #expect(try await server.send(.put, "/posts/9", body: "{}").status == 404)
        #expect(temp.contents == before)
    }

    @Test func aFileThatCannotBeReplacedIs500AndKeepsTheOldState() async throws {
        let temp = try TemporaryDatabase()
        let missing = temp.directory.appendingPathComponent("no/such/dir/db.json")
        let server = JSONServerResponder(database: try JSONDatabase(contentsOf: temp.file, mode: .persistent(missing)))
        let reply = try await server.send(.post, "/posts", body: "{}")
        #expect(reply.status == 500)
        #expect(reply.json?["message"]?.string?.contains("not saved") == true)
        #expect(try await server.get("/posts").json?.array?.count == 1)
    }

    @Test func concurrentWritesAllLand() async throws {
        let temp = try TemporaryDatabase()
        let database = try JSONDatabase(contentsOf: temp.file, mode: .persistent(temp.file))
        let server = JSONServerResponder(database: database)
        let created = try await withThrowingTaskGroup(of: Int?.self) { group in
            for index in 0..<50 {
                group.addTask {
                    try await server.send(.post, "/posts", body: #"{"title":"t\#(index)"}"#).json?["id"]?.int
                }
            }
            return try await group.reduce(into: [Int]()) { if let id = $1 { $0.append(id) } }
        }
        #expect(created.sorted() == Array(2...51))
        try await database.close()
        let stored = try #require(temp.json?["posts"]?.array)
        #expect(stored.count == 51)
        #expect(Set(stored.compactMap { $0["title"]?.string }).count == 51)
        #expect(temp.entries.sorted() == [".db.json.tether", "db.json"])
    }

    @Test func inMemoryModeNeverWritesTheFile() async throws {
        let temp = try TemporaryDatabase()
        let before = temp.contents
        let server = JSONServerResponder(database: try JSONDatabase(contentsOf: temp.file, mode: .inMemory))
        #expect(try await server.send(.post, "/posts", body: "{}").status == 201)
        #expect(try await server.get("/posts").json?.array?.count == 2)
        #expect(temp.contents == before)
    }

    @Test func readOnlyModeRefusesWritesWith403() async throws {
        let temp = try TemporaryDatabase()
        let before = temp.contents
        let server = JSONServerResponder(database: try JSONDatabase(contentsOf: temp.file, mode: .readOnly))
        for (method, target) in [
            (HTTPMethod.post, "/posts"), (.put, "/posts/1"), (.patch, "/profile"), (.delete, "/posts/1"),
        ] {
            let reply = try await server.send(method, target, body: "{}")
            #expect(reply.status == 403, "\(method) \(target)")
            #expect(reply.json?["error"]?.string == "Forbidden")
        }
        #expect(try await server.get("/posts/1").status == 200)
        #expect(try await server.send(.options, "/posts").status == 204)
        #expect(temp.contents == before)
    }

    @Test func invalidDatabasesAreRefused() throws {
        #expect(throws: ServerError.self) { try JSONDatabase(["a", "b"]) }
        #expect(throws: ServerError.self) { try JSONDatabase(["name": "text"]) }
        #expect(throws: ServerError.self) { try JSONDatabase(["a/b": []]) }
        let temp = try TemporaryDatabase("{\n  \"posts\": [\n}")
        do {
            _ = try JSONDatabase(contentsOf: temp.file, mode: .inMemory)
            Issue.record("a malformed file was accepted")
        } catch {
            #expect(error.code == .invalidDatabase)
            #expect(error.message.contains("line 3"), "\(error.message)")
        }
        do {
            _ = try JSONDatabase(contentsOf: temp.directory.appendingPathComponent("absent.json"), mode: .inMemory)
            Issue.record("a missing file was accepted")
        } catch {
            #expect(error.code == .databaseIO)
        }
    }

    @Test func atomicWriterReplacesWholeFiles() throws {
        let temp = try TemporaryDatabase()
        let big = [UInt8](repeating: UInt8(ascii: "x"), count: 3_000_000)
        try AtomicFileWriter.write(big, to: temp.file)
        #expect(temp.contents == big)
        try AtomicFileWriter.write(Array("{}".utf8), to: temp.file)
        #expect(temp.contents == Array("{}".utf8))
        #expect(temp.entries == ["db.json"])
    }
}
