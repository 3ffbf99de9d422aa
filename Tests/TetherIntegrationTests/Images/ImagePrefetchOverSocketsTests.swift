import Foundation
import Testing
import TetherHTTP
import TetherHTTP1
import TetherTestSupport

@testable import TetherImages

/// Prefetching: a prefetch that is called off stops its load when nobody else waits, and a caller that joins a
/// prefetch in flight shares its download.
@Suite(.timeLimit(.minutes(1)))
struct ImagePrefetchOverSocketsTests {
    private static let thumb = ImageSize(width: 64, height: 64)

    @Test func cancellingAPrefetchStopsItsLoad() async throws {
        let gate = Gate()
        defer { gate.open() }  // whatever the test does, no answer stays held
        let photo = try ImageFixtures.jpegPhoto(width: 120, height: 120)
        let routes = heldImageRoutes(photo, until: gate)
        try await withImageServer(routes) { server in
            let pipeline = ImagePipeline()
            let url = server.url("/slow.jpg")
            pipeline.prefetch([url], size: Self.thumb)
            #expect(await poll { server.counts.count("/slow.jpg") == 1 })
            pipeline.cancelPrefetching([url], size: Self.thumb)
            #expect(await poll { pipeline.decodes.count == 0 && pipeline.downloads.count == 0 })
            #expect(pipeline.prefetchCount == 0)
            gate.open()
            #expect(pipeline.cachedImage(for: url, size: Self.thumb) == nil)
        }
    }

    @Test func aCallerJoiningAPrefetchSharesItsDownload() async throws {
        let gate = Gate()
        defer { gate.open() }  // whatever the test does, no answer stays held
        let photo = try ImageFixtures.jpegPhoto(width: 120, height: 120)
        let routes = heldImageRoutes(photo, until: gate)
        try await withImageServer(routes) { server in
            let pipeline = ImagePipeline()
            let url = server.url("/slow.jpg")
            pipeline.prefetch([url], size: Self.thumb)
            #expect(await poll { server.counts.count("/slow.jpg") == 1 })
            let visible = pipeline.task(for: url, size: Self.thumb, priority: .high)
            gate.open()
            let image = try await visible.image
            #expect(image.size == Self.thumb)
            #expect(server.counts.count("/slow.jpg") == 1)
        }
    }
}
