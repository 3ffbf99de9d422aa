import Foundation
import Testing
import TetherJSON
import TetherSync

@testable import TetherStore

/// A large page is encoded in parts on other threads while its transaction writes the parts made already: what
/// lands on disk is the page, in order.
@MainActor
@Suite struct LargePageSaveTests {
    struct Reading: RemoteEntity {
        static let collectionPath = "/readings"
        var id: Int
        var label: String
        var value: Double
    }

    @Test func aLargePageIsSavedWholeInOrderWithoutWhatCannotBeEncoded() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("tether-page-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = folder.appendingPathComponent("page.sqlite")
        // The last part is a short one.
        let count = EntityStore.entitiesPerEncodingPart * 8 + 37
        var page = (0..<count).map { Reading(id: $0, label: "reading \($0)", value: Double($0) / 4) }
        // Not JSON: left out, the others kept.
        page[3].value = .nan
        page[count - 2].value = .infinity
        // One id twice, in different parts: the later one wins, as it would in one pass.
        page[count - 1] = Reading(id: 10, label: "later", value: 1)
        let offline = try #require(URL(string: "http://127.0.0.1:9"))
        do {
            let store = EntityStore(client: HTTPClient(baseURL: offline), database: try StoreDatabase(url: url))
            store.insert(page)
            await store.flush()
        }
        let database = try StoreDatabase(url: url)
        let decoder = TetherJSONDecoder()
        func stored(_ id: Int) async throws -> Reading? {
            try await database.localValue(Reading.self, id: "\(id)").map { try decoder.decode(Reading.self, from: $0) }
        }
        #expect(try await stored(3) == nil)
        #expect(try await stored(count - 2) == nil)
        #expect(try await stored(10)?.label == "later")
        for id in [0, 1, 255, 256, 257, 511, 512, 1000, count - 40, count - 3] {
            #expect(try await stored(id) == page[id])
        }
        let rows = try await database.queue.asyncRead { database in
            try database.scalarInt(
                "SELECT COUNT(*) FROM entity WHERE type = ?", [.text(EntityStore.typeName(Reading.self))])
        }
        #expect(rows == Int64(count - 3))
    }

    /// The parts come out in order, each made exactly once, however many workers make them and however the writer
    /// and the workers interleave.
    @Test(arguments: [1, 2, 5, 80])
    func partsAreHandedOverInOrderAndMadeOnce(workers: Int) {
        let made = Locked([Int](repeating: 0, count: 40))
        let parts = EncodedParts(count: 40)
        parts.start(workers: workers) { index in
            made.withLock { $0[index] += 1 }
            // Some parts take longer, so that later ones are made first.
            if index % 7 == 0 { usleep(2_000) }
            return [EntityRow(id: "\(index)", value: Data("\(index)".utf8), etag: nil)]
        }
        let taken = (0..<parts.count).flatMap { parts.take($0) }.map(\.id)
        #expect(taken == (0..<40).map { "\($0)" })
        #expect(made.withLock { $0 } == [Int](repeating: 1, count: 40))
    }
}
