import Foundation
import Testing
import TetherHTTPTesting

@testable import TetherHTTP

/// The disk tier's background writer: what the client stores reaches the disk off the request path, reads see it
/// at once, and a failed write stays out of the request.
@Suite struct DiskCacheWriterTests {
    static let body = #"{"id": 1, "title": "a"}"#

    /// A stub answering every GET with a cacheable note.
    func cacheableStub() -> StubTransport {
        StubTransport { _ in .json(Self.body, headers: ["Cache-Control": "max-age=600"]) }
    }

    /// A cache with only a disk tier, on `directory`.
    func diskOnly(_ directory: TemporaryCacheDirectory) -> HTTPCache {
        HTTPCache(configuration: .init(memoryCostLimit: 0, directory: directory.url))
    }

    func entryFile(_ directory: TemporaryCacheDirectory, _ path: String) -> String {
        let url = URL(string: stubBase.absoluteString + path)!
        return directory.url.appendingPathComponent(CacheKey.fileName(for: CacheKey.key(for: url))).path
    }

    @Test func aReadRightAfterAStoreIsServedWhileTheWriteIsQueued() async throws {
        let directory = try TemporaryCacheDirectory()
        defer { directory.remove() }
        let cache = diskOnly(directory)
        let writer = try #require(cache.diskWriter)
        let stub = cacheableStub()
        let client = makeClient(stub) { $0.cache = cache }

        // Given a writer that cannot run yet,
        writer.queue.suspend()
        let first = try await client.send(Request<Note>(path: "/notes/1"))
        #expect(first.source == .network)
        // the entry is not on disk, yet the next GET is served from the queued write.
        #expect(!FileManager.default.fileExists(atPath: entryFile(directory, "/notes/1")))
        #expect(writer.pendingRecord(for: CacheKey.key(for: first.url)) != nil)
        let second = try await client.send(Request<Note>(path: "/notes/1"))
        #expect(second.source == .cache)
        #expect(second.value == Note(id: 1, title: "a"))
        #expect(stub.requests.count == 1)

        // Once the writer runs, the file lands and the queue is empty.
        writer.queue.resume()
        cache.flush()
        #expect(FileManager.default.fileExists(atPath: entryFile(directory, "/notes/1")))
        #expect(writer.pendingRecord(for: CacheKey.key(for: first.url)) == nil)
        #expect(cache.diskSize > 0)
    }

    @Test func entriesStoredByTheClientSurviveARestartAfterFlush() async throws {
        let directory = try TemporaryCacheDirectory()
        defer { directory.remove() }
        let cache = diskOnly(directory)
        _ = try await makeClient(cacheableStub()) { $0.cache = cache }.send(Request<Note>(path: "/notes/1"))
        cache.flush()

        let stub = cacheableStub()
        let restarted = makeClient(stub) { $0.cache = diskOnly(directory) }
        let response = try await restarted.send(Request<Note>(path: "/notes/1"))
        #expect(response.source == .cache)
        #expect(response.value == Note(id: 1, title: "a"))
        #expect(stub.requests.isEmpty)
    }

    @Test func aFailingDiskWriteDoesNotReachTheRequest() async throws {
        let directory = try TemporaryCacheDirectory()
        defer { directory.remove() }
        let cache = diskOnly(directory)
        let stub = cacheableStub()
        let client = makeClient(stub) { $0.cache = cache }
        try FileManager.default.removeItem(at: directory.url)

        let response = try await client.send(Request<Note>(path: "/notes/1"))
        #expect(response.value == Note(id: 1, title: "a"))
        #expect(response.source == .network)
        cache.flush()
        let reason = try #require(cache.diskError)
        #expect(reason.contains("open"))
        // The failed entry is gone from the queue: the next GET goes to the network again.
        #expect(try await client.send(Request<Note>(path: "/notes/1")).source == .network)
        #expect(stub.requests.count == 2)
    }

    @Test func aRemovalSupersedesAQueuedWrite() throws {
        try withTemporaryCacheDirectory { directory in
            let cache = diskOnly(directory)
            let writer = try #require(cache.diskWriter)
            let url = URL(string: stubBase.absoluteString + "/notes/1")!
            let stored = cachedResponse(["Cache-Control": "max-age=600"], url: url)

            writer.queue.suspend()
            #expect(cache.store(stored, method: .get, requestHeaders: [:], writesInBackground: true))
            #expect(cache.get(url: url, at: cacheTime(1)).freshResponse != nil)
            cache.removeResponses(for: url)
            #expect(cache.get(url: url, at: cacheTime(1)).isMiss)
            writer.queue.resume()
            cache.flush()

            #expect(!FileManager.default.fileExists(atPath: entryFile(directory, "/notes/1")))
            #expect(diskOnly(directory).get(url: url, at: cacheTime(1)).isMiss)
        }
    }

    @Test func queuedWritesLandInOrderAndTheLastOneWins() throws {
        try withTemporaryCacheDirectory { directory in
            let cache = diskOnly(directory)
            let url = URL(string: stubBase.absoluteString + "/notes/1")!
            for version in 1...5 {
                let response = cachedResponse(["Cache-Control": "max-age=600"], body: "v\(version)", url: url)
                #expect(cache.store(response, method: .get, requestHeaders: [:], writesInBackground: true))
            }
            cache.flush()
            let reopened = diskOnly(directory)
            let fresh = try #require(reopened.get(url: url, at: cacheTime(1)).freshResponse)
            #expect(fresh.body == Data("v5".utf8))
            #expect(directory.fileNames().count == 1)
        }
    }
}
