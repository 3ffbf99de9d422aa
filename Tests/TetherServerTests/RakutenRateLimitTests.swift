import Testing
import TetherHTTP1
import TetherJSON
import TetherSync

@testable import TetherServer

/// The per-`applicationId` rate limit, on a manual clock.
@Suite struct RakutenRateLimitTests {
    /// A clock the test moves by hand.
    final class ManualTime: Sendable {
        let instant = Locked(ContinuousClock.now)
        func advance(_ duration: Duration) { instant.withLock { $0 += duration } }
        var now: ContinuousClock.Instant { instant.withLock { $0 } }
    }

    @Test(.enabled(if: RakutenFixtures.isAvailable))
    func secondRequestWithinASecondIsRefused() async throws {
        let time = ManualTime()
        let responder = RakutenSearchResponder(
            catalog: RakutenTestCatalog.shared, configuration: .init(now: { time.now }))
        let parameters = [("applicationId", "app-1"), ("keyword", "緑茶")]

        #expect(try await rakutenSearch(parameters, responder: responder).status == 200)
        time.advance(.milliseconds(500))
        let refused = try await rakutenSearch(parameters, responder: responder)
        #expect(refused.status == 429)
        #expect(refused.body == (try RakutenFixtures.json("rakuten/errors/429-too-many-requests.json")))
        // Another application id has its own budget.
        #expect(
            try await rakutenSearch([("applicationId", "app-2"), ("keyword", "緑茶")], responder: responder).status == 200
        )
        // A refused request does not restart the second: 1 s after the first admitted one, it passes.
        time.advance(.milliseconds(500))
        #expect(try await rakutenSearch(parameters, responder: responder).status == 200)
        time.advance(.milliseconds(999))
        #expect(try await rakutenSearch(parameters, responder: responder).status == 429)
    }

    @Test func limitIsConfigurable() async throws {
        let time = ManualTime()
        let slow = RakutenSearchResponder(
            catalog: RakutenTestCatalog.shared, configuration: .init(rateLimit: .seconds(5), now: { time.now }))
        let parameters = [("applicationId", "app"), ("keyword", "緑茶")]
        #expect(try await rakutenSearch(parameters, responder: slow).status == 200)
        time.advance(.seconds(4))
        #expect(try await rakutenSearch(parameters, responder: slow).status == 429)
        time.advance(.seconds(1))
        #expect(try await rakutenSearch(parameters, responder: slow).status == 200)

        let unlimited = RakutenSearchResponder(catalog: RakutenTestCatalog.shared, configuration: .init(rateLimit: nil))
        for _ in 0..<5 { #expect(try await rakutenSearch(parameters, responder: unlimited).status == 200) }
    }

    @Test func invalidApplicationIDIsCheckedBeforeTheLimit() async throws {
        let time = ManualTime()
        let responder = RakutenSearchResponder(
            catalog: RakutenTestCatalog.shared, configuration: .init(now: { time.now }))
        for _ in 0..<3 {
            let answer = try await rakutenSearch([("keyword", "緑茶")], responder: responder)
            #expect(answer.status == 400)
        }
    }
}
