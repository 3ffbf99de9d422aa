internal import Foundation
internal import TetherAPIs
internal import TetherJSON
internal import TetherStore

#if canImport(FoundationNetworking)
    internal import FoundationNetworking
#endif
#if canImport(Glibc)
    internal import Glibc
    internal import CMalloc
#endif

/// `tether-bench store`: the entity store against plain arrays, in one run. Cases, one line each as
/// `store <case> <value> <unit> <ratio>`:
/// - `ingest-10k`: decoding a 10,000-item Rakuten page and putting its items into a store, against decoding the
///   same bytes alone (CPU time, median of rounds); ratio = store / plain (target ≤ 1.5).
/// - `notify-100q-1000obs`: one edit to an entity that 100 queries contain, watched by 1,000 closure observers (10
///   per query): the time from the edit to the last observer's call, median of 200 edits; ratio = value / 1 ms
///   (target ≤ 1).
/// - `memory-per-entity`: heap bytes per item held by the store against an array of the decoded structs
///   (malloc's own count, `mallinfo2`); ratio = store / array (target ≤ 1.5).
@MainActor
enum StoreBench {
    static func run(_ options: BenchOptions) -> Int32 {
        // The store lives on the main actor: run the cases there, and leave from inside.
        Task { @MainActor in
            let code = await measure(options)
            exit(code)
        }
        dispatchMain()
    }

    static func measure(_ options: BenchOptions) async -> Int32 {
        let count = options.quick ? 2_000 : 10_000
        var generator = RakutenGenerator(seed: 7)
        let bytes = generator.response(items: count)
        Bench.note("# store: a \(count)-item Rakuten page, \(bytes.count / 1024) KiB")
        let decoder = TetherJSONDecoder()
        if ProcessInfo.processInfo.environment["TETHER_BENCH_STORE_CASE"] != nil {
            // Profiling one case of the database and the outbox (see StorePersistenceBench).
            let disk = await StorePersistenceBench.measure(options, page: Data(bytes), count: count)
            return disk.pass ? 0 : 1
        }

        // 1. Ingest.
        let budget =
            options.quick
            ? Budget(minimumRuns: 3, maximumRuns: 5, seconds: 2) : Budget(minimumRuns: 9, maximumRuns: 30, seconds: 12)
        let timings = Bench.measureRounds(
            budget,
            [
                {
                    let page = try decoder.decode(RakutenSearchResponse.self, from: bytes)
                    blackHole(page.items)
                },
                {
                    try MainActor.assumeIsolated {
                        let page = try decoder.decode(RakutenSearchResponse.self, from: bytes)
                        let store = EntityStore(client: offlineClient, configuration: quiet)
                        store.insert(page.items)
                        blackHole(store)
                    }
                },
            ])
        guard case .success(let plain) = timings[0], case .success(let stored) = timings[1] else {
            Bench.note("# FAILED: \(timings)")
            return 1
        }
        let ingestRatio = stored.median / plain.median
        Bench.emit(
            "store ingest-\(count / 1000)k \(Bench.format(stored.median * 1000, 2)) ms \(Bench.format(ingestRatio, 3))")
        Bench.note("#   plain decode \(Bench.format(plain.median * 1000, 2)) ms")

        // 2. Notification.
        let notify = await notificationLatency(edits: options.quick ? 50 : 200)
        let notifyRatio = notify / 1000
        Bench.emit("store notify-100q-1000obs \(Bench.format(notify, 1)) us \(Bench.format(notifyRatio, 3))")

        // 3. Memory.
        var memoryRatio = Double.nan
        if let (plainBytes, storeBytes) = memory(bytes: bytes, count: count) {
            memoryRatio = storeBytes / plainBytes
            Bench.emit("store memory-per-entity \(Int(storeBytes)) B \(Bench.format(memoryRatio, 3))")
            Bench.note("#   plain array \(Int(plainBytes)) B per item")
        } else {
            Bench.emit("store memory-per-entity SKIP (no mallinfo2 on this platform): the summary cannot PASS")
        }

        // 4. The database and the outbox.
        let disk = await StorePersistenceBench.measure(options, page: Data(bytes), count: count)

        // A figure not measured (NaN) is not a pass.
        let pass = ingestRatio <= 1.5 && notifyRatio <= 1 && memoryRatio <= 1.5 && disk.pass
        Bench.emit(
            "store summary ingest=\(Bench.format(ingestRatio, 2))x notify=\(Bench.format(notify, 0))us "
                + "memory=\(Bench.format(memoryRatio, 2))x persisted-ingest=\(Bench.format(disk.ingest, 2))x "
                + "cold-start=\(Bench.format(disk.coldStart, 2))x enqueue=\(Bench.format(disk.enqueue, 2))x "
                + "outbox=\(Bench.format(disk.outbox, 2))x awaited-edits=\(Bench.format(disk.awaited, 2))x "
                + "\(pass ? "PASS" : "FAIL")")
        return options.check && !pass ? 1 : 0
    }

    static var quiet: EntityStore.Configuration {
        var configuration = EntityStore.Configuration()
        configuration.collectionInterval = nil
        configuration.updateMethod = .put
        return configuration
    }

    /// A client that never touches a network.
    static let offlineClient = HTTPClient(baseURL: URL(string: "http://bench.invalid")!) {
        $0.transport = EchoTransport()
        $0.retryPolicy = .never
    }

    /// The median microseconds from an edit to the 1,000th observer call.
    static func notificationLatency(edits: Int) async -> Double {
        var generator = RakutenGenerator(seed: 11)
        let page = try! TetherJSONDecoder().decode(RakutenSearchResponse.self, from: generator.response(items: 400))
        let items = page.items
        let target = items[0]
        let store = EntityStore(client: offlineClient, configuration: quiet)
        var queries: [QueryState<RakutenItem>] = []
        for index in 0..<100 {
            // Each query holds the target and 29 other items.
            let others = Array(items[(1 + (index * 3) % 360)..<(1 + (index * 3) % 360 + 29)])
            let query = store.query(
                Query<RakutenItem>(key: "q\(index)") { _, _ in Page(items: [target] + others, next: nil) })
            await query.load()
            queries.append(query)
        }
        var calls = 0
        var finished = 0.0
        var tokens: [ObservationToken] = []
        for query in queries {
            for _ in 0..<10 {
                tokens.append(
                    query.observe { _ in
                        calls += 1
                        if calls == 1000 { finished = Bench.now() }
                    })
            }
        }
        var samples: [Double] = []
        for edit in 0..<edits {
            var changed = target
            changed.itemName = "edit \(edit)"
            calls = 0
            finished = 0
            let start = Bench.now()
            _ = try? await store.update(changed)
            if finished > 0 { samples.append((finished - start) * 1e6) }
        }
        blackHole(tokens)
        samples.sort()
        return samples.isEmpty ? .infinity : samples[samples.count / 2]
    }

    /// Heap bytes per item: an array of decoded structs, and the same items in a store.
    static func memory(bytes: [UInt8], count: Int) -> (Double, Double)? {
        #if canImport(Glibc)
            func inUse() -> Int {
                malloc_trim(0)
                return Int(mallinfo2().uordblks)
            }
            let decoder = TetherJSONDecoder()
            let base = inUse()
            var items: [RakutenItem]? = (try? decoder.decode(RakutenSearchResponse.self, from: bytes))?.items
            let plain = inUse() - base
            blackHole(items)
            items = nil
            let base2 = inUse()
            var store: EntityStore? = EntityStore(client: offlineClient, configuration: quiet)
            if let page = try? decoder.decode(RakutenSearchResponse.self, from: bytes) {
                store?.insert(page.items)
            }
            let stored = inUse() - base2
            blackHole(store)
            store = nil
            return (Double(plain) / Double(count), Double(stored) / Double(count))
        #else
            return nil
        #endif
    }
}

/// A transport that answers every request at once with its own body (an edit's PATCH comes back as the server's
/// version), so the notification case measures the store, not a network.
private struct EchoTransport: HTTPTransport {
    func send(_ request: TransportRequest, progress: (@Sendable (TransferProgress) -> Void)?) async throws
        -> TransportResponse
    {
        TransportResponse(
            status: HTTPStatus(code: 200), headers: ["Content-Type": "application/json"], body: request.body ?? Data(),
            url: request.url)
    }
}
