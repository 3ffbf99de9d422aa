import Foundation
import Testing
import TetherServer
import TetherStore

// The README's client and store examples, as written there, against the built-in server.

private struct ReadmePost: Codable, Sendable {
    var userId: Int
    var id: Int
    var title: String
    var body: String
}

private struct ReadmeNote: RemoteEntity {
    static let collectionPath = "/notes"
    var id: Int
    var title: String
    var body: String
}

@MainActor
@Suite struct ReadmeExamplesTests {
    @Test func theClientExamplesWork() async throws {
        let app = try await TetherServerApp.start(.init(writes: .inMemory))
        defer { Task { await app.stop() } }
        let cacheFolder = FileManager.default.temporaryDirectory.appendingPathComponent("readme-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: cacheFolder) }

        // README: "The HTTP client"
        let client = HTTPClient(baseURL: app.baseURL) {
            $0.timeout = .seconds(5)
            $0.cache = HTTPCache(configuration: .init(directory: cacheFolder))
        }
        let posts = try await client.send(Request<[ReadmePost]>(path: "/posts", query: [("userId", "1")])).value
        #expect(posts.count == 10)

        var message = ""
        do {
            _ = try await client.send(Request<ReadmePost>(path: "/posts/9999"))
        } catch {
            switch error.kind {
            case .status(let failure) where failure.status.code == 404: message = "not found"
            case .cancelled: break
            default: message = error.message
            }
        }
        #expect(message == "not found")

        let results = await client.send(all: [1, 2, 3].map { Request<ReadmePost>(path: "/posts/\($0)") })
        #expect(try results.map { try $0.get().value.id } == [1, 2, 3])
    }

    @Test func theStoreExampleWorks() async throws {
        let app = try await TetherServerApp.start(.init(writes: .inMemory))
        defer { Task { await app.stop() } }
        let client = HTTPClient(baseURL: app.baseURL)

        // README: "The entity store"
        let store = EntityStore(client: client)
        let notes = store.query(Query<ReadmeNote>.list("/notes"))
        await notes.load()
        let note = store.entity(ReadmeNote.self, id: 3)
        var edited = try #require(note.value)
        edited.title = "Groceries"
        try await store.update(edited)  // the list shows it at once, then the server's version

        #expect(notes.items.first { $0.id == 3 }?.title == "Groceries")
        #expect(note.status == .synced)
    }
}
