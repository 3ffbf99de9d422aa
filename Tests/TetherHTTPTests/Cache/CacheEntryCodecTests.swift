import Foundation
import Testing
import TetherSync

@testable import TetherHTTP

@Suite struct CacheEntryCodecTests {
    let record = CacheEntryCodec.Record(
        key: "GET http://127.0.0.1:8080/items?q=%E6%97%A5",
        response: cachedResponse(
            ["Cache-Control": "max-age=60", "ETag": #""é""#, "Set-Cookie": "a=1", "set-cookie": "b=2"],
            body: "本文 body", url: URL(string: "http://127.0.0.1:8080/items?q=%E6%97%A5")!,
            requestTime: cacheTime(-0.25),
            responseTime: cacheTime(0.5)),
        varyFields: [.init(name: "accept-language", value: "ja"), .init(name: "authorization", value: nil)])

    @Test func roundTripsEveryField() throws {
        let bytes = CacheEntryCodec.encode(record)
        #expect(Array(bytes.prefix(4)) == Array("TTHC".utf8))
        #expect(bytes[4] == 1 && bytes[5] == 0)
        #expect(CacheEntryCodec.decode(bytes) == record)
    }

    @Test func roundTripsAnEmptyBody() {
        var empty = record
        empty.response.body = Data()
        empty.varyFields = []
        #expect(CacheEntryCodec.decode(CacheEntryCodec.encode(empty)) == empty)
    }

    @Test func everyTruncationIsRejected() {
        let bytes = CacheEntryCodec.encode(record)
        for length in 0..<bytes.count {
            #expect(CacheEntryCodec.decode(Array(bytes.prefix(length))) == nil, "length \(length)")
        }
    }

    @Test func everySingleByteChangeIsRejected() {
        let bytes = CacheEntryCodec.encode(record)
        for index in bytes.indices {
            var altered = bytes
            altered[index] ^= 0x41
            #expect(CacheEntryCodec.decode(altered) == nil, "byte \(index)")
        }
    }

    @Test func trailingBytesAndOtherVersionsAreRejected() {
        #expect(CacheEntryCodec.decode(CacheEntryCodec.encode(record) + [0]) == nil)
        var future = CacheEntryCodec.encode(record)
        future[4] = 2
        let payload = future.dropLast(8)
        future = Array(payload) + withUnsafeBytes(of: CacheKey.fnv1a64(payload).littleEndian, Array.init)
        #expect(CacheEntryCodec.decode(future) == nil)
    }

    @Test func randomBytesNeverCrashTheDecoder() {
        var generator = SplitMix64(seed: 0x7448_4331)
        let valid = CacheEntryCodec.encode(record)
        for _ in 0..<2_000 {
            // Random bytes behind a valid header, so decoding gets past the magic and version.
            let tail = (0..<Int.random(in: 0...200, using: &generator)).map { _ in
                UInt8.random(in: 0...255, using: &generator)
            }
            #expect(CacheEntryCodec.decode(Array(valid.prefix(8)) + tail) == nil)
        }
    }

    @Test func garbageIsRejected() {
        #expect(CacheEntryCodec.decode([]) == nil)
        #expect(CacheEntryCodec.decode(Array("not a cache entry at all, just text".utf8)) == nil)
        #expect(CacheEntryCodec.decode([UInt8](repeating: 0xFF, count: 4096)) == nil)
    }

    @Test func fileNamesAreStableHexHashes() {
        let name = CacheKey.fileName(for: "GET http://127.0.0.1:8080/posts/1")
        #expect(name.utf8.count == 16 + ".entry".utf8.count)
        #expect(name.hasSuffix(".entry"))
        #expect(name == CacheKey.fileName(for: "GET http://127.0.0.1:8080/posts/1"))
        #expect(name != CacheKey.fileName(for: "GET http://127.0.0.1:8080/posts/2"))
        // FNV-1a's published test vector.
        #expect(CacheKey.fnv1a64("a".utf8) == 0xaf63_dc4c_8601_ec8c)
    }
}
