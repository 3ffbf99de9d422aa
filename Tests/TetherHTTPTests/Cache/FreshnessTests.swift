import Foundation
import Testing

@testable import TetherHTTP

@Suite struct FreshnessTests {
    func freshness(_ response: CachedResponse, _ configuration: HTTPCache.Configuration = .init()) -> Freshness {
        Freshness(response: response, directives: CacheControl(response.headers), configuration: configuration)
    }

    @Test func maxAgeIsTheLifetime() {
        #expect(freshness(cachedResponse(["Cache-Control": "max-age=60"])).lifetime == 60)
    }

    @Test func maxAgeWinsOverExpires() {
        let response = cachedResponse([
            "Cache-Control": "max-age=60", "Expires": HTTPDateParser.format(cacheTime(3600)),
        ])
        #expect(freshness(response).lifetime == 60)
    }

    @Test func expiresCountsFromTheDateHeaderNotTheLocalClock() {
        // The server's clock is an hour behind ours: Date and Expires are both in our past, 120 s apart.
        let response = cachedResponse(
            ["Date": HTTPDateParser.format(cacheTime(-3600)), "Expires": HTTPDateParser.format(cacheTime(-3480))])
        #expect(freshness(response).lifetime == 120)
    }

    @Test func expiresWithoutDateCountsFromTheResponseTime() {
        let response = cachedResponse(["Expires": HTTPDateParser.format(cacheTime(90))], date: false)
        #expect(freshness(response).lifetime == 90)
    }

    @Test func invalidExpiresMeansExpired() {
        #expect(freshness(cachedResponse(["Expires": "0"])).lifetime == 0)
        #expect(freshness(cachedResponse(["Expires": "-1", "ETag": "\"a\""])).lifetime == 0)
    }

    @Test func ageComputationFollowsRFC9111() {
        // Sent at 0, received at 2, the Date header says -10 (apparent age 12), Age says 5 (corrected 5 + 2 = 7).
        let response = cachedResponse(
            ["Date": HTTPDateParser.format(cacheTime(-10)), "Age": "5"], requestTime: cacheTime(0),
            responseTime: cacheTime(2))
        let value = freshness(response)
        #expect(value.correctedInitialAge == 12)
        #expect(value.currentAge(at: cacheTime(32)) == 42)
    }

    @Test func ageHeaderWinsWhenLargerThanTheApparentAge() {
        let response = cachedResponse(["Age": "100"], requestTime: cacheTime(0), responseTime: cacheTime(1))
        #expect(freshness(response).correctedInitialAge == 101)
    }

    @Test func invalidAgeIsIgnoredAndTheResidentTimeNeverRunsBackwards() {
        let value = freshness(cachedResponse(["Age": "soon"]))
        #expect(value.correctedInitialAge == 0)
        #expect(value.currentAge(at: cacheTime(-50)) == 0)
    }

    @Test func heuristicFreshnessIsOptInTenPercentCapped() {
        let lastModified = HTTPDateParser.format(cacheTime(-1000))
        let response = cachedResponse(["Last-Modified": lastModified])
        #expect(freshness(response).lifetime == 0)
        let heuristic = HTTPCache.Configuration(usesHeuristicFreshness: true)
        #expect(freshness(response, heuristic).lifetime == 100)
        let ancient = cachedResponse(["Last-Modified": HTTPDateParser.format(cacheTime(-100 * 86_400))])
        #expect(freshness(ancient, heuristic).lifetime == 86_400)
        let notHeuristic = cachedResponse(status: 302, ["Last-Modified": lastModified])
        #expect(freshness(notHeuristic, heuristic).lifetime == 0)
    }

    @Test func timeToLiveAppliesOnlyWithoutFreshnessInformationAndValidators() {
        let ttl = HTTPCache.Configuration(defaultTimeToLive: .milliseconds(1500))
        #expect(freshness(cachedResponse(), ttl).lifetime == 1.5)
        #expect(freshness(cachedResponse(), .init()).lifetime == 0)
        #expect(freshness(cachedResponse(["ETag": "\"v1\""]), ttl).lifetime == 0)
        #expect(freshness(cachedResponse(["Cache-Control": "max-age=3"]), ttl).lifetime == 3)
    }

    @Test func directivesAreRecorded() {
        let value = freshness(cachedResponse(["Cache-Control": "no-cache, must-revalidate"]))
        #expect(value.requiresValidation)
        #expect(value.mustRevalidate)
    }
}
