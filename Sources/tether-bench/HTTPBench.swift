internal import Foundation
internal import Synchronization
internal import TetherAPIs
internal import TetherHTTP
internal import TetherHTTP1
internal import TetherJSON
internal import TetherServer
internal import TetherSync

#if canImport(FoundationNetworking)
    internal import FoundationNetworking
#endif
#if canImport(Glibc)
    internal import Glibc
#elseif canImport(Darwin)
    internal import Darwin
#endif

/// `tether-bench http`: ``HTTPClient`` against raw `URLSession` on loopback, its cache hits, and coalescing.
///
/// One ``HTTPServer`` on 127.0.0.1 serves a small post (`/post`, 275 bytes of JSON, `Cache-Control: max-age=3600`)
/// and, for coalescing, the same post after 200 ms (`/slow`), counting the requests it receives. Cases, one line
/// each as `http <case> <value> <unit> <ratio>` (see Docs/Benchmarks.md):
/// - `urlsession-get`, `client-get` (wall clock) and `urlsession-get-cpu`, `client-get-cpu` (CPU time of the whole
///   process): sequential GETs of `/post`, 2,000 each (`--quick` 300) in 20 (6) interleaved rounds of 100 (50),
///   which side goes first alternating, both sides decoding the same `Post` (TetherAPIs') with the same
///   `TetherJSONDecoder`; µs per request, the median of the rounds. The ratio of `client-get-cpu`, judged against
///   the target client ≤ 1.10 × URLSession, is the median of the per-round ratios (client's CPU / URLSession's in
///   the same round): CPU time does not count the time the process waits for a core on a shared machine, and the
///   per-round ratio cancels load that changes between rounds.
/// - `memory-hit` and `memory-hit-p99`: `send` answered by a fresh entry in the memory tier, each timed on its
///   own; ratio = this / URLSession's network GET (target median ≤ 20 µs). `disk-hit` and `disk-hit-p99`: the
///   same with the memory tier off.
/// - `coalesced`: 100 concurrent identical GETs of `/slow`; requests the server saw, ratio = that / 100 (target 1).
///
/// - On Linux, ``NativeTransport`` against URLSession (`sequential`, `sequential-cpu`, `concurrent-64`) and, over
///   HTTPS, against curl (`https-sequential-cpu`, `https-handshake-cpu`; see ``compareHTTPS(quick:)``).
///   `TETHER_BENCH_HTTP_ONLY=https` runs the HTTPS part alone, `TETHER_BENCH_HTTP_ONLY=transports` the transports
///   and the comparison with curl over http (`sequential-client-cpu`, `sequential curl`; see
///   ``compareHTTPWithCurl(base:quick:urlSessionRate:)``).
///
/// Standard error gets each round's figures, the same GET through the client's layers one at a time
/// (`# breakdown`), and the client's own work per `send` over a transport that answers at once (`# pipeline`).
enum HTTPBench {
    static func run(_ options: BenchOptions) -> Int32 {
        let started = Bench.now()
        let result = Result { () throws -> Figures in
            try runBlocking { () async throws -> Figures in try await measure(options) }
        }
        switch result {
        case .failure(let error):
            Bench.note("# FAILED: \(error)")
            return 1
        case .success(let figures):
            let pass =
                figures.ratio <= 1.10 && figures.memoryHitMedian <= 20 && figures.coalesced == 1
                && figures.staleHitRatio <= 1.10 && figures.diskHitP99 <= 100 && figures.native.pass
            Bench.emit(
                "http summary client-vs-urlsession=\(Bench.format(figures.ratio, 3))x"
                    + " memory-hit=\(Bench.format(figures.memoryHitMedian, 1))us coalesced=\(figures.coalesced)/100"
                    + " swr-hit=\(Bench.format(figures.staleHitRatio, 2))x-fresh"
                    + " disk-hit-p99=\(Bench.format(figures.diskHitP99, 1))us \(figures.native.summary)"
                    + " targets: ratio<=1.10 memory-hit<=20us coalesced==1 swr-hit<=1.10x disk-hit-p99<=100us"
                    + " native-pace>=1x native-cpu<=1.2x native-https-cpu<=1.3x \(pass ? "PASS" : "FAIL")")
            Bench.note("# total \(Bench.format(Bench.now() - started, 1)) s")
            return options.check && !pass ? 1 : 0
        }
    }

    /// The figures the summary judges.
    struct Figures: Sendable {
        var ratio: Double
        var memoryHitMedian: Double
        var coalesced: Int
        /// A stale-while-revalidate hit's median against a fresh memory hit's.
        var staleHitRatio = 0.0
        var diskHitP99 = 0.0
        var native = NativeFigures()
    }

    /// The native transport against curl; `nil` when not measured (no curl or openssl: the summary cannot pass).
    struct NativeFigures: Sendable {
        /// Sequential requests per second, native / curl (target ≥ 1).
        var paceToCurl: Double?
        /// Client CPU per request over http, native / curl (target ≤ 1.2).
        var cpuToCurl: Double?
        /// Client CPU per request over https, native / curl (target ≤ 1.3).
        var httpsCPUToCurl: Double?

        var pass: Bool {
            guard let paceToCurl, let cpuToCurl, let httpsCPUToCurl else { return false }
            return paceToCurl >= 1 && cpuToCurl <= 1.2 && httpsCPUToCurl <= 1.3
        }

        var summary: String {
            func show(_ value: Double?) -> String { value.map { Bench.format($0, 2) + "x" } ?? "SKIP" }
            return "native-pace=\(show(paceToCurl))-curl native-cpu=\(show(cpuToCurl))-curl"
                + " native-https-cpu=\(show(httpsCPUToCurl))-curl"
        }
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
        let rounds = options.quick ? 6 : 20
        let perRound = options.quick ? 50 : 100
        // The client over URLSession, against URLSession alone: the client's own overhead over its transport (the
        // default transport on Linux is the native one, measured against URLSession below).
        let client = HTTPClient(baseURL: base) {
            $0.retryPolicy = .never
            $0.transport = URLSessionTransport()
        }
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
        #if os(Linux)
            switch ProcessInfo.processInfo.environment["TETHER_BENCH_HTTP_ONLY"] {
            case "https":
                _ = try await compareHTTPS(quick: options.quick)
                return Figures(ratio: 0, memoryHitMedian: 0, coalesced: 0)
            case "transports":
                let rates = try await compareTransports(base: base, request: request, quick: options.quick)
                _ = try await compareHTTPWithCurl(base: base, quick: options.quick, urlSessionRate: rates.urlSession)
                return Figures(ratio: 0, memoryHitMedian: 0, coalesced: 0)
            default: break
            }
        #endif
        for _ in 0..<(options.quick ? 20 : 100) {
            try await viaURLSession()
            try await viaClient()
        }
        if let side = ProcessInfo.processInfo.environment["TETHER_BENCH_HTTP_PROFILE"] {
            try await profile(side, base: base, request: request, viaClient: viaClient, viaURLSession: viaURLSession)
            return Figures(ratio: 0, memoryHitMedian: 0, coalesced: 0)
        }
        let timings = try await timeRounds([viaURLSession, viaClient], rounds: rounds, perRound: perRound)
        let (sessionTiming, clientTiming) = (timings[0], timings[1])
        // The median of the per-round ratios: both sides of a round ran back to back under the same load, so a
        // change of load between rounds cancels out, and a round disturbed on one side only is an outlier.
        let roundRatios = zip(clientTiming.cpuRounds, sessionTiming.cpuRounds).map { $0 / $1 }
        let ratio = Bench.median(roundRatios)
        Bench.note(
            "# sequential rounds, wall µs/request: urlsession \(sessionTiming.wallRounds.map { Bench.format($0, 0) })"
                + " client \(clientTiming.wallRounds.map { Bench.format($0, 0) })")
        Bench.note(
            "# sequential rounds, CPU ratio client/urlsession: \(roundRatios.map { Bench.format($0, 3) });"
                + " median \(Bench.format(ratio, 3)), ratio of the medians \(Bench.format(clientTiming.cpu / sessionTiming.cpu, 3))"
        )
        line("urlsession-get", sessionTiming.wall, "us", 1)
        line("client-get", clientTiming.wall, "us", clientTiming.wall / sessionTiming.wall)
        line("urlsession-get-cpu", sessionTiming.cpu, "us", 1)
        line("client-get-cpu", clientTiming.cpu, "us", ratio)
        try await breakdown(base: base, session: session, rounds: rounds, perRound: perRound)
        try await pipelineOverhead(count: options.quick ? 2_000 : 20_000)

        // (b) Cache hits: a fresh entry in memory, then on disk with the memory tier off.
        let hits = options.quick ? 2_000 : 20_000
        let memoryClient = HTTPClient(baseURL: base) { $0.cache = HTTPCache(configuration: .init()) }
        let memoryTimes = try await timeHits(memoryClient, request, count: hits)
        let memoryMedian = Bench.median(memoryTimes)
        line("memory-hit", memoryMedian, "us", memoryMedian / sessionTiming.wall)
        line("memory-hit-p99", percentile(memoryTimes, 0.99), "us", percentile(memoryTimes, 0.99) / sessionTiming.wall)

        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("tether-bench-http-\(UUID())")
        defer { try? FileManager.default.removeItem(at: directory) }
        let diskClient = HTTPClient(baseURL: base) {
            $0.cache = HTTPCache(configuration: .init(memoryCostLimit: 0, directory: directory))
        }
        let diskTimes = try await timeHits(diskClient, request, count: hits / 10)
        line("disk-hit", Bench.median(diskTimes), "us", Bench.median(diskTimes) / sessionTiming.wall)
        line("disk-hit-p99", percentile(diskTimes, 0.99), "us", percentile(diskTimes, 0.99) / sessionTiming.wall)

        // A stale-while-revalidate hit: the stored response at once, a background revalidation started (one at a
        // time, coalesced); against the fresh memory hit above.
        let swrClient = HTTPClient(baseURL: base) { $0.cache = HTTPCache(configuration: .init()) }
        let swrTimes = try await timeHits(swrClient, Request<Post>(path: "/post-swr"), count: hits)
        let swrMedian = Bench.median(swrTimes)
        line("swr-hit", swrMedian, "us", swrMedian / memoryMedian)
        line(
            "swr-hit-p99", percentile(swrTimes, 0.99), "us", percentile(swrTimes, 0.99) / percentile(memoryTimes, 0.99))

        // The disk tier's size limit under 10,000 stores of distinct URLs (about 600 bytes each, 2 MiB limit).
        try await diskLimit(base: base, stores: options.quick ? 2_000 : 10_000)

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

        // (d) The transports, through the client: sequential GETs on one keep-alive connection, then batches of
        // concurrent GETs over the pool.
        #if os(Linux)
            let rates = try await compareTransports(base: base, request: request, quick: options.quick)
            let curl = try await compareHTTPWithCurl(
                base: base, quick: options.quick, urlSessionRate: rates.urlSession)
            // (e) HTTPS: the native transport against curl.
            let https = try await compareHTTPS(quick: options.quick)
            let native = NativeFigures(
                paceToCurl: curl.map { rates.native / $0.curlRate }, cpuToCurl: curl?.cpuRatio, httpsCPUToCurl: https)
        #else
            let native = NativeFigures()
        #endif
        return Figures(
            ratio: ratio, memoryHitMedian: memoryMedian, coalesced: coalesced, staleHitRatio: swrMedian / memoryMedian,
            diskHitP99: percentile(diskTimes, 0.99), native: native)
    }

    /// Hidden, for a profiler (`TETHER_BENCH_HTTP_PROFILE=<side> perf record -g …`): 20,000 GETs of one side
    /// alone (`TETHER_BENCH_HTTP_PROFILE_COUNT` changes the number), then the CPU time per call on standard error.
    /// Sides: `urlsession`, `client`, `client-uncoalesced`, `transport` (`URLSessionTransport.send` alone),
    /// `pipeline` (300,000 sends over a transport that answers at once), `native` (the client on
    /// ``NativeTransport``, as the `sequential` case sends; Linux).
    static func profile(
        _ side: String, base: URL, request: Request<Post>, viaClient: () async throws -> Void,
        viaURLSession: () async throws -> Void
    ) async throws {
        let instant = HTTPClient(baseURL: base) {
            $0.retryPolicy = .never
            $0.transport = InstantTransport()
        }
        let uncoalesced = HTTPClient(baseURL: base) {
            $0.retryPolicy = .never
            $0.coalescesRequests = false
        }
        let transport = URLSessionTransport()
        #if os(Linux)
            let native = HTTPClient(baseURL: base) {
                $0.transport = NativeTransport()
                $0.retryPolicy = .never
                $0.coalescesRequests = false
            }
        #endif
        let wire = TransportRequest(
            method: .get, url: base.appendingPathComponent("post"), headers: ["Accept": "application/json"])
        let count =
            ProcessInfo.processInfo.environment["TETHER_BENCH_HTTP_PROFILE_COUNT"].flatMap { Int($0) }
            ?? (side == "pipeline" ? 300_000 : 20_000)
        let cpuStart = processCPUTime()
        let wallStart = ContinuousClock.now
        for _ in 0..<count {
            switch side {
            case "pipeline": blackHole(try await instant.send(request).value)
            case "client": try await viaClient()
            case "client-uncoalesced": blackHole(try await uncoalesced.send(request).value)
            case "transport": blackHole(try await transport.send(wire, progress: nil).body)
            #if os(Linux)
                case "native": blackHole(try await native.send(request).value)
            #endif
            default: try await viaURLSession()
            }
        }
        let perCall = (processCPUTime() - cpuStart) * 1e6 / Double(count)
        let wallPerCall = microseconds(ContinuousClock.now - wallStart) / Double(count)
        Bench.note(
            "# profile \(side): \(Bench.format(perCall, 2)) µs CPU, \(Bench.format(wallPerCall, 2)) µs wall per call")
    }

    /// Where the client's time goes, on standard error: the same GET through the layers one at a time (raw
    /// URLSession with a delegate as the transport has, the transport alone, the client without coalescing,
    /// the whole client), each in interleaved rounds as above.
    static func breakdown(base: URL, session: URLSession, rounds: Int, perRound: Int) async throws {
        let url = base.appendingPathComponent("post")
        let transport = URLSessionTransport()
        let uncoalesced = HTTPClient(baseURL: base) {
            $0.retryPolicy = .never
            $0.coalescesRequests = false
        }
        let client = HTTPClient(baseURL: base) { $0.retryPolicy = .never }
        let request = Request<Data>(path: "/post")
        let wire = TransportRequest(method: .get, url: url, headers: ["Accept": "application/json"])
        let stages: [(String, () async throws -> Void)] = [
            ("urlsession data(for:)", { blackHole(try await session.data(for: URLRequest(url: url)).0) }),
            ("URLSessionTransport.send", { blackHole(try await transport.send(wire, progress: nil).body) }),
            ("client, no coalescing, Data", { blackHole(try await uncoalesced.send(request).data) }),
            ("client, Data", { blackHole(try await client.send(request).data) }),
        ]
        for (_, stage) in stages {
            for _ in 0..<20 { try await stage() }
        }
        let timings = try await timeRounds(stages.map(\.1), rounds: rounds, perRound: perRound)
        for (stage, timing) in zip(stages, timings) {
            Bench.note(
                "# breakdown \(stage.0): \(Bench.format(timing.wall, 1)) µs wall, \(Bench.format(timing.cpu, 1)) µs CPU"
            )
        }
    }

    /// The client's own work per `send`, with the network taken out: a transport that answers at once.
    static func pipelineOverhead(count: Int) async throws {
        let base = URL(string: "http://127.0.0.1:9")!
        let coalescing = HTTPClient(baseURL: base) {
            $0.retryPolicy = .never
            $0.transport = InstantTransport()
        }
        let direct = HTTPClient(baseURL: base) {
            $0.retryPolicy = .never
            $0.coalescesRequests = false
            $0.transport = InstantTransport()
        }
        let post = Request<Post>(path: "/post")
        let data = Request<Data>(path: "/post")
        let cases: [(String, () async throws -> Void)] = [
            ("instant transport, Post", { blackHole(try await coalescing.send(post).value) }),
            ("instant transport, Data", { blackHole(try await coalescing.send(data).value) }),
            ("instant transport, Data, no coalescing", { blackHole(try await direct.send(data).value) }),
            (
                "decode Post alone",
                { blackHole(try TetherJSONDecoder().decode(Post.self, from: InstantTransport.body)) }
            ),
        ]
        for (name, body) in cases {
            for _ in 0..<(count / 10) { try await body() }
            var times: [Double] = []
            for _ in 0..<count {
                let start = ContinuousClock.now
                try await body()
                times.append(microseconds(ContinuousClock.now - start))
            }
            Bench.note("# pipeline \(name): median \(Bench.format(Bench.median(times), 1)) µs per send")
        }
    }

    /// Answers every request at once with the small post.
    struct InstantTransport: HTTPTransport {
        static let body = Data(PostResponder.body)

        func send(
            _ request: TransportRequest, progress: (@Sendable (TransferProgress) -> Void)?
        ) async throws -> TransportResponse {
            TransportResponse(
                status: .ok, headers: ["Content-Type": "application/json; charset=utf-8", "Content-Length": "275"],
                body: Self.body, url: request.url)
        }
    }

    /// Medians of rounds of one body.
    struct Timing {
        /// Wall-clock µs per call of each round.
        var wallRounds: [Double]
        /// The median of `wallRounds`.
        var wall: Double
        /// Process CPU µs per call of each round (all threads: the client's, URLSession's and the server's).
        var cpuRounds: [Double]
        /// The median of `cpuRounds`.
        var cpu: Double
    }

    #if os(Linux)
        /// `http <case> <contender> <value> <unit> <ratio>` lines for ``NativeTransport`` against
        /// ``URLSessionTransport``, both under an ``HTTPClient`` without retries or coalescing: `sequential`
        /// (2,000 GETs one after another, `--quick` 300; requests per second, ratio = native / URLSession) and its
        /// CPU time per request (`sequential-cpu`, ratio = native / URLSession, lower is better), and
        /// `concurrent-64` (batches of 64 concurrent GETs, 20 batches, `--quick` 5; requests per second).
        /// The sequential runs alternate between the contenders, three each; each figure is the median of its
        /// three. Returns URLSession's sequential requests per second, for the curl line
        /// (``compareHTTPWithCurl(base:quick:urlSessionRate:)``).
        static func compareTransports(
            base: URL, request: Request<Post>, quick: Bool
        ) async throws -> (urlSession: Double, native: Double) {
            func client(_ transport: any HTTPTransport) -> HTTPClient {
                HTTPClient(baseURL: base) {
                    $0.transport = transport
                    $0.retryPolicy = .never
                    $0.coalescesRequests = false
                }
            }
            let contenders: [(String, HTTPClient)] = [
                ("urlsession", client(URLSessionTransport())), ("native", client(NativeTransport())),
            ]
            let count = quick ? 300 : 2_000
            for (_, client) in contenders {
                for _ in 0..<50 { blackHole(try await client.send(request).value) }
            }
            var rates = Array(repeating: [Double](), count: contenders.count)
            var cpus = Array(repeating: [Double](), count: contenders.count)
            for _ in 0..<3 {
                for (index, (_, client)) in contenders.enumerated() {
                    let start = ContinuousClock.now
                    let cpuStart = processCPUTime()
                    for _ in 0..<count { blackHole(try await client.send(request).value) }
                    let wall = microseconds(ContinuousClock.now - start) / 1e6
                    rates[index].append(Double(count) / wall)
                    cpus[index].append((processCPUTime() - cpuStart) * 1e6 / Double(count))
                }
            }
            Bench.note(
                "# sequential req/s: "
                    + contenders.indices.map { "\(contenders[$0].0) \(rates[$0].map { Bench.format($0, 0) })" }
                    .joined(separator: ", "))
            let sequential = contenders.indices.map {
                (rate: Bench.median(rates[$0]), cpu: Bench.median(cpus[$0]))
            }
            // Three runs per side, alternating which goes first; the median of each side's runs.
            let batches = quick ? 5 : 20
            var concurrentRuns = Array(repeating: [Double](), count: contenders.count)
            for run in 0..<3 {
                for offset in contenders.indices {
                    let index = (run + offset) % contenders.count
                    let client = contenders[index].1
                    let start = ContinuousClock.now
                    for _ in 0..<batches {
                        try await withThrowingTaskGroup(of: Void.self) { group in
                            for _ in 0..<64 { group.addTask { blackHole(try await client.send(request).value) } }
                            try await group.waitForAll()
                        }
                    }
                    concurrentRuns[index].append(
                        Double(batches * 64) / (microseconds(ContinuousClock.now - start) / 1e6))
                }
            }
            let concurrent = concurrentRuns.map { Bench.median($0) }
            for (index, (name, _)) in contenders.enumerated() {
                Bench.emit(
                    "http sequential \(name) \(Bench.format(sequential[index].rate, 0)) req/s"
                        + " \(Bench.format(sequential[index].rate / sequential[0].rate, 3))")
            }
            for (index, (name, _)) in contenders.enumerated() {
                Bench.emit(
                    "http sequential-cpu \(name) \(Bench.format(sequential[index].cpu, 1)) us"
                        + " \(Bench.format(sequential[index].cpu / sequential[0].cpu, 3))")
            }
            for (index, (name, _)) in contenders.enumerated() {
                Bench.emit(
                    "http concurrent-64 \(name) \(Bench.format(concurrent[index], 0)) req/s"
                        + " \(Bench.format(concurrent[index] / concurrent[0], 3))")
            }
            return (sequential[0].rate, sequential[1].rate)
        }
    #endif

    /// Runs each of `bodies` `perRound` times per round for `rounds` rounds, rotating which goes first; each
    /// round's CPU time includes a 10 ms quiet gap after it (its wall time does not).
    static func timeRounds(
        _ bodies: [() async throws -> Void], rounds: Int, perRound: Int
    ) async throws -> [Timing] {
        var wall = Array(repeating: [Double](), count: bodies.count)
        var cpu = Array(repeating: [Double](), count: bodies.count)
        for round in 0..<rounds {
            for offset in bodies.indices {
                let index = (round + offset) % bodies.count
                let start = ContinuousClock.now
                let cpuStart = processCPUTime()
                for _ in 0..<perRound { try await bodies[index]() }
                wall[index].append(microseconds(ContinuousClock.now - start) / Double(perRound))
                // A quiet gap before reading the CPU clock: what a side leaves running (connection housekeeping,
                // threads winding down) is charged to its own round, not to the next side's.
                try await Task.sleep(for: .milliseconds(10))
                cpu[index].append((processCPUTime() - cpuStart) * 1e6 / Double(perRound))
            }
        }
        return bodies.indices.map { index in
            Timing(
                wallRounds: wall[index], wall: Bench.median(wall[index]), cpuRounds: cpu[index],
                cpu: Bench.median(cpu[index]))
        }
    }

    /// CPU seconds used by the whole process so far.
    static func processCPUTime() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) * 1e-9
    }

    /// Stores `stores` responses for distinct URLs in a disk-only cache with a 2 MiB limit, through the client
    /// (writes queued in the background as an app's are), then flushes: prints the time per store, the flush,
    /// the disk size against the limit and the files left.
    static func diskLimit(base: URL, stores: Int) async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("tether-bench-evict-\(UUID())")
        defer { try? FileManager.default.removeItem(at: directory) }
        let limit = 2 << 20
        let cache = HTTPCache(configuration: .init(memoryCostLimit: 0, directory: directory, diskSizeLimit: limit))
        let client = HTTPClient(baseURL: base) { $0.cache = cache }
        let start = ContinuousClock.now
        for index in 0..<stores {
            blackHole(try await client.send(Request<Post>(path: "/posts", query: [("id", String(index))])).value)
        }
        let sent = ContinuousClock.now
        cache.flush()
        let flushed = ContinuousClock.now
        let files = (try? FileManager.default.contentsOfDirectory(atPath: directory.path))?.count ?? 0
        line("disk-10k-store", microseconds(sent - start) / Double(stores), "us", 1)
        line("disk-10k-flush", microseconds(flushed - sent) / 1000, "ms", 1)
        line("disk-10k-size", Double(cache.diskSize) / 1024, "KiB", Double(cache.diskSize) / Double(limit))
        Bench.note("# disk limit: \(stores) stores, \(files) files left, size \(cache.diskSize) of \(limit) bytes")
        guard cache.diskSize <= limit else {
            throw Unavailable(description: "the disk tier holds \(cache.diskSize) bytes, over its \(limit) limit")
        }
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
            var cacheControl = "max-age=3600"
            switch request.path {
            case "/post", "/posts": break
            case "/post-swr":
                // Stale at once, servable stale for a day while revalidating: every hit is a stale hit.
                if request.headers["If-None-Match"] == #""1""# {
                    return HTTPResponse(
                        status: .notModified,
                        headers: ["Cache-Control": "max-age=0, stale-while-revalidate=86400", "ETag": #""1""#])
                }
                cacheControl = "max-age=0, stale-while-revalidate=86400"
            case "/slow":
                counter.increment()
                try? await Task.sleep(for: .milliseconds(200))
            default: return nil
            }
            return HTTPResponse(
                status: .ok,
                headers: [
                    "Content-Type": "application/json; charset=utf-8", "Cache-Control": cacheControl, "ETag": #""1""#,
                ],
                body: Self.body)
        }
    }
}
