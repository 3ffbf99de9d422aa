import Foundation
import Testing
import TetherHTTP
import TetherHTTPTesting
import TetherStore
import TetherStoreTestSupport
import TetherSync

/// A read that was sent before a save ended can carry the version from before the save; when it arrives after
/// the save's answer, it must not replace the saved version (the server's order of events is unknown to it).
@MainActor
@Suite struct StaleReadTests {
    private nonisolated static let old = #"{"id": 4, "title": "old", "body": "b"}"#
    private nonisolated static let saved = #"{"id": 4, "title": "saved", "body": "b"}"#
    private nonisolated static let later = #"{"id": 4, "title": "changed later", "body": "b"}"#

    /// A server whose GETs answer `old` (the second one slowly) until told otherwise, and whose PATCH answers `saved`.
    private final class Script: Sendable {
        let gets = Locked(0)
        let getBody = Locked(StaleReadTests.old)

        var transport: StubTransport {
            StubTransport { request in
                if request.method == .patch { return .json(StaleReadTests.saved) }
                let number = self.gets.withLock { count -> Int in
                    count += 1
                    return count
                }
                let body = self.getBody.withLock { $0 }
                let isList = request.url.path == "/notes"
                let response = StubResponse.json(isList ? "[\(body)]" : body)
                // The second read is the slow one, sent before the save and answered after it.
                return number == 2 ? response.delayed(by: .milliseconds(300)) : response
            }
        }
    }

    @Test(arguments: [false, true])
    func aSlowReadDoesNotUndoASave(throughTheList: Bool) async throws {
        let script = Script()
        let client = HTTPClient(baseURL: URL(string: "http://notes.test")) {
            $0.transport = script.transport
            $0.retryPolicy = .never
            $0.coalescesRequests = false
        }
        let store = EntityStore(client: client)
        let list = store.query(Query<Note>.list("/notes"))
        let detail = store.entity(Note.self, id: 4)
        if throughTheList { await list.load() } else { await detail.load() }
        #expect(detail.value?.title == "old")

        let read = Task { @MainActor in
            if throughTheList { await list.refresh() } else { await detail.load() }
        }
        try await Task.sleep(for: .milliseconds(50))
        var edited = try #require(detail.value)
        edited.title = "saved"
        _ = try await store.update(edited)
        await read.value
        #expect(detail.value?.title == "saved")
        #expect(detail.status == .synced)
        if throughTheList { #expect(list.items.map(\.title) == ["saved"]) }

        // A read sent after the save ended is taken as usual.
        script.getBody.withLock { $0 = StaleReadTests.later }
        if throughTheList { await list.refresh() } else { await detail.load() }
        #expect(detail.value?.title == "changed later")
    }

    /// A store that starts with a write waiting in its database sends it from its background loop; a list read
    /// sent while that write is on its way, answered after its confirmation with the version from before it (the
    /// server took the read first), must not undo it.
    @Test func aReadSentWhileAWaitingWriteGoesOutDoesNotUndoIt() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("tether-stale-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = folder.appendingPathComponent("store.sqlite")
        var configuration = EntityStore.Configuration()
        configuration.updateMethod = .patch
        configuration.outboxRetries = .once
        // 1. Offline: the edit stays in the outbox.
        do {
            let offline = StubTransport { request in
                if request.method == .patch { return StubResponse(error: URLError(.notConnectedToInternet)) }
                return .json("[\(StaleReadTests.old)]")
            }
            let client = HTTPClient(baseURL: URL(string: "http://notes.test")) {
                $0.transport = offline
                $0.retryPolicy = .never
            }
            let store = EntityStore(client: client, database: try StoreDatabase(url: url), configuration: configuration)
            let list = store.query(Query<Note>.list("/notes"))
            await list.load()
            var edited = try #require(store.entity(Note.self, id: 4).value)
            edited.title = "saved"
            await #expect(throws: StoreError.self) { try await store.update(edited) }
            await store.flush()
        }
        // 2. Online again: the loop sends the edit while a list read is on its way. The order is made, not left to
        // timing: the edit is answered only once the second list read has been sent, and that read is answered
        // only after the edit's answer (and a little time for the store to apply it).
        let gets = Locked(0)
        let patchAnswered = Locked(false)
        let online = StubTransport { request in
            if request.method == .patch {
                while gets.withLock({ $0 }) < 2 { try await Task.sleep(for: .milliseconds(5)) }
                patchAnswered.withLock { $0 = true }
                return StubResponse.json(StaleReadTests.saved)
            }
            let number = gets.withLock { count -> Int in
                count += 1
                return count
            }
            let response = StubResponse.json("[\(StaleReadTests.old)]")
            guard number == 2 else { return response }
            while !patchAnswered.withLock({ $0 }) { try await Task.sleep(for: .milliseconds(5)) }
            return response.delayed(by: .milliseconds(200))
        }
        let client = HTTPClient(baseURL: URL(string: "http://notes.test")) {
            $0.transport = online
            $0.retryPolicy = .never
            $0.coalescesRequests = false
        }
        let store = EntityStore(client: client, database: try StoreDatabase(url: url), configuration: configuration)
        let list = store.query(Query<Note>.list("/notes"))
        await list.load()
        let detail = store.entity(Note.self, id: 4)
        try await Task.sleep(for: .milliseconds(100))
        #expect(detail.value?.title == "saved")
        await list.refresh()
        #expect(gets.withLock { $0 } == 2)
        #expect(online.requests.filter { $0.method == .patch }.count == 1)
        #expect(detail.writeStatus == nil)
        #expect(detail.value?.title == "saved")
        #expect(list.items.map(\.title) == ["saved"])
    }
}
