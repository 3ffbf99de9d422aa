internal import Foundation
internal import Synchronization
internal import TetherHTTP
internal import TetherHTTP1
internal import TetherJSON
internal import TetherServer

#if canImport(FoundationNetworking)
    internal import FoundationNetworking
#endif

/// `tether-bench http`: ``HTTPClient`` against raw `URLSession` on loopback, its cache hits, and coalescing.
///
/// One ``HTTPServer`` on 127.0.0.1 serves a small post (`/post`, 292 bytes of JSON, `Cache-Control: max-age=3600`)
/// and, for coalescing, the same post after 200 ms (`/slow`), counting the requests it receives. Cases, one line
/// each as `http <case> <value> <unit> <ratio>`:
/// - `urlsession-get` and `client-get`: sequential GETs of `/post` (2,000 each; `--quick` 300), both decoding the
///   same `Post` (Models.swift) with the same `TetherJSONDecoder`, in interleaved rounds; µs per request, the
///   median of the rounds' means; ratio = this / URLSession's (target ≤ 1.10).
/// - `memory-hit` and `memory-hit-p99`: `send` answered by a fresh entry in the memory tier; ratio = this /
///   URLSession's network GET (target median ≤ 20 µs). `disk-hit` and `disk-hit-p99`: the same with the memory
///   tier off.
/// - `coalesced`: 100 concurrent identical GETs of `/slow`; requests the server saw, ratio = that / 100 (target 1).
enum HTTPBench {
    static func run(_ options: BenchOptions) -> Int32 {
        let started = Bench.now()
        let result = blocking { try await measure(options) }
        switch result {
        case .failure(let error):
            Bench.note("# FAILED: \(error)")
            return 1
        case .success(let figures):
            let pass = figures.ratio <= 1.10 && figures.memoryHitMedian <= 20 && figures.coalesced == 1
            Bench.emit(
                "http summary client-vs-urlsession=\(Bench.format(figures.ratio, 3))x"
                    + " memory-hit=\(Bench.format(figures.memoryHitMedian, 1))us coalesced=\(figures.coalesced)/100"
                    + " targets: ratio<=1.10 memory-hit<=20us coalesced==1 \(pass ? "PASS" : "FAIL")")
            Bench.note("# total \(Bench.format(Bench.now() - started, 1)) s")
            return options.check && !pass ? 1 : 0
        }
    }

    /// The figures the summary judges.
    struct Figures: Sendable {
        var ratio: Double
        var memoryHitMedian: Double
        var coalesced: Int
    }

    static func measure(_ options: BenchOptions) async throws -> Figures {
        let counter = RequestCounter()
        let server = HTTPServer(responders: [PostResponder(counter: counter)])
        let port = try await server.start()
        let base = URL(string: "http://127.0.0.1:\(port)")!
        let session = URLSession(configuration: ephemeralWithoutCache())
        do {
            let figures = try await measure(options, base: base, session: session, counter: counter)
            session.finishTasksAndInvalidate()
            await server.stop()
            return figures
        } catch {
            session.finishTasksAndInvalidate()
            await server.stop()
            throw error
        }
    }

    static func measure(
        _ options: BenchOptions, base: URL, session: URLSession, counter: RequestCounter
    ) async throws -> Figures {
        // (a) Sequential GETs, URLSession and the client in interleaved rounds.
        let rounds = options.quick ? 6 : 10
        let perRound = options.quick ? 50 : 200
        let client = HTTPClient(baseURL: base) { $0.retryPolicy = .never }
        let decoder = TetherJSONDecoder()
        var urlRequest = URLRequest(url: base.appendingPathComponent("post"))
        urlRequest.setValue("application/json", forHTTPHeaderField: "Accept")
        let request = Request<Post>(path: "/post")

        func viaURLSession() async throws {
            let (data, response) = try await session.data(for: urlRequest)
            guard let http = response as? HTTPURLResponse, (200..<300).contains(http.statusCode) else {
                throw Unavailable(description: "URLSession: unexpected response \(response)")
            }
            blackHole(try decoder.decode(Post.self, from: data))
        }
        func viaClient() async throws {
            blackHole(try await client.send(request).value)
        }
        for _ in 0..<(options.quick ? 20 : 100) {
            try await viaURLSession()
            try await viaClient()
        }
        var sessionRounds: [Double] = []
        var clientRounds: [Double] = []
        for round in 0..<rounds {
            // Alternate which side goes first, so neither always runs in the same phase of the machine.
            for side in round % 2 == 0 ? [0, 1] : [1, 0] {
                let start = ContinuousClock.now
                for _ in 0..<perRound {
                    if side == 0 { try await viaURLSession() } else { try await viaClient() }
                }
                let micros = microseconds(ContinuousClock.now - start) / Double(perRound)
                if side == 0 { sessionRounds.append(micros) } else { clientRounds.append(micros) }
            }
        }
        let sessionMedian = percentile(sessionRounds, 0.5)
        let clientMedian = percentile(clientRounds, 0.5)
        let ratio = clientMedian / sessionMedian
        Bench.note(
            "# sequential rounds (µs/request): urlsession \(sessionRounds.map { Bench.format($0, 1) })"
                + " client \(clientRounds.map { Bench.format($0, 1) })")
        line("urlsession-get", sessionMedian, "us", 1)
        line("client-get", clientMedian, "us", ratio)

        // (b) Cache hits: a fresh entry in memory, then on disk with the memory tier off.
        let hits = options.quick ? 2_000 : 20_000
        let memoryClient = HTTPClient(baseURL: base) { $0.cache = HTTPCache(configuration: .init()) }
        let memoryTimes = try await timeHits(memoryClient, request, count: hits)
        let memoryMedian = percentile(memoryTimes, 0.5)
        line("memory-hit", memoryMedian, "us", memoryMedian / sessionMedian)
        line("memory-hit-p99", percentile(memoryTimes, 0.99), "us", percentile(memoryTimes, 0.99) / sessionMedian)

        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("tether-bench-http-\(UUID())")
        defer { try? FileManager.default.removeItem(at: directory) }
        let diskClient = HTTPClient(baseURL: base) {
            $0.cache = HTTPCache(configuration: .init(memoryCostLimit: 0, directory: directory))
        }
        let diskTimes = try await timeHits(diskClient, request, count: hits / 10)
        line("disk-hit", percentile(diskTimes, 0.5), "us", percentile(diskTimes, 0.5) / sessionMedian)
        line("disk-hit-p99", percentile(diskTimes, 0.99), "us", percentile(diskTimes, 0.99) / sessionMedian)

        // (c) 100 concurrent identical GETs of a slow resource.
        let before = counter.slow
        let coalescingClient = HTTPClient(baseURL: base)
        let slow = Request<Post>(path: "/slow")
        let ids = try await withThrowingTaskGroup(of: Int.self) { group in
            for _ in 0..<100 {
                group.addTask { try await coalescingClient.send(slow).value.id }
            }
            return try await group.reduce(into: [Int]()) { $0.append($1) }
        }
        guard ids.count == 100, ids.allSatisfy({ $0 == 1 }) else {
            throw Unavailable(description: "coalesced requests returned \(ids)")
        }
        let coalesced = counter.slow - before
        line("coalesced", Double(coalesced), "requests", Double(coalesced) / 100, digits: 0)
        return Figures(ratio: ratio, memoryHitMedian: memoryMedian, coalesced: coalesced)
    }

    /// Fills `client`'s cache with one network GET, then times `count` sends served by it (µs each).
    static func timeHits(_ client: HTTPClient, _ request: Request<Post>, count: Int) async throws -> [Double] {
        let first = try await client.send(request)
        guard first.source == .network else { throw Unavailable(description: "the first GET came from the cache") }
        for _ in 0..<(count / 10) { blackHole(try await client.send(request).value) }
        var times: [Double] = []
        times.reserveCapacity(count)
        for _ in 0..<count {
            let start = ContinuousClock.now
            let response = try await client.send(request)
            times.append(microseconds(ContinuousClock.now - start))
            guard response.source == .cache else {
                throw Unavailable(description: "a cache hit came from \(response.source)")
            }
        }
        return times
    }

    /// An ephemeral session with no cache and no cookies, as the client's own transport has.
    static func ephemeralWithoutCache() -> URLSessionConfiguration {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.urlCache = nil
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        configuration.httpShouldSetCookies = false
        configuration.httpCookieStorage = nil
        return configuration
    }

    /// Prints `http <name> <value> <unit> <ratio>`; values under 100 get one decimal unless `digits` says.
    static func line(_ name: String, _ value: Double, _ unit: String, _ ratio: Double, digits: Int? = nil) {
        let shown = Bench.format(value, digits ?? (value < 100 ? 1 : 0))
        Bench.emit("http \(name) \(shown) \(unit) \(Bench.format(ratio, 3))")
    }

    static func microseconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) * 1e6 + Double(duration.components.attoseconds) / 1e12
    }

    /// The value at fraction `p` of the sorted values (nearest rank).
    static func percentile(_ values: [Double], _ p: Double) -> Double {
        let sorted = values.sorted()
        guard !sorted.isEmpty else { return .nan }
        let rank = Int((Double(sorted.count) * p).rounded(.up))
        return sorted[min(sorted.count, max(1, rank)) - 1]
    }

    /// Runs `body` as a task and waits for it on this (main) thread.
    static func blocking<T: Sendable>(_ body: @escaping @Sendable () async throws -> T) -> Result<T, any Error> {
        let box = Mutex<Result<T, any Error>?>(nil)
        let done = DispatchSemaphore(value: 0)
        Task {
            let result: Result<T, any Error>
            do { result = .success(try await body()) } catch { result = .failure(error) }
            box.withLock { $0 = result }
            done.signal()
        }
        done.wait()
        return box.withLock { $0! }
    }

    /// Counts the requests for `/slow`.
    final class RequestCounter: Sendable {
        private let count = Atomic<Int>(0)

        func increment() { count.add(1, ordering: .relaxed) }

        var slow: Int { count.load(ordering: .relaxed) }
    }

    /// Serves `/post` at once and `/slow` after 200 ms (counting), both cacheable for an hour.
    struct PostResponder: HTTPResponder {
        let counter: RequestCounter

        static let body = Array(
            (#"{"userId":1,"id":1,"title":"sunt aut facere repellat provident occaecati excepturi optio "#
                + #"reprehenderit","body":"quia et suscipit\nsuscipit recusandae consequuntur expedita et cum\n"#
                + #"reprehenderit molestiae ut ut quas totam\nnostrum rerum est autem sunt rem eveniet architecto"}"#)
                .utf8)

        func respond(to request: HTTPRequest) async -> HTTPResponse? {
            switch request.path {
            case "/post": break
            case "/slow":
                counter.increment()
                try? await Task.sleep(for: .milliseconds(200))
            default: return nil
            }
            return HTTPResponse(
                status: .ok,
                headers: ["Content-Type": "application/json; charset=utf-8", "Cache-Control": "max-age=3600"],
                body: Self.body)
        }
    }
}
