import Foundation
import Testing
import TetherHTTP
import TetherHTTP1
import TetherServer
import TetherTestSupport

/// Cancelling a request at each stage: before it starts, queued behind the rate limit, connected but unanswered,
/// receiving its body, and waiting to retry. Each ends at once with ``HTTPError/Kind/cancelled``.
@Suite("Cancellation over sockets", .timeLimit(.minutes(1)))
struct CancellationOverSocketsTests {
    @Test func aTaskCancelledBeforeSendingNeverReachesTheServer() async throws {
        try await withSocketServer(answering: .json(text: "{}")) { server in
            let client = HTTPClient(baseURL: server.baseURL)
            let task = Task { () async -> HTTPError? in
                try? await Task.sleep(for: .seconds(30))
                return await sendExpectingError(Request<Data>(path: "/never"), on: client)
            }
            task.cancel()
            let error = try #require(await task.value)
            #expect(error.isCancellation, "\(error)")
            #expect(error.attempts == 0)
            #expect(server.log.requests.isEmpty)
        }
    }

    @Test func cancellationsRacingCompletionsAllEnd() async throws {
        // Each request is cancelled about when its answer arrives, coalesced or not. Cancelling a URLSession task
        // from a cancellation handler while the session completes it can leave both waiting for good; the suite's
        // time limit catches that, and every request must end either way.
        try await withSocketServer(answering: .json(text: #"{"ok": true}"#)) { server in
            let client = HTTPClient(baseURL: server.baseURL) { $0.retryPolicy = .never }
            for round in 0..<300 {
                let method: HTTPMethod = round % 2 == 0 ? .get : .post
                let task = Task { () -> Result<Response<Data>, HTTPError> in
                    do throws(HTTPError) {
                        return .success(try await client.send(Request<Data>(path: "/race", method: method)))
                    } catch {
                        return .failure(error)
                    }
                }
                try await Task.sleep(for: .microseconds(round % 7 * 150))
                task.cancel()
                switch await task.value {
                case .success(let response): #expect(response.status.code == 200)
                case .failure(let error): #expect(error.isCancellation, "\(error)")
                }
            }
        }
    }

    @Test func whileQueuedBehindTheRateLimit() async throws {
        try await withSocketServer(answering: .json(text: "{}")) { server in
            let events = SocketEventLog()
            let client = HTTPClient(baseURL: server.baseURL) {
                $0.rateLimits["127.0.0.1"] = RateLimit(requests: 1, per: .seconds(30))
                $0.monitors = [events]
            }
            _ = try await client.send(Request<Data>(path: "/first"))
            let queued = Task { await sendExpectingError(Request<Data>(path: "/second"), on: client) }
            try await Task.sleep(for: .milliseconds(100))
            queued.cancel()
            let error = try #require(await queued.value)
            #expect(error.isCancellation, "\(error)")
            #expect(error.request.url == server.url("/second"))
            #expect(error.attempts == 0)
            // Had the 30 s turn been waited for, the request would have gone out.
            #expect(server.log.count("/second") == 0)
            #expect(events.startedCount == 1)
        }
    }

    @Test func whileConnectedToAServerThatNeverAnswers() async throws {
        let listener = try LoopbackListener()  // Connections complete in the backlog, never accepted.
        let events = SocketEventLog()
        let client = HTTPClient(baseURL: URL(string: "http://127.0.0.1:\(listener.port)")!) {
            $0.monitors = [events]
            $0.retryPolicy = .never
        }
        let task = Task { await sendExpectingError(Request<Data>(path: "/hang"), on: client) }
        #expect(
            await events.wait { event in
                if case .started = event { return true }
                return false
            })
        task.cancel()
        let error = try #require(await task.value)
        #expect(error.isCancellation, "\(error)")
        #expect(error.request.url == "http://127.0.0.1:\(listener.port)/hang")
    }

    @Test func whileReceivingTheBody() async throws {
        let gate = Gate()
        let routes: Routes = { request, _ in
            if request.path == "/ok" { return .json(text: #"{"ok": true}"#) }
            let (stream, continuation) = AsyncStream<[UInt8]>.makeStream()
            Task {
                continuation.yield([UInt8](repeating: UInt8(ascii: "a"), count: 4096))
                await gate.wait()
                continuation.finish()
            }
            return HTTPResponse(headers: ["Content-Type": "text/plain"], stream: stream)
        }
        try await withSocketServer(routes) { server in
            let client = HTTPClient(baseURL: server.baseURL)
            let task = client.task(for: Request<Data>(path: "/trickle"))
            var received = 0
            for await progress in task.progress where progress.bytesReceived > 0 {
                received = progress.bytesReceived
                break
            }
            #expect(received > 0)
            task.cancel()
            do throws(HTTPError) {
                let response = try await task.response
                Issue.record("expected a cancellation, got \(response.data.count) bytes")
            } catch {
                #expect(error.isCancellation, "\(error)")
                #expect(error.request.url == server.url("/trickle"))
            }
            gate.open()
            // The client is still usable afterwards.
            let next = try await client.send(Request<Data>(path: "/ok"))
            #expect(next.status.code == 200)
        }
    }

    @Test func whileBackingOffBeforeARetry() async throws {
        // The longest wait under the default cap (30 s), so the guard below has room on a starved machine.
        let routes: Routes = { _, _ in
            .json(text: "{}", status: .serviceUnavailable, headers: ["Retry-After": "29"])
        }
        try await withSocketServer(routes) { server in
            let events = SocketEventLog()
            let client = HTTPClient(baseURL: server.baseURL) { $0.monitors = [events] }
            let task = Task { await sendExpectingError(Request<Data>(path: "/busy"), on: client) }
            #expect(
                await events.wait { event in
                    if case .retrying = event { return true }
                    return false
                })
            task.cancel()
            let error = try #require(await task.value)
            #expect(error.isCancellation, "\(error)")
            #expect(error.request.url == server.url("/busy"))
            #expect(events.retryDelays == [.seconds(29)])
            #expect(server.log.count("/busy") == 1)
        }
    }

    @Test func cancellingATaskHandleWhileTheServerThinks() async throws {
        let gate = Gate()
        let routes: Routes = { _, _ in
            await gate.wait()
            return .json(text: "{}")
        }
        try await withSocketServer(routes) { server in
            let client = HTTPClient(baseURL: server.baseURL)
            let task = client.task(for: Request<Data>(path: "/thinking"))
            #expect(await server.log.wait(for: 1, on: "/thinking"))
            task.cancel()
            await #expect(throws: HTTPError.self) { try await task.response }
            do throws(HTTPError) {
                _ = try await task.response
            } catch {
                #expect(error.isCancellation, "\(error)")
                #expect(error.request.url == server.url("/thinking"))
            }
            gate.open()
            #expect(server.log.count("/thinking") == 1, "a cancellation is not retried")
        }
    }

    /// Backs off before a retry, cancels, and returns the error (`coalescing` on or off).
    func cancelWhileBackingOff(coalescing: Bool) async throws -> HTTPError? {
        let routes: Routes = { _, _ in
            .json(text: "{}", status: .serviceUnavailable, headers: ["Retry-After": "20"])
        }
        return try await withSocketServer(routes) { server in
            let events = SocketEventLog()
            let client = HTTPClient(baseURL: server.baseURL) {
                $0.monitors = [events]
                $0.coalescesRequests = coalescing
            }
            let task = Task { await sendExpectingError(Request<Data>(path: "/busy"), on: client) }
            _ = await events.wait { event in
                if case .retrying = event { return true }
                return false
            }
            task.cancel()
            return await task.value
        }
    }

    @Test func aCancelledRequestCountsItsAttempts() async throws {
        let error = try #require(try await cancelWhileBackingOff(coalescing: false))
        #expect(error.isCancellation, "\(error)")
        #expect(error.attempts == 1)
    }

    @Test func aCancelledCoalescedRequestCountsItsAttempts() async throws {
        let error = try #require(try await cancelWhileBackingOff(coalescing: true))
        #expect(error.isCancellation, "\(error)")
        #expect(error.attempts == 1)
    }
}
