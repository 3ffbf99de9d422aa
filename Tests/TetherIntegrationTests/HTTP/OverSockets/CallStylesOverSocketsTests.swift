import Dispatch
import Foundation
import Testing
import TetherHTTP
import TetherHTTP1
import TetherJSON
import TetherServer
import TetherTestSupport

/// The completion-handler, batch, task-with-progress and cached-then-fresh ways of calling the client, against
/// the real server.
@Suite("Call styles over sockets", .timeLimit(.minutes(1)))
struct CallStylesOverSocketsTests {
    /// A queue that can tell whether code runs on it.
    final class MarkedQueue: Sendable {
        let queue = DispatchQueue(label: "tether.tests.completion")
        private let key = DispatchSpecificKey<Int>()

        init() { queue.setSpecific(key: key, value: 1) }

        var isCurrent: Bool { DispatchQueue.getSpecific(key: key) == 1 }
    }

    /// Calls `send` with a completion handler and returns the results it received, once `queue` has run
    /// everything queued after the first call.
    func completions<Value: Sendable>(
        on marked: MarkedQueue,
        _ send: (@escaping @Sendable (Result<Value, HTTPError>) -> Void) -> Void
    ) async -> (results: [Result<Value, HTTPError>], onQueue: Bool) {
        let calls = SocketCompletions<Value>()
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            send { result in
                calls.append(result, onQueue: marked.isCurrent)
                continuation.resume()
            }
        }
        // Anything else the client queued would run before this.
        await withCheckedContinuation { continuation in marked.queue.async { continuation.resume() } }
        return (calls.results, calls.allOnQueue)
    }

    @Test func aCompletionHandlerIsCalledOnceOnTheGivenQueue() async throws {
        try await withSocketREST { baseURL, _ in
            let client = HTTPClient(baseURL: baseURL)
            let marked = MarkedQueue()
            let (results, onQueue) = await completions(on: marked) { done in
                client.send(Request<SocketPost>(path: "/posts/3"), on: marked.queue) { done($0) }
            }
            #expect(results.count == 1)
            #expect(onQueue)
            let response = try results.first?.get()
            #expect(response?.value.id == 3)
        }
    }

    @Test func aFailureReachesTheCompletionHandlerOnce() async throws {
        try await withSocketREST { baseURL, _ in
            let client = HTTPClient(baseURL: baseURL)
            let marked = MarkedQueue()
            let (results, onQueue) = await completions(on: marked) { done in
                client.send(Request<SocketPost>(path: "/posts/999999"), on: marked.queue) { done($0) }
            }
            #expect(results.count == 1)
            #expect(onQueue)
            guard case .failure(let error)? = results.first else {
                Issue.record("expected a failure, got \(results)")
                return
            }
            #expect(error.status?.code == 404)
        }
    }

    @Test func aCancelledHandleCallsItsCompletionOnceWithCancelled() async throws {
        let gate = Gate()
        let routes: Routes = { _, _ in
            await gate.wait()
            return .json(text: "{}")
        }
        try await withSocketServer(routes) { server in
            let client = HTTPClient(baseURL: server.baseURL)
            let marked = MarkedQueue()
            let (results, onQueue) = await completions(on: marked) { done in
                let handle = client.send(Request<Data>(path: "/held"), on: marked.queue) { done($0) }
                Task {
                    _ = await server.log.wait(for: 1, on: "/held")
                    handle.cancel()
                }
            }
            gate.open()
            #expect(results.count == 1)
            #expect(onQueue)
            guard case .failure(let error)? = results.first else {
                Issue.record("expected a cancellation, got \(results)")
                return
            }
            #expect(error.isCancellation, "\(error)")
            #expect(error.request.url == server.url("/held"))
        }
    }

    @Test func aBatchReturnsResultsInOrderWithTheirOwnErrors() async throws {
        try await withSocketREST { baseURL, _ in
            let client = HTTPClient(baseURL: baseURL) { $0.retryPolicy = .never }
            let paths = ["/posts/1", "/posts/999999", "/posts/2", "/posts/1?_fault=status=500", "/posts/5"]
            let results = await client.send(all: paths.map { Request<SocketPost>(path: $0) })
            #expect(results.count == 5)
            let ids = results.map { try? $0.get().value.id }
            #expect(ids == [1, nil, 2, nil, 5])
            let statuses = results.map { result -> Int? in
                if case .failure(let error) = result { return error.status?.code }
                return nil
            }
            #expect(statuses == [nil, 404, nil, 500, nil])
        }
    }

    @Test func aBatchWithACompletionHandlerIsCalledOnceOnTheQueue() async throws {
        try await withSocketREST { baseURL, _ in
            let client = HTTPClient(baseURL: baseURL)
            let marked = MarkedQueue()
            let requests = [3, 1, 2].map { Request<SocketPost>(path: "/posts/\($0)") }
            let (results, onQueue) = await completions(on: marked) { done in
                client.send(all: requests, on: marked.queue) { done(.success($0)) }
            }
            #expect(results.count == 1)
            #expect(onQueue)
            let ids = try results.first?.get().map { try $0.get().value.id }
            #expect(ids == [3, 1, 2])
        }
    }

    @Test func progressReportsTheBytesOfALargeBody() async throws {
        let size = 1 << 20
        let body = [UInt8](repeating: UInt8(ascii: "z"), count: size)
        try await withSocketServer(answering: HTTPResponse(headers: ["Content-Type": "text/plain"], body: body)) {
            server in
            let task = HTTPClient(baseURL: server.baseURL).task(for: Request<Data>(path: "/large"))
            var reports: [TransferProgress] = []
            for await progress in task.progress { reports.append(progress) }
            let response = try await task.response
            #expect(response.data.count == size)
            #expect(response.metrics.bytesReceived == size)
            let last = try #require(reports.last)
            #expect(last.bytesReceived == size)
            #expect(last.totalBytesExpected == size)
            #expect(last.fractionReceived == 1)
            let received = reports.map(\.bytesReceived)
            #expect(received == received.sorted(), "progress only grows")
            #expect(reports.count > 1, "reported as bytes arrive, not once at the end")
        }
    }

    @Test func progressOfAStreamedBodyHasNoTotal() async throws {
        let routes: Routes = { _, _ in
            let (stream, continuation) = AsyncStream<[UInt8]>.makeStream()
            for _ in 0..<4 { continuation.yield([UInt8](repeating: UInt8(ascii: "s"), count: 10_000)) }
            continuation.finish()
            return HTTPResponse(headers: ["Content-Type": "text/plain"], stream: stream)
        }
        try await withSocketServer(routes) { server in
            let task = HTTPClient(baseURL: server.baseURL).task(for: Request<Data>(path: "/streamed"))
            var last: TransferProgress?
            for await progress in task.progress { last = progress }
            let response = try await task.response
            #expect(response.data.count == 40_000)
            #expect(last?.bytesReceived == 40_000)
            #expect(last?.totalBytesExpected == nil)
            #expect(last?.fractionReceived == nil)
        }
    }

    @Test func responsesYieldTheCachedOneThenTheRevalidatedOne() async throws {
        try await withSocketREST { baseURL, _ in
            let client = HTTPClient(baseURL: baseURL) { $0.cache = HTTPCache() }
            _ = try await client.send(Request<SocketPost>(path: "/posts/4"))
            var sources: [Response<SocketPost>.Source] = []
            for try await response in client.responses(for: Request<SocketPost>(path: "/posts/4")) {
                #expect(response.value.id == 4)
                sources.append(response.source)
            }
            #expect(sources == [.cache, .revalidated])
        }
    }

    @Test func responsesYieldAFreshOneAlone() async throws {
        let routes: Routes = { _, hit in .json(text: #"{"n": \#(hit)}"#, headers: ["Cache-Control": "max-age=60"]) }
        try await withSocketServer(routes) { server in
            let client = HTTPClient(baseURL: server.baseURL) { $0.cache = HTTPCache() }
            _ = try await client.send(Request<JSON>(path: "/fresh"))
            var values: [Int?] = []
            for try await response in client.responses(for: Request<JSON>(path: "/fresh")) {
                values.append(response.value["n"].int)
            }
            #expect(values == [1])
            #expect(server.log.count("/fresh") == 1)
        }
    }

    @Test func responsesWithNothingCachedYieldTheNetworkOne() async throws {
        try await withSocketServer(answering: .json(text: #"{"n": 1}"#)) { server in
            let client = HTTPClient(baseURL: server.baseURL) { $0.cache = HTTPCache() }
            var sources: [Response<JSON>.Source] = []
            for try await response in client.responses(for: Request<JSON>(path: "/new")) {
                sources.append(response.source)
            }
            #expect(sources == [.network])
        }
    }

    @Test func cancellingABatchCancelsTheRequestsStillRunning() async throws {
        let gate = Gate()
        let routes: Routes = { request, _ in
            if request.path == "/held" { await gate.wait() }
            return .json(text: "{}")
        }
        try await withSocketServer(routes) { server in
            let client = HTTPClient(baseURL: server.baseURL)
            let requests = [
                Request<Data>(path: "/quick"), Request<Data>(path: "/held", query: [("n", "1")]),
                Request<Data>(path: "/held", query: [("n", "2")]),
            ]
            let batch = Task { await client.send(all: requests) }
            #expect(await server.log.wait(for: 2, on: "/held"))
            batch.cancel()
            let results = await batch.value
            gate.open()
            #expect(results.count == 3)
            // The quick one finished or was cancelled on its way back; the held ones cannot have finished.
            if case .failure(let error) = results[0] { #expect(error.isCancellation, "\(error)") }
            for result in results.dropFirst() {
                guard case .failure(let error) = result else {
                    Issue.record("a held request was not cancelled")
                    continue
                }
                #expect(error.isCancellation, "\(error)")
            }
        }
    }

    @Test func progressReportsTheBytesOfALargeUpload() async throws {
        let size = 1 << 20
        try await withSocketServer(answering: .json(text: "{}")) { server in
            let request = Request<Void>(
                path: "/upload", method: .post, body: .data(Data(repeating: 0x75, count: size)))
            let task = HTTPClient(baseURL: server.baseURL).task(for: request)
            var reports: [TransferProgress] = []
            for await progress in task.progress { reports.append(progress) }
            _ = try await task.response
            #expect(server.log.requests.first?.body.count == size)
            #expect(reports.last?.bytesSent == size)
            #expect(reports.last?.totalBytesToSend == size)
        }
    }

    @Test func responsesFinishWithTheNetworkErrorAfterTheCachedOne() async throws {
        let routes: Routes = { _, hit in
            hit == 1
                ? .json(text: #"{"n": 1}"#, headers: ["Cache-Control": "max-age=0", "ETag": #""v1""#])
                : .json(text: "{}", status: .internalServerError)
        }
        try await withSocketServer(routes) { server in
            let client = HTTPClient(baseURL: server.baseURL) {
                $0.cache = HTTPCache()
                $0.retryPolicy = .never
            }
            _ = try await client.send(Request<JSON>(path: "/flaky"))
            var sources: [Response<JSON>.Source] = []
            do {
                for try await response in client.responses(for: Request<JSON>(path: "/flaky")) {
                    sources.append(response.source)
                }
                Issue.record("expected the sequence to end with the server's error")
            } catch let error as HTTPError {
                #expect(error.status?.code == 500)
            }
            #expect(sources == [.cache])
        }
    }
}
