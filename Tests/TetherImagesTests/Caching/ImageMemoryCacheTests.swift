import Foundation
import Testing

@testable import TetherImages

/// The decoded-image cache: keys by URL and size, least recently used first out past the cost limit.
@Suite struct ImageMemoryCacheTests {
    private let url = URL(string: "http://127.0.0.1/images/1")!

    private func image(side: Int) -> RGBAImage {
        RGBAImage(width: side, height: side, pixels: [UInt8](repeating: 7, count: side * side * 4))
    }

    private func key(_ side: Int, _ path: String = "1") -> ImageMemoryCache.Key {
        ImageMemoryCache.Key(
            url: URL(string: "http://127.0.0.1/images/\(path)")!, size: ImageSize(width: side, height: side))
    }

    @Test func sizesOfOneURLAreSeparateEntries() {
        let cache = ImageMemoryCache(costLimit: 1 << 20)
        cache.store(image(side: 8), for: key(8))
        cache.store(image(side: 4), for: key(4))
        #expect(cache.image(for: key(8))?.width == 8)
        #expect(cache.image(for: key(4))?.width == 4)
        #expect(cache.image(for: key(16)) == nil)
        #expect(cache.totalCost == 8 * 8 * 4 + 4 * 4 * 4)
    }

    @Test func theLeastRecentlyUsedGoesFirst() {
        let cache = ImageMemoryCache(costLimit: 3 * 256)  // three 8×8 images
        for path in ["a", "b", "c"] { cache.store(image(side: 8), for: key(8, path)) }
        _ = cache.image(for: key(8, "a"))  // a is now the most recent; b the least
        cache.store(image(side: 8), for: key(8, "d"))
        #expect(cache.image(for: key(8, "b")) == nil)
        #expect(cache.image(for: key(8, "a")) != nil && cache.image(for: key(8, "c")) != nil)
        #expect(cache.count == 3 && cache.totalCost == 3 * 256)
        // Replacing an entry keeps the cost exact.
        cache.store(image(side: 4), for: key(8, "a"))
        #expect(cache.totalCost == 2 * 256 + 64)
    }

    @Test func anImageOverTheLimitIsNotKeptAndZeroTurnsTheCacheOff() {
        let cache = ImageMemoryCache(costLimit: 100)
        cache.store(image(side: 8), for: key(8))
        #expect(cache.count == 0)
        let off = ImageMemoryCache(costLimit: 0)
        off.store(image(side: 1), for: key(1))
        #expect(off.image(for: key(1)) == nil)
        cache.store(image(side: 2), for: key(2))
        cache.removeAll()
        #expect(cache.count == 0 && cache.totalCost == 0)
    }
}
