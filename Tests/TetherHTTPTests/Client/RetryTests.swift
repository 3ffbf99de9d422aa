import Foundation
import Testing
import TetherHTTP
import TetherHTTPTesting

@Suite struct RetryTests {
    @Test func aRetryableStatusIsRetriedAndTheAttemptsCounted() async throws {
        let stub = StubTransport(script: [.status(503), .status(429), .json(#"{"id": 1, "title": "a"}"#)])
        let log = EventLog()
        let response = try await makeClient(stub) { $0.monitors = [log] }.send(Request<Note>(path: "/notes/1"))
        #expect(response.value == Note(id: 1, title: "a"))
        #expect(response.attempts == 3)
        #expect(response.metrics.attempts.count == 3)
        #expect(log.lines.filter { $0.hasPrefix("↻") }.count == 2)
        #expect(log.lines.last?.hasPrefix("✓ GET https://api.example.com/v1/notes/1 200 network") == true)
    }

    @Test func exhaustedAttemptsReportTheLastStatus() async {
        let stub = StubTransport(script: [.status(500), .status(502), .status(503)])
        let error = await #expect(throws: HTTPError.self) {
            try await makeClient(stub).send(Request<Data>(path: "/a"))
        }
        #expect(error?.status?.code == 503)
        #expect(error?.attempts == 3)
        #expect(stub.requests.count == 3)
    }

    @Test func clientErrorsAreNotRetried() async {
        let stub = StubTransport(script: [.status(404), .json("{}")])
        let error = await #expect(throws: HTTPError.self) { try await makeClient(stub).send(Request<Data>(path: "/a")) }
        #expect(error?.status?.code == 404)
        #expect(stub.requests.count == 1)
    }

    @Test func postIsRetriedOnlyWithAnIdempotencyKey() async throws {
        let plain = StubTransport(script: [.status(503), .json("{}")])
        let error = await #expect(throws: HTTPError.self) {
            try await makeClient(plain).send(Request<Data>(path: "/notes", method: .post, body: .text("x")))
        }
        #expect(error?.status?.code == 503)
        #expect(plain.requests.count == 1)

        let keyed = StubTransport(script: [.status(503), .json("{}")])
        var request = Request<Data>(path: "/notes", method: .post, body: .text("x"))
        request.idempotencyKey = "abc"
        let response = try await makeClient(keyed).send(request)
        #expect(response.attempts == 2)
        #expect(keyed.requests.map { $0.headers["Idempotency-Key"] } == ["abc", "abc"])
    }

    @Test func connectionErrorsAreRetried() async throws {
        let stub = StubTransport(script: [.failure(URLError(.networkConnectionLost)), .json("{}")])
        let response = try await makeClient(stub).send(Request<Data>(path: "/a"))
        #expect(response.attempts == 2)
    }

    @Test func aConnectionErrorThatPersistsIsATransportError() async {
        let stub = StubTransport { _ in .failure(URLError(.cannotConnectToHost)) }
        let error = await #expect(throws: HTTPError.self) { try await makeClient(stub).send(Request<Data>(path: "/a")) }
        guard case .transport(let underlying) = error?.kind else {
            Issue.record("expected a transport error, got \(String(describing: error))")
            return
        }
        #expect((underlying as? URLError)?.code == .cannotConnectToHost)
        #expect(error?.message == "The server could not be reached.")
        #expect(stub.requests.count == 3)
    }

    @Test func retryAfterSecondsIsHonouredAndAnOverlongOneEndsTheRetries() async throws {
        let log = EventLog()
        let stub = StubTransport(script: [.status(503, headers: ["Retry-After": "0"]), .json("{}")])
        _ = try await makeClient(stub) { $0.monitors = [log] }.send(Request<Data>(path: "/a"))
        guard
            case .retrying(_, _, let delay, let reason) = log.events.first(where: {
                if case .retrying = $0 { return true } else { return false }
            })
        else {
            Issue.record("no retry event")
            return
        }
        #expect(delay == .zero)
        #expect(reason == "status 503")

        let long = StubTransport(script: [.status(429, headers: ["Retry-After": "3600"]), .json("{}")])
        let error = await #expect(throws: HTTPError.self) { try await makeClient(long).send(Request<Data>(path: "/a")) }
        #expect(error?.status?.code == 429)
        #expect(long.requests.count == 1)
    }

    @Test func retryAfterAsAnHTTPDateIsHonoured() async throws {
        let log = EventLog()
        let past = "Sun, 06 Nov 1994 08:49:37 GMT"
        let stub = StubTransport(script: [.status(503, headers: ["Retry-After": past]), .json("{}")])
        let response = try await makeClient(stub) { $0.monitors = [log] }.send(Request<Data>(path: "/a"))
        #expect(response.attempts == 2)
        let delays = log.events.compactMap { event -> Duration? in
            if case .retrying(_, _, let delay, _) = event { return delay }
            return nil
        }
        #expect(delays == [.zero])
    }

    @Test func backoffGrowsAndIsCappedWithoutJitter() async throws {
        let log = EventLog()
        let stub = StubTransport(script: [.status(500), .status(500), .status(500), .json("{}")])
        let client = HTTPClient(baseURL: stubBase) {
            $0.transport = stub
            $0.monitors = [log]
            $0.retryPolicy = RetryPolicy(
                maximumAttempts: 4, initialDelay: .milliseconds(2), multiplier: 3, maximumDelay: .milliseconds(10),
                jitter: 0)
        }
        _ = try await client.send(Request<Data>(path: "/a"))
        let delays = log.events.compactMap { event -> Duration? in
            if case .retrying(_, _, let delay, _) = event { return delay }
            return nil
        }
        #expect(delays == [.milliseconds(2), .milliseconds(6), .milliseconds(10)])
    }

    @Test func aPerRequestPolicyOverridesTheClients() async {
        let stub = StubTransport(script: [.status(503), .json("{}")])
        var request = Request<Data>(path: "/a")
        request.retryPolicy = .never
        let error = await #expect(throws: HTTPError.self) { try await makeClient(stub).send(request) }
        #expect(error?.status?.code == 503)
        #expect(stub.requests.count == 1)
    }
}

@Suite struct StubTransportMisuseTests {
    @Test func runningOutOfScriptSaysSoAndIsNotRetried() async {
        let stub = StubTransport(script: [.status(503)])
        let client = HTTPClient(baseURL: URL(string: "https://api.example.com")!) {
            $0.transport = stub
            $0.retryPolicy = .immediate(maximumAttempts: 5)
        }
        let error = await #expect(throws: HTTPError.self) { try await client.send(Request<Data>(path: "/a")) }
        // The 503 is retried at once; the second request finds the script empty, which is not a network failure.
        #expect(stub.requests.count == 2)
        #expect(error?.message.contains("no scripted response left for GET https://api.example.com/a") == true)
        guard case .transport(let underlying)? = error?.kind else {
            Issue.record("expected a transport error, got \(String(describing: error?.kind))")
            return
        }
        #expect(underlying is StubTransport.Exhausted)
    }

    @Test func theImmediatePolicyRetriesWithoutWaitingEvenForRetryAfter() async throws {
        let stub = StubTransport(script: [
            .status(503, headers: ["Retry-After": "3600"]), .status(429, headers: ["Retry-After": "60"]),
            .json(#"{"ok": true}"#),
        ])
        let log = EventLog()
        let client = HTTPClient(baseURL: URL(string: "https://api.example.com")!) {
            $0.transport = stub
            $0.retryPolicy = .immediate()
            $0.monitors = [log]
        }
        let response = try await client.send(Request<Data>(path: "/a"))
        #expect(response.status.code == 200)
        #expect(response.attempts == 3)
        // Both retries were decided with no wait, although the server asked for an hour and a minute.
        let delays = log.events.compactMap { event -> Duration? in
            if case .retrying(_, _, let delay, _) = event { return delay }
            return nil
        }
        #expect(delays == [.zero, .zero])
    }
}
