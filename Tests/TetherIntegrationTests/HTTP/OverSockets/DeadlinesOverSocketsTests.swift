import Foundation
import Testing
import TetherHTTP
import TetherHTTP1
import TetherServer

/// The per-attempt timeout and the total deadline against a server slowed by fault injection (`latency=`).
///
/// Elapsed times are only checked against generous upper bounds, far below the injected 60 s latency, so that a
/// deadline that is not enforced fails the test instead of merely slowing it; the deadlines themselves leave room
/// for a loaded machine (the whole package's tests run in parallel).
@Suite("Deadlines over sockets", .timeLimit(.minutes(1)))
struct DeadlinesOverSocketsTests {
    static let slow: HTTPHeaders = ["X-Tether-Fault": "latency=60s"]

    @Test func aRequestsTimeoutOverridesTheConfiguration() async throws {
        try await withSocketServer(answering: .json(text: "{}")) { server in
            let client = HTTPClient(baseURL: server.baseURL) {
                $0.timeout = .seconds(30)
                $0.retryPolicy = .never
            }
            var request = Request<Data>(path: "/slow", headers: Self.slow)
            request.timeout = .milliseconds(250)
            let start = ContinuousClock.now
            let error = try #require(await sendExpectingError(request, on: client))
            guard case .timeout(.request(let limit)) = error.kind else {
                Issue.record("expected a request timeout, got \(error)")
                return
            }
            #expect(limit == .milliseconds(250))
            #expect(error.attempts == 1)
            #expect(ContinuousClock.now - start < .seconds(30))
        }
    }

    /// With progress asked for, the transport's streaming route cancels its own data task at the deadline.
    @Test func aStreamedRequestTimesOutAtItsDeadline() async throws {
        try await withSocketServer(answering: .json(text: "{}")) { server in
            let client = HTTPClient(baseURL: server.baseURL) {
                $0.timeout = .milliseconds(250)
                $0.retryPolicy = .never
            }
            let start = ContinuousClock.now
            let task = client.task(for: Request<Data>(path: "/slow", headers: Self.slow))
            for await _ in task.progress {}
            do throws(HTTPError) {
                _ = try await task.response
                Issue.record("expected a timeout")
            } catch {
                guard case .timeout(.request(let limit)) = error.kind else {
                    Issue.record("expected a request timeout, got \(error)")
                    return
                }
                #expect(limit == .milliseconds(250))
                #expect(error.attempts == 1)
            }
            #expect(ContinuousClock.now - start < .seconds(30))
        }
    }

    @Test func aTimedOutAttemptIsRetried() async throws {
        try await withSocketServer(answering: .json(text: #"{"ok": true}"#)) { server in
            let client = HTTPClient(baseURL: server.baseURL) {
                $0.timeout = .seconds(3)
                $0.retryPolicy = RetryPolicy(maximumAttempts: 2, initialDelay: .milliseconds(10), jitter: 0)
                $0.interceptors = [FaultOnFirstAttempts("latency=60s")]
            }
            let start = ContinuousClock.now
            let response = try await client.send(Request<Data>(path: "/sometimes-slow"))
            #expect(response.attempts == 2)
            #expect(response.metrics.attempts.count == 2)
            #expect(ContinuousClock.now - start < .seconds(30))
        }
    }

    /// A shared GET's attempt runs in the coalescer's task, which its deadline cancels; the backoff and the retries
    /// after it run in fresh tasks. Cancelling the caller then must end its request at once, and the abandoned
    /// transfer must not go on to another attempt.
    @Test func cancellingDuringTheBackoffAfterATimeoutEndsTheRequest() async throws {
        try await withSocketServer(answering: .json(text: "{}")) { server in
            let events = SocketEventLog()
            let client = HTTPClient(baseURL: server.baseURL) {
                $0.timeout = .milliseconds(300)
                $0.retryPolicy = RetryPolicy(maximumAttempts: 3, initialDelay: .seconds(2), jitter: 0)
                $0.monitors = [events]
            }
            let task = Task { try await client.send(Request<Data>(path: "/slow", headers: Self.slow)) }
            let retrying = await events.wait { event in
                if case .retrying = event { return true }
                return false
            }
            #expect(retrying, "the first attempt did not time out")
            task.cancel()
            let result = await task.result
            guard case .failure(let failure) = result, let error = failure as? HTTPError, case .cancelled = error.kind
            else {
                Issue.record("expected cancellation, got \(result)")
                return
            }
            #expect(error.attempts == 1)
            // The shared transfer ends too: no second attempt once the 2 s backoff would have passed.
            try await Task.sleep(for: .seconds(3))
            #expect(events.startedCount == 1, "the abandoned transfer went on to a second attempt: \(events.lines)")
        }
    }

    @Test func theTotalDeadlineSpansRetries() async throws {
        try await withSocketServer(answering: .json(text: "{}")) { server in
            let events = SocketEventLog()
            let client = HTTPClient(baseURL: server.baseURL) {
                $0.timeout = .seconds(1)
                $0.totalTimeout = .seconds(5)
                $0.retryPolicy = RetryPolicy(maximumAttempts: 10, initialDelay: .milliseconds(10), jitter: 0)
                $0.monitors = [events]
            }
            let start = ContinuousClock.now
            let error = try #require(
                await sendExpectingError(Request<Data>(path: "/slow", headers: Self.slow), on: client))
            // Usually the last attempt gets what is left and fails as `.total`; on a starved machine an attempt
            // can end so close to the deadline that no retry fits, and its own `.request` timeout stands.
            guard case .timeout(let timeout) = error.kind else {
                Issue.record("expected a timeout, got \(error)")
                return
            }
            #expect(timeout == .total(.seconds(5)) || timeout == .request(.seconds(1)))
            // Attempts of 1 s in 5 s: several, never ten (a starved test process can even resume this task after the
            // deadline, before any attempt).
            #expect(error.attempts < 10)
            #expect(events.startedCount == error.attempts)
            #expect(ContinuousClock.now - start < .seconds(30))
        }
    }

    @Test func aTotalDeadlineShorterThanTheTimeoutIsReportedAsTotal() async throws {
        try await withSocketServer(answering: .json(text: "{}")) { server in
            var request = Request<Data>(path: "/slow", headers: Self.slow)
            request.totalTimeout = .milliseconds(500)
            let client = HTTPClient(baseURL: server.baseURL) { $0.timeout = .seconds(10) }
            let error = try #require(await sendExpectingError(request, on: client))
            guard case .timeout(.total(let limit)) = error.kind else {
                Issue.record("expected the total deadline, got \(error)")
                return
            }
            #expect(limit == .milliseconds(500))
            #expect(error.description.contains("total deadline"))
        }
    }

    @Test func aRetryAfterLongerThanWhatIsLeftEndsAtOnceWithTheStatus() async throws {
        let routes: Routes = { _, _ in
            .json(text: "{}", status: .serviceUnavailable, headers: ["Retry-After": "30"])
        }
        try await withSocketServer(routes) { server in
            let client = HTTPClient(baseURL: server.baseURL) { $0.totalTimeout = .seconds(10) }
            let error = try #require(await sendExpectingError(Request<Data>(path: "/busy"), on: client))
            #expect(error.status?.code == 503, "\(error)")
            #expect(error.attempts == 1)
        }
    }

    @Test func aQuickAnswerWithinTheDeadlinesSucceeds() async throws {
        try await withSocketServer(answering: .json(text: #"{"ok": true}"#)) { server in
            let client = HTTPClient(baseURL: server.baseURL) {
                $0.timeout = .seconds(20)
                $0.totalTimeout = .seconds(40)
            }
            let request = Request<Data>(path: "/quick", headers: ["X-Tether-Fault": "latency=20ms"])
            let response = try await client.send(request)
            #expect(response.attempts == 1)
            #expect(String(decoding: response.data, as: UTF8.self) == #"{"ok": true}"#)
        }
    }
}
