import Foundation
import Testing
import TetherHTTP
import TetherHTTP1
import TetherJSON
import TetherServer

/// Retries against a real server: statuses, `Retry-After`, transport errors and the idempotency rule.
@Suite("Retries over sockets", .timeLimit(.minutes(1)))
struct RetriesOverSocketsTests {
    /// Fast retries without jitter, so the waits are known.
    static let quick = RetryPolicy(maximumAttempts: 3, initialDelay: .milliseconds(10), jitter: 0)

    func client(
        _ baseURL: URL, _ events: SocketEventLog = SocketEventLog(),
        configure: (inout HTTPClient.Configuration) -> Void = { _ in }
    ) -> HTTPClient {
        HTTPClient(baseURL: baseURL) {
            $0.retryPolicy = Self.quick
            $0.monitors = [events]
            configure(&$0)
        }
    }

    @Test func a503Then200SucceedsOnTheSecondAttempt() async throws {
        let routes: Routes = { _, hit in
            hit == 1
                ? .json(text: #"{"error": "busy"}"#, status: .serviceUnavailable, headers: ["Retry-After": "0"])
                : .json(text: #"{"userId": 1, "id": 7, "title": "t", "body": "b"}"#)
        }
        try await withSocketServer(routes) { server in
            let events = SocketEventLog()
            let response = try await client(server.baseURL, events).send(Request<SocketPost>(path: "/flaky"))
            #expect(response.value.id == 7)
            #expect(response.attempts == 2)
            #expect(response.metrics.attempts.count == 2)
            #expect(server.log.count("/flaky") == 2)
            #expect(events.retryDelays == [.zero])
        }
    }

    @Test func anInjected503IsRetriedAfterItsRetryAfterSeconds() async throws {
        try await withSocketREST { baseURL, _ in
            let events = SocketEventLog()
            let client = client(baseURL, events) { $0.interceptors = [FaultOnFirstAttempts("status=503")] }
            let start = ContinuousClock.now
            let response = try await client.send(Request<SocketPost>(path: "/posts/1"))
            #expect(response.value.id == 1)
            #expect(response.attempts == 2)
            // The server's fault answer says `Retry-After: 1`; the policy's 10 ms backoff is replaced by it.
            #expect(events.retryDelays == [.seconds(1)])
            #expect(ContinuousClock.now - start >= .seconds(1))
        }
    }

    @Test func aRetryAfterBeyondTheCapEndsTheRetries() async throws {
        try await withSocketREST { baseURL, _ in
            let events = SocketEventLog()
            let client = client(baseURL, events) {
                $0.interceptors = [FaultOnFirstAttempts("status=503")]
                $0.retryPolicy.maximumRetryAfter = .milliseconds(500)
            }
            let error = try #require(await sendExpectingError(Request<SocketPost>(path: "/posts/1"), on: client))
            #expect(error.status?.code == 503, "\(error)")
            #expect(error.statusFailure?.headers["Retry-After"] == "1")
            #expect(error.attempts == 1)
            #expect(events.retryDelays.isEmpty)
        }
    }

    @Test func aLongRetryAfterIsNotWaitedForUnderTheDefaultCap() async throws {
        let routes: Routes = { _, _ in
            .json(text: "{}", status: .serviceUnavailable, headers: ["Retry-After": "120"])
        }
        try await withSocketServer(routes) { server in
            let start = ContinuousClock.now
            let error = try #require(
                await sendExpectingError(Request<Data>(path: "/down"), on: client(server.baseURL)))
            #expect(error.status?.code == 503)
            #expect(error.attempts == 1)
            #expect(server.log.count("/down") == 1)
            // A guard, far from the 120 s: with every suite running on two cores this can take over 10 s.
            #expect(ContinuousClock.now - start < .seconds(40), "a guard: 120 s were not waited")
        }
    }

    @Test func withoutRetryAfterTheBackoffGrows() async throws {
        let routes: Routes = { _, hit in
            hit < 3 ? .json(text: "{}", status: .internalServerError) : .json(text: #"{"ok": true}"#)
        }
        try await withSocketServer(routes) { server in
            let events = SocketEventLog()
            let response = try await client(server.baseURL, events).send(Request<JSON>(path: "/wobbly"))
            #expect(response.value["ok"].bool == true)
            #expect(response.attempts == 3)
            #expect(events.retryDelays == [.milliseconds(10), .milliseconds(20)])
            #expect(server.log.count("/wobbly") == 3)
        }
    }

    @Test func exhaustedAttemptsReportTheLastStatus() async throws {
        let statuses = [503, 502, 500]
        let routes: Routes = { _, hit in
            .json(text: #"{"attempt": \#(hit)}"#, status: HTTPStatus(code: statuses[min(hit, 3) - 1]))
        }
        try await withSocketServer(routes) { server in
            let error = try #require(
                await sendExpectingError(Request<Data>(path: "/failing"), on: client(server.baseURL)))
            let failure = try #require(error.statusFailure, "\(error)")
            #expect(failure.status.code == 500)
            #expect(String(decoding: failure.body, as: UTF8.self) == #"{"attempt": 3}"#)
            #expect(error.attempts == 3)
            #expect(error.description.hasSuffix("(after 3 attempts)"))
            #expect(server.log.count("/failing") == 3)
        }
    }

    @Test func aStatusOutsideTheRetryableSetIsNotRetried() async throws {
        try await withSocketServer(answering: .json(text: "{}", status: .badRequest)) { server in
            let error = try #require(
                await sendExpectingError(Request<Data>(path: "/bad"), on: client(server.baseURL)))
            #expect(error.status?.code == 400)
            #expect(error.attempts == 1)
            #expect(server.log.count("/bad") == 1)
        }
    }

    @Test(arguments: [
        (HTTPMethod.get, true), (.put, true), (.delete, true), (.post, false), (.patch, false),
    ])
    func onlyIdempotentMethodsAreRetried(method: HTTPMethod, retried: Bool) async throws {
        let routes: Routes = { _, hit in
            hit == 1 ? .json(text: "{}", status: .serviceUnavailable) : .json(text: "{}")
        }
        try await withSocketServer(routes) { server in
            let body: RequestBody? = method == .get || method == .delete ? nil : .json(["a": 1] as JSON)
            let request = Request<Void>(path: "/resource", method: method, body: body)
            let outcome = await sendExpectingError(request, on: client(server.baseURL))
            #expect(server.log.count("/resource") == (retried ? 2 : 1))
            if retried {
                #expect(outcome == nil, "\(String(describing: outcome))")
            } else {
                #expect(outcome?.status?.code == 503)
                #expect(outcome?.attempts == 1)
            }
        }
    }

    @Test func aPOSTWithAnIdempotencyKeyIsRetriedWithTheSameKey() async throws {
        let routes: Routes = { _, hit in
            hit == 1 ? .json(text: "{}", status: .serviceUnavailable) : .json(text: #"{"id": 1}"#, status: .created)
        }
        try await withSocketServer(routes) { server in
            var request = Request<JSON>(path: "/orders", method: .post, body: .json(["item": "tea"] as JSON))
            request.idempotencyKey = "order-42"
            let response = try await client(server.baseURL).send(request)
            #expect(response.status.code == 201)
            #expect(response.attempts == 2)
            let keys = server.log.requests(for: "/orders").map { $0.headers["Idempotency-Key"] }
            #expect(keys == ["order-42", "order-42"])
            let bodies = server.log.requests(for: "/orders").map { String(decoding: $0.body, as: UTF8.self) }
            #expect(bodies.count == 2 && bodies[0] == bodies[1])
        }
    }

    @Test func aTransportErrorIsRetried() async throws {
        try await withSocketREST { baseURL, _ in
            let events = SocketEventLog()
            let client = client(baseURL, events) { $0.interceptors = [FaultOnFirstAttempts("reset")] }
            let response = try await client.send(Request<SocketPost>(path: "/posts/2"))
            #expect(response.value.id == 2)
            #expect(response.attempts == 2)
            #expect(events.lines.contains { $0.hasPrefix("↻") && $0.contains("transport error") })
        }
    }

    @Test func aResetPOSTWithAKeyIsAppliedOnceByTheServer() async throws {
        try await withSocketREST { baseURL, database in
            let before = database.json["posts"].array?.count ?? 0
            let client = client(baseURL) { $0.interceptors = [FaultOnFirstAttempts("reset")] }
            var request = Request<JSON>(
                path: "/posts", method: .post, body: .json(["title": "once", "userId": 1] as JSON))
            request.idempotencyKey = "create-once"
            // The first attempt is written, then its response is cut; the retry gets the stored answer.
            let response = try await client.send(request)
            #expect(response.status.code == 201)
            #expect(response.attempts == 2)
            #expect(response.headers["Idempotent-Replayed"] == "true")
            #expect(response.value["title"].string == "once")
            #expect(database.json["posts"].array?.count == before + 1)
        }
    }

    @Test func aResetPOSTWithoutAKeyIsNotRetried() async throws {
        try await withSocketREST { baseURL, database in
            let before = database.json["posts"].array?.count ?? 0
            let client = client(baseURL) { $0.interceptors = [FaultOnFirstAttempts("reset")] }
            let request = Request<JSON>(path: "/posts", method: .post, body: .json(["title": "maybe"] as JSON))
            let error = try #require(await sendExpectingError(request, on: client))
            #expect(error.isTransport, "\(error)")
            #expect(error.attempts == 1)
            // The write happened once; a blind retry would have made it twice.
            #expect(database.json["posts"].array?.count == before + 1)
        }
    }
}
