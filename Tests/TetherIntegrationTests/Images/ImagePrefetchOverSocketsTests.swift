import Foundation
import Testing
import TetherHTTP
import TetherHTTP1
import TetherSync
import TetherTestSupport

@testable import TetherImages

/// Prefetching: a prefetch that is called off stops its load when nobody else waits, and a caller that joins a
/// prefetch in flight shares its download.
@Suite(.timeLimit(.minutes(1)))
struct ImagePrefetchOverSocketsTests {
    private static let thumb = ImageSize(width: 64, height: 64)

    @Test func cancellingAPrefetchStopsItsLoad() async throws {
        let gate = Locked(false)
        let photo = try ImageFixtures.jpegPhoto(width: 120, height: 120)
        let routes: ImageRoutes = { _, _ in
            while !gate.withLock({ $0 }) { try? await Task.sleep(for: .milliseconds(5)) }
            return imageResponse(photo)
        }
        try await withImageServer(routes) { server in
            let pipeline = ImagePipeline()
            let url = server.url("/slow.jpg")
            pipeline.prefetch([url], size: Self.thumb)
            #expect(await poll { server.counts.count("/slow.jpg") == 1 })
            pipeline.cancelPrefetching([url], size: Self.thumb)
            #expect(await poll { pipeline.decodes.count == 0 && pipeline.downloads.count == 0 })
            #expect(pipeline.prefetchCount == 0)
            gate.withLock { $0 = true }
            #expect(pipeline.cachedImage(for: url, size: Self.thumb) == nil)
        }
    }

    @Test func aCallerJoiningAPrefetchSharesItsDownload() async throws {
        let gate = Locked(false)
        let photo = try ImageFixtures.jpegPhoto(width: 120, height: 120)
        let routes: ImageRoutes = { _, _ in
            while !gate.withLock({ $0 }) { try? await Task.sleep(for: .milliseconds(5)) }
            return imageResponse(photo)
        }
        try await withImageServer(routes) { server in
            let pipeline = ImagePipeline()
            let url = server.url("/slow.jpg")
            pipeline.prefetch([url], size: Self.thumb)
            #expect(await poll { server.counts.count("/slow.jpg") == 1 })
            let visible = pipeline.task(for: url, size: Self.thumb, priority: .high)
            gate.withLock { $0 = true }
            let image = try await visible.image
            #expect(image.size == Self.thumb)
            #expect(server.counts.count("/slow.jpg") == 1)
        }
    }
}
