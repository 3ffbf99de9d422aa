import Foundation
import Testing
import TetherHTTP
import TetherHTTPTesting
import TetherStore
import TetherStoreTestSupport
import TetherSync

/// A store with a database goes away when its last user lets it go, and closes its database: its background
/// sender must not keep it (and the database's connection) alive while it waits for work.
@MainActor
@Suite struct StoreLifetimeTests {
    private final class Weak<Object: AnyObject>: @unchecked Sendable {
        weak var object: Object?
        init(_ object: Object) { self.object = object }
    }

    /// Waits (up to 5 s) until `reference` is gone; whether it went.
    private func released<Object>(_ reference: Weak<Object>) async -> Bool {
        for _ in 0..<500 {
            if reference.object == nil { return true }
            try? await Task.sleep(for: .milliseconds(10))
        }
        return reference.object == nil
    }

    @Test(arguments: [false, true])
    func aStoreAndItsDatabaseGoAwayWhenReleased(afterAWrite: Bool) async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "tether-lifetime-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let transport = StubTransport { request in
            request.method == .patch
                ? .json(#"{"id": 1, "title": "saved", "body": "b"}"#)
                : .json(#"[{"id": 1, "title": "old", "body": "b"}]"#)
        }
        let client = HTTPClient(baseURL: URL(string: "http://notes.test")) {
            $0.transport = transport
            $0.retryPolicy = .never
        }
        var configuration = EntityStore.Configuration()
        configuration.updateMethod = .patch
        let storeReference: Weak<EntityStore>
        let databaseReference: Weak<StoreDatabase>
        do {
            let database = try StoreDatabase(url: folder.appendingPathComponent("store.sqlite"))
            let store = EntityStore(client: client, database: database, configuration: configuration)
            storeReference = Weak(store)
            databaseReference = Weak(database)
            let list = store.query(Query<Note>.list("/notes"))
            await list.load()
            #expect(list.items.map(\.title) == ["old"])
            if afterAWrite {
                var note = try #require(list.items.first)
                note.title = "saved"
                _ = try await store.update(note)
                #expect(store.entity(Note.self, id: 1).value?.title == "saved")
            }
            // The background sender has had its turn and now waits for work.
            try await Task.sleep(for: .milliseconds(100))
            await store.flush()
        }
        #expect(await released(storeReference), "the store is kept alive after its last user let it go")
        #expect(await released(databaseReference), "the database stays open after its store went away")
    }
}
