import Foundation
import Testing

@testable import TetherHTTP

@Suite struct DiskCacheTierTests {
    func diskCache(_ directory: TemporaryCacheDirectory, sizeLimit: Int = 1 << 20, memory: Bool = false) -> HTTPCache {
        HTTPCache(
            configuration: .init(
                memoryCostLimit: memory ? 1 << 20 : 0, directory: directory.url, diskSizeLimit: sizeLimit))
    }

    func url(_ path: String) -> URL { URL(string: "http://127.0.0.1:8080/\(path)")! }

    func response(_ path: String = "posts/1", bodySize: Int = 100) -> CachedResponse {
        cachedResponse(
            ["Cache-Control": "max-age=60", "ETag": #""d""#], body: String(repeating: "d", count: bodySize),
            url: url(path))
    }

    func entryFile(_ directory: TemporaryCacheDirectory, _ path: String = "posts/1") -> URL {
        directory.url.appendingPathComponent(CacheKey.fileName(for: CacheKey.key(for: url(path))))
    }

    func permissions(_ path: String) throws -> Int {
        let attributes = try FileManager.default.attributesOfItem(atPath: path)
        return try #require(attributes[.posixPermissions] as? Int) & 0o777
    }

    @Test func storesOneFileWithMode0600InADirectoryCreatedWith0700() throws {
        try withTemporaryCacheDirectory { parent in
            let directory = parent.url.appendingPathComponent("nested/http")
            let cache = HTTPCache(configuration: .init(memoryCostLimit: 0, directory: directory))
            #expect(cache.hasDiskTier)
            #expect(cache.diskError == nil)
            let directoryMode = try permissions(directory.path)
            #expect(directoryMode == 0o700)
            #expect(cache.store(response(), method: .get, requestHeaders: [:]))

            let names = parent.fileNames(in: directory)
            #expect(names == [CacheKey.fileName(for: CacheKey.key(for: url("posts/1")))])
            let fileMode = try permissions(directory.appendingPathComponent(try #require(names.first)).path)
            #expect(fileMode == 0o600)
            #expect(cache.diskSize > 100)
            #expect(cache.get(url: url("posts/1"), at: cacheTime(1)).freshResponse == response().aged(1))
        }
    }

    @Test func atomicWritesLeaveNoTemporaryFiles() throws {
        try withTemporaryCacheDirectory { directory in
            let cache = diskCache(directory)
            for i in 0..<20 {
                #expect(cache.store(response("p/\(i % 5)", bodySize: 50 + i), method: .get, requestHeaders: [:]))
            }
            let names = directory.fileNames()
            #expect(names.count == 5)
            #expect(names.allSatisfy { $0.hasSuffix(".entry") && !$0.hasPrefix(".") })
        }
    }

    @Test func entriesSurviveANewCacheOnTheSameDirectory() throws {
        try withTemporaryCacheDirectory { directory in
            let first = diskCache(directory, memory: true)
            #expect(first.store(response(), method: .get, requestHeaders: [:]))
            let size = first.diskSize

            let second = diskCache(directory, memory: true)
            #expect(second.diskSize == size)
            #expect(second.memoryCost == 0)
            #expect(second.get(url: url("posts/1"), at: cacheTime(1)).freshResponse == response().aged(1))
            // The disk hit was copied into memory.
            #expect(second.memoryCost > 0)
        }
    }

    @Test func varyValuesSurviveARestart() throws {
        try withTemporaryCacheDirectory { directory in
            var varying = response()
            varying.headers.add("Vary", "Accept-Language")
            #expect(diskCache(directory).store(varying, method: .get, requestHeaders: ["Accept-Language": "ja"]))
            let reopened = diskCache(directory)
            #expect(reopened.get(["Accept-Language": "en"], url: url("posts/1"), at: cacheTime(1)).isMiss)
            #expect(reopened.get(["Accept-Language": "ja"], url: url("posts/1"), at: cacheTime(1)).freshResponse != nil)
        }
    }

    @Test func leftoverTemporaryFilesAreDeletedOnOpening() throws {
        try withTemporaryCacheDirectory { directory in
            let leftover = directory.url.appendingPathComponent(".tmp-crashed")
            try Data("half an entry".utf8).write(to: leftover)
            let unrelated = directory.url.appendingPathComponent("README.txt")
            try Data("not ours".utf8).write(to: unrelated)
            let cache = diskCache(directory)
            #expect(directory.fileNames() == ["README.txt"])
            #expect(cache.diskSize == 0)
        }
    }

    enum Damage: String, CaseIterable, CustomTestStringConvertible {
        case truncated, corrupted, empty, garbage, foreignKey
        var testDescription: String { rawValue }
    }

    @Test(arguments: Damage.allCases)
    func aDamagedEntryIsAMissAndIsDeleted(damage: Damage) throws {
        try withTemporaryCacheDirectory { directory in
            #expect(diskCache(directory).store(response(), method: .get, requestHeaders: [:]))
            let file = entryFile(directory)
            var bytes = try [UInt8](Data(contentsOf: file))
            switch damage {
            case .truncated: bytes.removeLast(bytes.count / 3)
            case .corrupted: bytes[bytes.count / 2] ^= 0xFF
            case .empty: bytes = []
            case .garbage: bytes = Array("<html>proxy error</html>".utf8)
            case .foreignKey:
                // A well-formed entry for another URL, in this URL's file.
                let other = CacheEntryCodec.Record(
                    key: CacheKey.key(for: url("posts/2")), response: response("posts/2"), varyFields: [])
                bytes = CacheEntryCodec.encode(other)
            }
            try Data(bytes).write(to: file)

            let cache = diskCache(directory)
            #expect(cache.get(url: url("posts/1"), at: cacheTime(1)).isMiss)
            #expect(!FileManager.default.fileExists(atPath: file.path))
            #expect(cache.diskSize == 0)
            // And the slot works again.
            #expect(cache.store(response(), method: .get, requestHeaders: [:]))
            #expect(cache.get(url: url("posts/1"), at: cacheTime(1)).freshResponse != nil)
        }
    }

    @Test func anEntryDeletedBehindTheCachesBackIsAMiss() throws {
        try withTemporaryCacheDirectory { directory in
            let cache = diskCache(directory)
            #expect(cache.store(response(), method: .get, requestHeaders: [:]))
            try FileManager.default.removeItem(at: entryFile(directory))
            #expect(cache.get(url: url("posts/1"), at: cacheTime(1)).isMiss)
            #expect(cache.diskSize == 0)
        }
    }

    @Test func theSizeLimitEvictsTheLeastRecentlyUsed() throws {
        try withTemporaryCacheDirectory { directory in
            let probe = CacheEntryCodec.encode(
                .init(key: CacheKey.key(for: url("p/0")), response: response("p/0", bodySize: 1000), varyFields: []))
            let cache = diskCache(directory, sizeLimit: probe.count * 3)
            for i in 0..<3 {
                #expect(cache.store(response("p/\(i)", bodySize: 1000), method: .get, requestHeaders: [:]))
            }
            #expect(cache.get(url: url("p/0"), at: cacheTime(1)).freshResponse != nil)  // p/1 is now the oldest
            #expect(cache.store(response("p/3", bodySize: 1000), method: .get, requestHeaders: [:]))

            #expect(cache.diskSize <= probe.count * 3)
            #expect(directory.fileNames().count == 3)
            #expect(cache.get(url: url("p/1"), at: cacheTime(1)).isMiss)
            for i in [0, 2, 3] { #expect(cache.get(url: url("p/\(i)"), at: cacheTime(1)).freshResponse != nil) }
        }
    }

    @Test func openingOverTheLimitEvictsTheOldestFiles() throws {
        try withTemporaryCacheDirectory { directory in
            let big = diskCache(directory)
            for i in 0..<4 {
                #expect(big.store(response("p/\(i)", bodySize: 1000), method: .get, requestHeaders: [:]))
                // Distinct modification times, oldest first, without sleeping.
                try FileManager.default.setAttributes(
                    [.modificationDate: cacheTime(Double(i))], ofItemAtPath: entryFile(directory, "p/\(i)").path)
            }
            let fileSize = big.diskSize / 4
            let small = diskCache(directory, sizeLimit: fileSize * 2)
            #expect(small.diskSize == fileSize * 2)
            #expect(small.get(url: url("p/0"), at: cacheTime(1)).isMiss)
            #expect(small.get(url: url("p/1"), at: cacheTime(1)).isMiss)
            #expect(small.get(url: url("p/3"), at: cacheTime(1)).freshResponse != nil)
        }
    }

    @Test func anEntryLargerThanTheWholeLimitIsNotWritten() throws {
        try withTemporaryCacheDirectory { directory in
            let cache = diskCache(directory, sizeLimit: 500)
            #expect(!cache.store(response(bodySize: 1000), method: .get, requestHeaders: [:]))
            #expect(directory.fileNames().isEmpty)
        }
    }

    @Test func removeAllAndRemoveResponsesDeleteFiles() throws {
        try withTemporaryCacheDirectory { directory in
            let cache = diskCache(directory, memory: true)
            for i in 0..<3 { #expect(cache.store(response("p/\(i)"), method: .get, requestHeaders: [:])) }
            cache.removeResponses(for: url("p/0"))
            #expect(directory.fileNames().count == 2)
            cache.invalidate(afterResponseTo: .delete, url: url("p/1"), status: 204, headers: [:])
            #expect(directory.fileNames().count == 1)
            cache.removeAll()
            #expect(directory.fileNames().isEmpty)
            #expect(cache.diskSize == 0)
            #expect(cache.memoryCost == 0)
            #expect(diskCache(directory).get(url: url("p/2"), at: cacheTime(1)).isMiss)
        }
    }

    @Test func aDirectoryThatCannotBeUsedDisablesTheDiskTier() throws {
        try withTemporaryCacheDirectory { directory in
            let file = directory.url.appendingPathComponent("a-file")
            try Data("x".utf8).write(to: file)
            let cache = HTTPCache(configuration: .init(directory: file.appendingPathComponent("cache")))
            #expect(!cache.hasDiskTier)
            let reason = try #require(cache.diskError)
            #expect(reason.contains("a-file"))
            // The memory tier still works.
            #expect(cache.store(response(), method: .get, requestHeaders: [:]))
            #expect(cache.get(url: url("posts/1"), at: cacheTime(1)).freshResponse != nil)
            #expect(cache.diskSize == 0)

            let onAFile = HTTPCache(configuration: .init(directory: file))
            #expect(!onAFile.hasDiskTier)
            #expect(onAFile.diskError != nil)
        }
    }

    @Test func aFailedWriteIsReportedNotFatal() throws {
        try withTemporaryCacheDirectory { directory in
            let cache = diskCache(directory)
            #expect(cache.store(response("p/0"), method: .get, requestHeaders: [:]))
            try FileManager.default.removeItem(at: directory.url)

            #expect(!cache.store(response("p/1"), method: .get, requestHeaders: [:]))
            let reason = try #require(cache.diskError)
            #expect(reason.contains("open"))
            #expect(cache.get(url: url("p/0"), at: cacheTime(1)).isMiss)
            #expect(cache.get(url: url("p/1"), at: cacheTime(1)).isMiss)
            #expect(cache.diskSize == 0)

            // Once the directory is back, writes work again and the error is cleared.
            try FileManager.default.createDirectory(at: directory.url, withIntermediateDirectories: true)
            #expect(cache.store(response("p/2"), method: .get, requestHeaders: [:]))
            #expect(cache.diskError == nil)
        }
    }

    @Test func concurrentStoresAndLookupsFromManyTasksStayConsistent() async throws {
        let directory = try TemporaryCacheDirectory()
        defer { directory.remove() }
        let cache = diskCache(directory, memory: true)
        await withTaskGroup(of: Void.self) { group in
            for task in 0..<4 {
                group.addTask {
                    for i in 0..<10 {
                        let path = "p/\((task + i) % 6)"
                        _ = cache.store(response(path, bodySize: 100 + task), method: .get, requestHeaders: [:])
                        cache.removeResponses(for: url("p/\(i % 6)"))
                        _ = cache.get(url: url(path), at: cacheTime(1))
                    }
                }
            }
        }
        // Whatever the interleaving, the index and the directory agree, and every file left decodes.
        let names = directory.fileNames()
        #expect(names.allSatisfy { !$0.hasPrefix(".") })
        let reopened = diskCache(directory)
        #expect(reopened.diskSize == cache.diskSize)
        for i in 0..<6 {
            let lookup = reopened.get(url: url("p/\(i)"), at: cacheTime(1))
            #expect(lookup.isMiss || lookup.freshResponse != nil)
        }
        #expect(directory.fileNames() == names)
    }

    @Test func refreshRewritesTheDiskEntry() throws {
        try withTemporaryCacheDirectory { directory in
            let cache = diskCache(directory)
            #expect(cache.store(response(), method: .get, requestHeaders: [:]))
            let stale = try #require(cache.get(url: url("posts/1"), at: cacheTime(100)).staleResponse)
            _ = cache.refresh(
                stale, with: ["ETag": #""d2""#, "Date": HTTPDateParser.format(cacheTime(100))], method: .get,
                requestHeaders: [:], requestTime: cacheTime(100), responseTime: cacheTime(100))
            let reopened = diskCache(directory)
            let fresh = try #require(reopened.get(url: url("posts/1"), at: cacheTime(130)).freshResponse)
            #expect(fresh.headers["ETag"] == #""d2""#)
            #expect(fresh.body == response().body)
        }
    }
}
