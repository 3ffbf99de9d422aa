#if os(Linux)
    internal import Foundation
    internal import Glibc
    internal import TetherAPIs
    internal import TetherHTTP
    internal import TetherServer

    extension HTTPBench {
        /// `http <case> <contender> <value> <unit> <ratio>` lines for ``NativeTransport`` over HTTPS against curl
        /// (`/usr/bin/curl`, the same OpenSSL), CPU µs per request, ratio = native / curl:
        /// - `https-sequential-cpu`: 200 GETs of `/post` (`--quick` 50) on one kept-alive connection (curl: all the
        ///   URLs in one process, which reuses its connection);
        /// - `https-handshake-cpu`: 20 GETs (`--quick` 5), each on a new connection with a full handshake (the
        ///   requests say `Connection: close`; curl also gets `--no-sessionid`, so it resumes no session).
        ///
        /// The server is a ``HTTPServer`` with TLS in this process, its certificate made with the `openssl` command
        /// (an EC P-256 key, trusted by both contenders). curl's CPU is its child-process time
        /// (`RUSAGE_CHILDREN`) with the same command fetching one URL subtracted (its start-up). The native side's
        /// is this process's CPU time minus the server's share, which is measured while curl runs right after it
        /// (the process's CPU time then, minus that of the one-URL run): both contenders make the server do the
        /// same work. Each figure is the median of 9 runs; the ratio is the median of the per-run ratios. On a
        /// machine shared with other work the sequential case varies by tens of percent from run to run.
        /// Returns the `https-sequential-cpu` ratio, or `nil` when openssl or curl is missing (said as SKIP).
        static func compareHTTPS(quick: Bool) async throws -> Double? {
            let openssl = "/usr/bin/openssl"
            let curl = "/usr/bin/curl"
            guard FileManager.default.isExecutableFile(atPath: openssl) else {
                Bench.emit("http https-sequential-cpu SKIP (no \(openssl))")
                return nil
            }
            let directory = FileManager.default.temporaryDirectory.appendingPathComponent("tether-bench-tls-\(UUID())")
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: directory) }
            let certificate = directory.appendingPathComponent("cert.pem").path
            let key = directory.appendingPathComponent("key.pem").path
            _ = try run(
                openssl,
                [
                    "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-days", "1", "-nodes",
                    "-subj", "/CN=localhost", "-addext", "subjectAltName=DNS:localhost,IP:127.0.0.1", "-keyout", key,
                    "-out", certificate,
                ])

            var configuration = HTTPServer.Configuration()
            configuration.tls = .init(certificateFile: certificate, privateKeyFile: key)
            let server = HTTPServer(
                configuration: configuration, responders: [PostResponder(counter: RequestCounter())])
            let port = try await server.start()
            let ratio: Double?
            do {
                ratio = try await compareHTTPS(
                    port: port, certificate: certificate,
                    curl: FileManager.default.isExecutableFile(atPath: curl) ? curl : nil,
                    quick: quick)
            } catch {
                await server.stop()
                throw error
            }
            await server.stop()
            return ratio
        }

        private static func compareHTTPS(
            port: Int, certificate: String, curl: String?, quick: Bool
        ) async throws -> Double? {
            let base = URL(string: "https://127.0.0.1:\(port)")!
            var native = NativeTransport.Configuration()
            native.tls.additionalTrustedCertificates = [URL(fileURLWithPath: certificate)]
            let client = HTTPClient(baseURL: base) {
                $0.transport = NativeTransport(configuration: native)
                $0.retryPolicy = .never
                $0.coalescesRequests = false
            }
            let keepAlive = Request<Post>(path: "/post")
            var closing = Request<Post>(path: "/post")
            closing.headers.set("Connection", "close")
            let sequentialCount = quick ? 50 : 200
            let handshakeCount = quick ? 5 : 20
            for _ in 0..<20 { blackHole(try await client.send(keepAlive).value) }
            for _ in 0..<3 { blackHole(try await client.send(closing).value) }

            let url = base.appendingPathComponent("post").absoluteString
            let ratio = try await compareWithCurl(
                "https-sequential-cpu", client: client, request: keepAlive, count: sequentialCount, curl: curl,
                curlArguments: ["-sf", "--cacert", certificate], url: url)
            // Not the same work on both sides: the native transport keeps one TLS context (certificates loaded
            // once) for every connection, while curl builds one per connection. Said on the line.
            _ = try await compareWithCurl(
                "https-handshake-cpu", client: client, request: closing, count: handshakeCount, curl: curl,
                curlArguments: ["-sf", "--cacert", certificate, "--no-sessionid", "-H", "Connection: close"], url: url,
                caveat: "tls-context: native reuses one, curl builds one per connection")
            return ratio
        }

        /// `http sequential-client-cpu` (curl, then native): ``NativeTransport`` against curl over plain http, CPU µs
        /// per request of the client alone: 2,000 GETs of `/post` (`--quick` 300) on one kept-alive connection, curl
        /// fetching all the URLs in one process (its start-up subtracted), the server's share subtracted from the
        /// native side as in ``compareHTTPS(quick:)``. Also `http sequential curl <req/s> <ratio>`: curl's own pace in
        /// those runs (wall time, start-up subtracted; the median of 9), as a ratio to `urlSessionRate`, URLSession's
        /// in the `sequential` case: what a single-threaded client on libcurl reaches against the same server.
        /// Skipped without `/usr/bin/curl`.
        ///
        /// Returns curl's pace (requests per second) and the CPU ratio (native / curl), or `nil` without curl
        /// (said as SKIP).
        static func compareHTTPWithCurl(
            base: URL, quick: Bool, urlSessionRate: Double
        ) async throws -> (curlRate: Double, cpuRatio: Double)? {
            let curl = "/usr/bin/curl"
            guard FileManager.default.isExecutableFile(atPath: curl) else {
                Bench.emit("http sequential-client-cpu SKIP (no \(curl))")
                return nil
            }
            let client = HTTPClient(baseURL: base) {
                $0.transport = NativeTransport()
                $0.retryPolicy = .never
                $0.coalescesRequests = false
            }
            let request = Request<Post>(path: "/post")
            for _ in 0..<50 { blackHole(try await client.send(request).value) }
            var curlRate = Double.nan
            let ratio = try await compareWithCurl(
                "sequential-client-cpu", client: client, request: request, count: quick ? 300 : 2_000, curl: curl,
                curlArguments: ["-sf"], url: base.appendingPathComponent("post").absoluteString,
                urlSessionRate: urlSessionRate, curlRate: &curlRate)
            return ratio.map { (curlRate, $0) }
        }

        /// Runs `count` sends of `request` through `client`, then curl fetching `url` `count` times in one process,
        /// 9 times; prints the medians and the median of the per-run ratios (native / curl). Without curl, the
        /// native side's process CPU alone. Returns the ratio, `nil` without curl; `curlRate` gets curl's pace.
        private static func compareWithCurl(
            _ name: String, client: HTTPClient, request: Request<Post>, count: Int, curl: String?,
            curlArguments: [String], url: String, urlSessionRate: Double? = nil, caveat: String? = nil
        ) async throws -> Double? {
            var unused = 0.0
            return try await compareWithCurl(
                name, client: client, request: request, count: count, curl: curl, curlArguments: curlArguments,
                url: url, urlSessionRate: urlSessionRate, caveat: caveat, curlRate: &unused)
        }

        private static func compareWithCurl(
            _ name: String, client: HTTPClient, request: Request<Post>, count: Int, curl: String?,
            curlArguments: [String], url: String, urlSessionRate: Double? = nil, caveat: String? = nil,
            curlRate rate: inout Double
        ) async throws -> Double? {
            var nativeRuns: [Double] = []
            var wallRuns: [Double] = []
            var curlRuns: [Double] = []
            var serverRuns: [Double] = []
            var curlWallRuns: [Double] = []
            for _ in 0..<9 {
                let start = ContinuousClock.now
                let cpuStart = processCPUTime()
                for _ in 0..<count { blackHole(try await client.send(request).value) }
                nativeRuns.append((processCPUTime() - cpuStart) * 1e6 / Double(count))
                wallRuns.append(microseconds(ContinuousClock.now - start) / Double(count))
                guard let curl else { continue }
                let one = try timeCurl(curl, curlArguments + [url])
                let many = try timeCurl(curl, curlArguments + Array(repeating: url, count: count + 1))
                curlRuns.append((many.child - one.child) * 1e6 / Double(count))
                curlWallRuns.append((many.wall - one.wall) * 1e6 / Double(count))
                serverRuns.append((many.process - one.process) * 1e6 / Double(count))
            }
            Bench.note(
                "# \(name): native process CPU µs/request \(nativeRuns.map { Bench.format($0, 0) }),"
                    + " wall \(wallRuns.map { Bench.format($0, 0) }); server's share \(serverRuns.map { Bench.format($0, 0) });"
                    + " curl \(curlRuns.map { Bench.format($0, 0) }), wall \(curlWallRuns.map { Bench.format($0, 0) })")
            guard !curlRuns.isEmpty else {
                Bench.emit("http \(name) native \(Bench.format(Bench.median(nativeRuns), 1)) us - SKIP (no curl)")
                return nil
            }
            // Each run's native side minus the server's share in the same run, and its ratio to curl's run: the
            // median of the per-run ratios, as load that changes between runs cancels within one.
            let clientRuns = zip(nativeRuns, serverRuns).map { $0 - $1 }
            let ratios = zip(clientRuns, curlRuns).map { $0 / $1 }
            if let urlSessionRate {
                // The peer's own pace on the same server: curl's requests per second (start-up subtracted), as a
                // ratio to URLSession's in the `sequential` case.
                let curlRate = 1e6 / Bench.median(curlWallRuns)
                rate = curlRate
                Bench.emit(
                    "http sequential curl \(Bench.format(curlRate, 0)) req/s \(Bench.format(curlRate / urlSessionRate, 3))"
                )
            }
            Bench.emit("http \(name) curl \(Bench.format(Bench.median(curlRuns), 1)) us 1.000")
            Bench.emit(
                "http \(name) native \(Bench.format(Bench.median(clientRuns), 1)) us"
                    + " \(Bench.format(Bench.median(ratios), 3))" + (caveat.map { " (\($0))" } ?? ""))
            return Bench.median(ratios)
        }

        /// Runs curl with `arguments` (output discarded): the CPU seconds it used, those this process used meanwhile,
        /// and the wall-clock seconds it took.
        private static func timeCurl(
            _ curl: String, _ arguments: [String]
        ) throws -> (child: Double, process: Double, wall: Double) {
            let childStart = childrenCPUTime()
            let processStart = processCPUTime()
            let start = ContinuousClock.now
            let status = try run(curl, arguments)
            guard status == 0 else { throw Unavailable(description: "curl exited \(status)") }
            let wall = microseconds(ContinuousClock.now - start) / 1e6
            return (childrenCPUTime() - childStart, processCPUTime() - processStart, wall)
        }

        /// Runs `executable` with `arguments`, output discarded, and waits; its exit status.
        @discardableResult
        private static func run(_ executable: String, _ arguments: [String]) throws -> Int32 {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: executable)
            process.arguments = arguments
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            process.standardInput = FileHandle.nullDevice
            try process.run()
            process.waitUntilExit()
            return process.terminationStatus
        }

        /// CPU seconds used by the children this process has waited for.
        private static func childrenCPUTime() -> Double {
            var usage = rusage()
            getrusage(RUSAGE_CHILDREN.rawValue, &usage)
            return Double(usage.ru_utime.tv_sec) + Double(usage.ru_utime.tv_usec) * 1e-6
                + Double(usage.ru_stime.tv_sec) + Double(usage.ru_stime.tv_usec) * 1e-6
        }
    }
#endif
