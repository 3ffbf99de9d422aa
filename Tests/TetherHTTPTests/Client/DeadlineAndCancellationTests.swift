import Foundation
import Testing
import TetherHTTP
import TetherHTTPTesting

@Suite struct DeadlineAndCancellationTests {
    @Test func anAttemptThatOutlivesItsSubSecondTimeoutTimesOut() async {
        let stub = StubTransport { _ in StubResponse.json("{}").delayed(by: .seconds(20)) }
        var request = Request<Data>(path: "/slow")
        request.timeout = .milliseconds(150)
        request.retryPolicy = .never
        let started = ContinuousClock.now
        let error = await #expect(throws: HTTPError.self) { try await makeClient(stub).send(request) }
        guard case .timeout(.request(let limit)) = error?.kind else {
            Issue.record("expected a request timeout, got \(String(describing: error))")
            return
        }
        #expect(limit == .milliseconds(150))
        // A hang guard, not a timing assertion: with every suite running on two cores, resuming this task can wait
        // for seconds behind other tests' work.
        #expect(ContinuousClock.now - started < .seconds(60))
        #expect(error?.message == "The server took too long to answer.")
    }

    @Test func timeoutsAreRetriedUntilTheTotalDeadline() async {
        let stub = StubTransport { _ in StubResponse.json("{}").delayed(by: .seconds(20)) }
        let client = HTTPClient(baseURL: stubBase) {
            $0.transport = stub
            $0.timeout = .milliseconds(100)
            $0.totalTimeout = .milliseconds(250)
            $0.retryPolicy = RetryPolicy(maximumAttempts: 10, initialDelay: .milliseconds(1), jitter: 0)
        }
        let error = await #expect(throws: HTTPError.self) { try await client.send(Request<Data>(path: "/slow")) }
        guard case .timeout(.total(let limit)) = error?.kind else {
            Issue.record("expected the total deadline, got \(String(describing: error))")
            return
        }
        #expect(limit == .milliseconds(250))
        // Attempts of 100 ms in 250 ms: a few, never all ten (how many depends on the machine's load; on a saturated
        // machine the deadline can pass before the first attempt starts).
        #expect((error?.attempts ?? 0) < 10)
    }

    @Test func cancellingTheTaskDuringATransferIsCancellation() async {
        let stub = StubTransport { _ in StubResponse.json("{}").delayed(by: .seconds(20)) }
        let client = makeClient(stub)
        let task = Task { try await client.send(Request<Data>(path: "/slow")) }
        while stub.requests.isEmpty { try? await Task.sleep(for: .milliseconds(5)) }
        task.cancel()
        let result = await task.result
        guard case .failure(let error as HTTPError) = result else {
            Issue.record("expected an HTTPError, got \(result)")
            return
        }
        #expect(error.isCancellation)
        #expect(stub.requests.count == 1)
    }

    @Test func cancellingDuringTheBackoffStopsTheRetries() async {
        let stub = StubTransport(script: [.status(503), .json("{}")])
        let log = EventLog()
        let client = HTTPClient(baseURL: stubBase) {
            $0.transport = stub
            $0.monitors = [log]
            $0.retryPolicy = RetryPolicy(maximumAttempts: 3, initialDelay: .seconds(30), jitter: 0)
        }
        let task = Task { try await client.send(Request<Data>(path: "/a")) }
        while !log.lines.contains(where: { $0.hasPrefix("↻") }) { try? await Task.sleep(for: .milliseconds(5)) }
        task.cancel()
        let result = await task.result
        guard case .failure(let error as HTTPError) = result else {
            Issue.record("expected an HTTPError")
            return
        }
        #expect(error.isCancellation)
        #expect(stub.requests.count == 1)
    }

    @Test func cancellingWhileQueuedBehindTheRateLimitSendsNothing() async throws {
        let stub = StubTransport { _ in .json("{}") }
        let client = makeClient(stub) { $0.rateLimits["api.example.com"] = RateLimit(requests: 1, per: .seconds(60)) }
        _ = try await client.send(Request<Data>(path: "/first"))
        let task = Task { try await client.send(Request<Data>(path: "/second")) }
        try await Task.sleep(for: .milliseconds(50))
        task.cancel()
        let result = await task.result
        guard case .failure(let error as HTTPError) = result else {
            Issue.record("expected an HTTPError")
            return
        }
        #expect(error.isCancellation)
        #expect(stub.requests.map(\.url.path) == ["/v1/first"])
    }

    @Test func anAlreadyCancelledTaskSendsNothing() async {
        let stub = StubTransport { _ in .json("{}") }
        let client = makeClient(stub)
        let task = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return try await client.send(Request<Data>(path: "/a"))
        }
        let result = await task.result
        guard case .failure(let error as HTTPError) = result else {
            Issue.record("expected an HTTPError")
            return
        }
        #expect(error.isCancellation)
        #expect(stub.requests.isEmpty)
    }

    @Test func theRateLimitMakesCallersWait() async throws {
        let stub = StubTransport { _ in .json("{}") }
        let client = makeClient(stub) { $0.rateLimits["API.example.com"] = RateLimit(requests: 1, per: .seconds(1)) }
        // Two at once with room for one: whichever comes second waits for the next token.
        async let first = client.send(Request<Data>(path: "/a"))
        async let second = client.send(Request<Data>(path: "/b"))
        let waits = try await [first.metrics.rateLimitWait, second.metrics.rateLimitWait].sorted()
        #expect(waits[0] == .zero)
        #expect(waits[1] > .milliseconds(100))
        #expect(stub.requests.count == 2)
    }
}
