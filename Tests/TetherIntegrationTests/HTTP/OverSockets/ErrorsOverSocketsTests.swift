import Foundation
import Testing
import TetherHTTP
import TetherHTTP1
import TetherJSON
import TetherServer
import TetherTestSupport

/// Each ``HTTPError/Kind`` produced by a real server (or a real closed port), through the default transport.
@Suite("Errors over sockets", .timeLimit(.minutes(1)))
struct ErrorsOverSocketsTests {
    /// A client for `baseURL` that never retries, so each failure is the first attempt's.
    func client(_ baseURL: URL, configure: (inout HTTPClient.Configuration) -> Void = { _ in }) -> HTTPClient {
        HTTPClient(baseURL: baseURL) {
            $0.retryPolicy = .never
            configure(&$0)
        }
    }

    @Test func aClosedPortIsATransportError() async throws {
        let port = try closedLoopbackPort()
        let client = client(URL(string: "http://127.0.0.1:\(port)")!)
        let error = try #require(await sendExpectingError(Request<Data>(path: "/posts/1"), on: client))
        #expect(error.isTransport, "\(error)")
        #expect(error.attempts == 1)
        #expect(error.request.url == "http://127.0.0.1:\(port)/posts/1")
        #expect(error.message == "The server could not be reached.")
    }

    @Test func aResetConnectionIsATransportError() async throws {
        try await withSocketREST { baseURL, _ in
            let request = Request<[SocketPost]>(path: "/posts", headers: ["X-Tether-Fault": "reset"])
            let error = try #require(await sendExpectingError(request, on: client(baseURL)))
            #expect(error.isTransport, "\(error)")
            #expect(error.attempts == 1)
        }
    }

    @Test func aTruncatedBodyIsATransportError() async throws {
        try await withSocketREST { baseURL, _ in
            let request = Request<[SocketPost]>(path: "/posts", query: [("_fault", "truncate")])
            let error = try #require(await sendExpectingError(request, on: client(baseURL)))
            #expect(error.isTransport, "\(error)")
        }
    }

    @Test func a404IsAStatusFailureWithTheBody() async throws {
        try await withSocketREST { baseURL, _ in
            let error = try #require(
                await sendExpectingError(Request<SocketPost>(path: "/posts/999999"), on: client(baseURL)))
            let failure = try #require(error.statusFailure, "\(error)")
            #expect(failure.status.code == 404)
            #expect(String(decoding: failure.body, as: UTF8.self) == "{}")
            #expect(failure.headers["Content-Type"]?.hasPrefix("application/json") == true)
            #expect(failure.apiError == nil)
            #expect(error.status?.code == 404)
            #expect(error.message == "The server answered 404 Not Found.")
        }
    }

    @Test func an500FromFaultInjectionIsAStatusFailure() async throws {
        try await withSocketREST { baseURL, _ in
            let request = Request<SocketPost>(path: "/posts/1", headers: ["X-Tether-Fault": "status=500"])
            let error = try #require(await sendExpectingError(request, on: client(baseURL)))
            let failure = try #require(error.statusFailure, "\(error)")
            #expect(failure.status.code == 500)
            #expect(String(decoding: failure.body, as: UTF8.self).contains("injected_fault"))
            #expect(error.attempts == 1)
        }
    }

    @Test func aRakutenErrorBodyDecodesAsTheAPIError() async throws {
        try await withSocketApp { baseURL, _ in
            let client = client(baseURL) { $0.apiErrorDecoder = .json(RakutenErrorBody.self) }
            let request = Request<Data>(
                path: "/services/api/IchibaItem/Search/20220601", query: [("applicationId", "1"), ("keyword", "")])
            let error = try #require(await sendExpectingError(request, on: client))
            let failure = try #require(error.statusFailure, "\(error)")
            #expect(failure.status.code == 400)
            let apiError = try #require(failure.apiError as? RakutenErrorBody)
            #expect(apiError.error == "wrong_parameter")
            #expect(error.message == "\(apiError.description) (400)")
            #expect(error.description.contains("status 400"))
        }
    }

    @Test func theDefaultDecoderShowsTheLocalServersMessages() async throws {
        try await withSocketApp { baseURL, _ in
            // Rakuten's classic shape, from the local search.
            let search = Request<Data>(
                path: "/services/api/IchibaItem/Search/20220601", query: [("applicationId", "1"), ("keyword", "")])
            let refused = try #require(await sendExpectingError(search, on: client(baseURL)))
            let problem = try #require(refused.statusFailure?.apiError as? APIProblem, "\(refused)")
            #expect(problem.code == "wrong_parameter")
            #expect(problem.status == 400)
            #expect(refused.message == "\(problem.message) (400)")
            #expect(!problem.message.isEmpty && problem.message != "wrong_parameter")
            // The REST routes' own `{"error", "message"}` for a body that is not JSON.
            let post = Request<Data>(
                path: "/notes", method: .post, body: .data(Data("{not json".utf8), contentType: "application/json"))
            let bad = try #require(await sendExpectingError(post, on: client(baseURL)))
            #expect(bad.status?.code == 400)
            let message = try #require((bad.statusFailure?.apiError as? APIProblem)?.message, "\(bad)")
            #expect(bad.message == "\(message) (400)")
            #expect(!bad.message.hasPrefix("The server answered"))
        }
    }

    @Test func aRakuten404AndTooManyRequestsDecodeAsAPIErrors() async throws {
        try await withSocketApp(rakutenRateLimit: true) { baseURL, _ in
            let client = client(baseURL) { $0.apiErrorDecoder = .json(RakutenErrorBody.self) }
            let unknown = Request<Data>(
                path: "/services/api/IchibaItem/Search/20990101", query: [("applicationId", "1")])
            let notFound = try #require(await sendExpectingError(unknown, on: client))
            #expect(notFound.status?.code == 404)
            #expect((notFound.statusFailure?.apiError as? RakutenErrorBody)?.error == "not_found")

            // Three at once for one application id (different keywords, so the client does not share them as one
            // transfer): the server takes one per second, so some are refused.
            let outcomes = await withTaskGroup(of: HTTPError?.self) { group in
                for keyword in ["tea", "coffee", "camera"] {
                    let search = Request<Data>(
                        path: "/services/api/IchibaItem/Search/20220601",
                        query: [("applicationId", "2"), ("keyword", keyword)])
                    group.addTask { await sendExpectingError(search, on: client) }
                }
                var outcomes: [HTTPError?] = []
                for await outcome in group { outcomes.append(outcome) }
                return outcomes
            }
            let limited = try #require(outcomes.compactMap { $0 }.first)
            #expect(limited.status?.code == 429)
            #expect((limited.statusFailure?.apiError as? RakutenErrorBody)?.error == "too_many_requests")
        }
    }

    @Test func aBodyThatIsNotAnAPIErrorLeavesItNil() async throws {
        try await withSocketREST { baseURL, _ in
            let client = client(baseURL) { $0.apiErrorDecoder = .json(RakutenErrorBody.self) }
            let error = try #require(await sendExpectingError(Request<Data>(path: "/posts/999999"), on: client))
            #expect(error.statusFailure?.status.code == 404)
            #expect(error.statusFailure?.apiError == nil)
            #expect(error.message == "The server answered 404 Not Found.")
        }
    }

    @Test func wrongTypesAreADecodingFailureWithTheCodingPath() async throws {
        try await withSocketREST { baseURL, _ in
            let one = try #require(
                await sendExpectingError(Request<PostWithNumericTitle>(path: "/posts/1"), on: client(baseURL)))
            let failure = try #require(one.decodingFailure, "\(one)")
            #expect(failure.codingPath == "title")
            #expect(failure.bodyExcerpt.contains("\"title\""))
            #expect(failure.underlying is DecodingError)

            let list = Request<[PostWithNumericTitle]>(path: "/posts", query: [("_limit", "3")])
            let many = try #require(await sendExpectingError(list, on: client(baseURL)))
            #expect(many.decodingFailure?.codingPath == "[0].title")
            #expect(many.message == "The server's answer could not be read.")
        }
    }

    @Test func malformedJSONIsADecodingFailure() async throws {
        try await withSocketServer(answering: .json(text: #"{"id": 1, "title": "#)) { server in
            let error = try #require(
                await sendExpectingError(Request<SocketPost>(path: "/broken"), on: client(server.baseURL)))
            let failure = try #require(error.decodingFailure, "\(error)")
            #expect(failure.bodyExcerpt == #"{"id": 1, "title": "#)
            #expect(server.log.count("/broken") == 1)
        }
    }

    @Test func anImageIsNotJSON() async throws {
        try await withSocketApp { baseURL, _ in
            let error = try #require(
                await sendExpectingError(Request<SocketPost>(path: "/images/photo-1"), on: client(baseURL)))
            let failure = try #require(error.decodingFailure, "\(error)")
            #expect(failure.reason.contains("image/png"))
            // The same body read as Data is fine.
            let image = try await client(baseURL).send(Request<Data>(path: "/images/photo-1"))
            #expect(image.data.starts(with: [0x89, 0x50, 0x4E, 0x47]))
        }
    }

    @Test func anAnnouncedBodyOverTheLimitIsTooLarge() async throws {
        try await withSocketREST { baseURL, _ in
            let client = client(baseURL) { $0.maximumResponseSize = 1000 }
            let error = try #require(await sendExpectingError(Request<Data>(path: "/posts"), on: client))
            guard case .responseTooLarge(let limit) = error.kind else {
                Issue.record("expected responseTooLarge, got \(error)")
                return
            }
            #expect(limit == 1000)
            // A small body under the same limit is fine.
            let small = try await client.send(Request<SocketPost>(path: "/posts/1"))
            #expect(small.value.id == 1)
        }
    }

    @Test func aStreamedBodyOverTheLimitIsTooLarge() async throws {
        let routes: Routes = { _, _ in
            let (stream, continuation) = AsyncStream<[UInt8]>.makeStream()
            for _ in 0..<20 { continuation.yield([UInt8](repeating: UInt8(ascii: "x"), count: 1000)) }
            continuation.finish()
            return HTTPResponse(headers: ["Content-Type": "text/plain"], stream: stream)
        }
        try await withSocketServer(routes) { server in
            let client = client(server.baseURL) { $0.maximumResponseSize = 5000 }
            let error = try #require(await sendExpectingError(Request<Data>(path: "/chunked"), on: client))
            guard case .responseTooLarge(let limit) = error.kind else {
                Issue.record("expected responseTooLarge, got \(error)")
                return
            }
            #expect(limit == 5000)
        }
    }

    @Test func aSubSecondTimeoutEndsWellBeforeTheLatency() async throws {
        try await withSocketServer(answering: .json(text: "{}")) { server in
            let client = client(server.baseURL) { $0.timeout = .milliseconds(300) }
            let start = ContinuousClock.now
            let request = Request<Data>(path: "/slow", headers: ["X-Tether-Fault": "latency=60s"])
            let error = try #require(await sendExpectingError(request, on: client))
            let elapsed = ContinuousClock.now - start
            guard case .timeout(.request(let limit)) = error.kind else {
                Issue.record("expected a request timeout, got \(error)")
                return
            }
            #expect(limit == .milliseconds(300))
            #expect(elapsed < .seconds(30), "a generous bound: the latency is 60 s")
            #expect(error.message == "The server took too long to answer.")
        }
    }

    @Test func cancellingTheTaskIsCancelledNotAURLError() async throws {
        let gate = Gate()
        let routes: Routes = { _, _ in
            await gate.wait()
            return .json(text: "{}")
        }
        try await withSocketServer(routes) { server in
            let client = client(server.baseURL)
            let task = Task { await sendExpectingError(Request<Data>(path: "/held"), on: client) }
            #expect(await server.log.wait(for: 1, on: "/held"))
            task.cancel()
            let error = try #require(await task.value)
            gate.open()
            #expect(error.isCancellation, "\(error)")
            #expect(error.message == "The request was cancelled.")
        }
    }

    @Test func aBadHeaderIsAnInvalidRequestThatNeverGoesOut() async throws {
        try await withSocketServer(answering: .json(text: "{}")) { server in
            let request = Request<Data>(path: "/x", headers: ["X-Bad": "a\r\nInjected: yes"])
            let error = try #require(await sendExpectingError(request, on: client(server.baseURL)))
            guard case .invalidRequest(let reason) = error.kind else {
                Issue.record("expected invalidRequest, got \(error)")
                return
            }
            #expect(reason.contains("X-Bad"))
            #expect(error.attempts == 0)
            #expect(server.log.requests.isEmpty)
        }
    }

    @Test func cacheOnlyWithNothingStoredIsNotCached() async throws {
        try await withSocketServer(answering: .json(text: "{}")) { server in
            let client = client(server.baseURL) { $0.cache = HTTPCache() }
            var request = Request<Data>(path: "/x")
            request.cachePolicy = .cacheOnly
            let error = try #require(await sendExpectingError(request, on: client))
            guard case .notCached = error.kind else {
                Issue.record("expected notCached, got \(error)")
                return
            }
            #expect(server.log.requests.isEmpty)
        }
    }

    @Test
    func aGETWithABodyIsRefusedBeforeSending() async throws {
        try await withSocketServer(answering: .json(text: "{}")) { server in
            let request = Request<Data>(path: "/x", body: .json(["a": 1] as JSON))
            let error = try #require(await sendExpectingError(request, on: HTTPClient(baseURL: server.baseURL)))
            guard case .invalidRequest = error.kind else {
                Issue.record("expected invalidRequest, got \(error)")
                return
            }
            #expect(error.attempts == 0)
            #expect(server.log.requests.isEmpty)
        }
    }
}
