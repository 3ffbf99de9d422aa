internal import Foundation
internal import TetherAPIs
internal import TetherJSON

/// `tether-bench json`: Tether's Codable decoder and parser against Foundation's, on the same bytes.
///
/// Inputs (generated, deterministic): a ~50 MB Rakuten Ichiba search response, one 30-item page of it and a
/// ~10 MB jsonplaceholder-style posts array (`--quick`: 2 MB, the page, 1 MB). For each input and contender it
/// prints `json <input> <contender> <MB/s> <ratio>`; for the page also `json page30 <contender> <µs> us`; then the
/// peak memory growth of decoding the big Rakuten input, each measured in a fresh child process, as
/// `json <input>-peak <contender> <MB> <ratio>`; and a summary line against the targets. Then the real-world files
/// (``JSONFilesBench``): parse, decode and encode of twitter, citm_catalog and canada, when they are there.
///
/// Both decoders fill the models an app uses, TetherAPIs' ``RakutenSearchResponse`` (its lossy, flexible
/// ``RakutenItem``) and ``Post``, so each pair does the same work on the same bytes.
enum JSONBench {
    /// What is measured. Each Tether contender is compared with the Foundation one that does the same job.
    enum Contender: String, CaseIterable {
        case foundationDecoder = "foundation-decoder"
        case tetherDecoder = "tether-decoder"
        case foundationSerialization = "foundation-serialization"
        case tetherParser = "tether-parser"

        /// The Foundation contender this one's ratio is computed against.
        var baseline: Contender {
            switch self {
            case .foundationDecoder, .tetherDecoder: .foundationDecoder
            case .foundationSerialization, .tetherParser: .foundationSerialization
            }
        }
    }

    enum Kind: String {
        case rakuten, posts
    }

    struct Input {
        var label: String
        var kind: Kind
        var data: Data
        var budget: Budget
        /// Whether to print the time of one decode in microseconds too.
        var reportsMicroseconds = false
    }

    static let rakutenSeed: UInt64 = 0x7E7E_0050
    static let pageSeed: UInt64 = 0x7E7E_0030
    static let postsSeed: UInt64 = 0x7E7E_0010

    // MARK: The run

    static func run(_ options: BenchOptions) -> Int32 {
        if options.filesOnly {
            let (failures, pass) = JSONFilesBench.run(options)
            for failure in failures { Bench.note("# FAILED: \(failure)") }
            if !failures.isEmpty { return 1 }
            return options.check && pass == false ? 1 : 0
        }
        let started = Bench.now()
        let inputs = makeInputs(quick: options.quick)
        Bench.note(
            "# generated in \(Bench.format(Bench.now() - started, 1)) s: "
                + inputs.map { "\($0.label) \(Bench.format(Double($0.data.count) / 1e6, 2)) MB" }.joined(
                    separator: ", "))

        var disabled: [Contender: String] = [:]
        if let problem = probeTetherDecoder() {
            disabled[.tetherDecoder] = problem
            Bench.note("# tether-decoder unavailable: \(problem)")
        }

        var ratios: [String: [Contender: Double]] = [:]
        var failures: [String] = []
        for input in inputs {
            let (inputRatios, inputFailures) = measure(input, disabled: disabled)
            ratios[input.label] = inputRatios
            failures += inputFailures
        }

        let big = inputs[0]
        let peaks = measurePeaks(big, disabled: disabled, failures: &failures)

        let decodeRakuten = ratios[big.label]?[.tetherDecoder]
        let decodePosts = ratios[inputs[2].label]?[.tetherDecoder]
        let parseRakuten = ratios[big.label]?[.tetherParser]
        let parsePosts = ratios[inputs[2].label]?[.tetherParser]
        let peakRatio = peaks[.tetherDecoder]
        let pass =
            failures.isEmpty && [decodeRakuten, decodePosts].allSatisfy { ($0 ?? 0) >= 3 }
            && [parseRakuten, parsePosts].allSatisfy { ($0 ?? 0) >= 4 } && (peakRatio ?? .infinity) <= 1
        func times(_ ratio: Double?) -> String { ratio.map { Bench.format($0, 2) + "x" } ?? "n/a" }
        Bench.emit(
            "json summary decode-vs-foundation rakuten=\(times(decodeRakuten)) posts=\(times(decodePosts))"
                + " parse-vs-serialization rakuten=\(times(parseRakuten)) posts=\(times(parsePosts))"
                + " peak-memory-ratio=\(peakRatio.map { Bench.format($0, 2) } ?? "n/a")"
                + " targets: decode>=3 parse>=4 peak<=1 \(pass ? "PASS" : "FAIL")")
        let (fileFailures, filesPass) = JSONFilesBench.run(options)
        failures += fileFailures
        for failure in failures {
            Bench.note("# FAILED: \(failure)")
        }
        Bench.note("# total \(Bench.format(Bench.now() - started, 1)) s")
        if !failures.isEmpty { return 1 }
        // Under --check a skipped comparison (the files absent) is a failure, with its reason.
        if options.check, filesPass == nil { Bench.note("# FAILED under --check: the JSON files were not measured") }
        return options.check && (!pass || filesPass != true) ? 1 : 0
    }

    static func makeInputs(quick: Bool) -> [Input] {
        let rakutenBytes = quick ? 2_000_000 : 50_000_000
        let postsBytes = quick ? 1_000_000 : 10_000_000
        var rakuten = RakutenGenerator(seed: rakutenSeed)
        var page = RakutenGenerator(seed: pageSeed)
        var posts = PostsGenerator(seed: postsSeed)
        // A budget is in rounds; a round runs a Tether contender and its Foundation baseline once each.
        let bigBudget =
            quick
            ? Budget(minimumRuns: 3, maximumRuns: 10, seconds: 0.5)
            : Budget(minimumRuns: 5, maximumRuns: 9, seconds: 6)
        let postsBudget =
            quick
            ? Budget(minimumRuns: 3, maximumRuns: 20, seconds: 0.3)
            : Budget(minimumRuns: 7, maximumRuns: 25, seconds: 3)
        let pageBudget =
            quick
            ? Budget(warmUpRuns: 5, minimumRuns: 10, maximumRuns: 500, seconds: 0.5)
            : Budget(warmUpRuns: 20, minimumRuns: 50, maximumRuns: 3000, seconds: 1.5)
        return [
            Input(
                label: "rakuten\(rakutenBytes / 1_000_000)mb", kind: .rakuten,
                data: Data(rakuten.response(targetBytes: rakutenBytes)), budget: bigBudget),
            Input(
                label: "page30", kind: .rakuten, data: Data(page.response(items: 30)), budget: pageBudget,
                reportsMicroseconds: true),
            Input(
                label: "posts\(postsBytes / 1_000_000)mb", kind: .posts,
                data: Data(posts.posts(targetBytes: postsBytes)), budget: postsBudget),
        ]
    }

    /// Measures every contender on `input`, prints its lines, and returns the Tether contenders' ratios and any
    /// disagreement between the contenders' results.
    ///
    /// Each contender decodes the input once first and its digest is compared with the others'. Then each Tether
    /// contender is timed in rounds together with its Foundation baseline (one run of each per round), so a slow
    /// phase of a shared machine slows both alike instead of skewing the ratio. The two pairs are timed apart:
    /// interleaving a decoder with JSONSerialization, which allocates and frees 400 MB on the big input, would
    /// charge the decoders for page faults that are not theirs.
    private static func measure(
        _ input: Input, disabled: [Contender: String]
    ) -> (ratios: [Contender: Double], failures: [String]) {
        var digests: [(Contender, Digest)] = []
        var measured: [Contender] = []
        for contender in Contender.allCases {
            do {
                if let reason = disabled[contender] { throw Unavailable(description: reason) }
                let (value, digest) = try decodeOnce(contender, input.kind, input.data)
                blackHole(value)
                digests.append((contender, digest))
                measured.append(contender)
            } catch {
                Bench.note("# \(input.label) \(contender.rawValue): \(error)")
            }
        }
        var timings: [Contender: Timing] = [:]
        for baseline in [Contender.foundationDecoder, .foundationSerialization] {
            let pair = measured.filter { $0.baseline == baseline }
            let results = Bench.measureRounds(input.budget, pair.map { runner($0, input.kind, input.data) })
            for (contender, result) in zip(pair, results) {
                switch result {
                case .success(let timing): timings[contender] = timing
                case .failure(let error): Bench.note("# \(input.label) \(contender.rawValue): \(error)")
                }
            }
        }

        for contender in Contender.allCases {
            guard let timing = timings[contender] else {
                Bench.emit("json \(input.label) \(contender.rawValue) n/a n/a")
                continue
            }
            let throughput = timing.megabytesPerSecond(bytes: input.data.count)
            let ratio = timings[contender.baseline].map { $0.median / timing.median }
            Bench.emit(
                "json \(input.label) \(contender.rawValue) \(Bench.format(throughput, 1)) "
                    + (ratio.map { Bench.format($0, 2) } ?? "n/a"))
            Bench.note(
                "#   \(input.label) \(contender.rawValue): \(timing.runs) runs, median \(Bench.format(timing.median * 1e3, 3)) ms CPU"
                    + " (wall \(Bench.format(timing.wallMedian * 1e3, 3)) ms),"
                    + " fastest \(Bench.format(timing.fastest * 1e3, 3)) ms")
        }
        if input.reportsMicroseconds {
            for contender in Contender.allCases {
                let micros = timings[contender].map { Bench.format($0.median * 1e6, 0) } ?? "n/a"
                Bench.emit("json \(input.label) \(contender.rawValue) \(micros) us")
            }
        }
        var failures: [String] = []
        if let (reference, expected) = digests.first {
            Bench.note("#   \(input.label) decoded by \(digests.count) contenders: \(expected)")
            for (contender, digest) in digests where digest != expected {
                failures.append(
                    "\(input.label): \(contender.rawValue) decoded \(digest), \(reference.rawValue) decoded \(expected)"
                )
            }
        }
        var ratios: [Contender: Double] = [:]
        for contender in [Contender.tetherDecoder, .tetherParser] {
            if let timing = timings[contender], let baseline = timings[contender.baseline] {
                ratios[contender] = baseline.median / timing.median
            }
        }
        return (ratios, failures)
    }

    /// One timed run of `contender` on `data`: decode and throw the result away.
    private static func runner(_ contender: Contender, _ kind: Kind, _ data: Data) -> () throws -> Void {
        switch kind {
        case .rakuten: runner(contender, data, RakutenSearchResponse.self)
        case .posts: runner(contender, data, [Post].self)
        }
    }

    private static func runner<Model: Decodable>(
        _ contender: Contender, _ data: Data, _ model: Model.Type
    ) -> () throws -> Void {
        switch contender {
        case .foundationDecoder:
            let decoder = JSONDecoder()
            return { blackHole(try decoder.decode(Model.self, from: data)) }
        case .tetherDecoder:
            return { blackHole(try TetherDecoderContender.decode(Model.self, from: data)) }
        case .foundationSerialization:
            return { blackHole(try JSONSerialization.jsonObject(with: data)) }
        case .tetherParser:
            let parser = JSONParser()
            return { blackHole(try parser.parse(data)) }
        }
    }

    /// Decodes `data` once with `contender`; returns the result (to keep alive) and its digest.
    static func decodeOnce(_ contender: Contender, _ kind: Kind, _ data: Data) throws -> (Any, Digest) {
        switch (contender, kind) {
        case (.foundationDecoder, .rakuten):
            let value = try JSONDecoder().decode(RakutenSearchResponse.self, from: data)
            return (value, Digest(value))
        case (.foundationDecoder, .posts):
            let value = try JSONDecoder().decode([Post].self, from: data)
            return (value, Digest(value))
        case (.tetherDecoder, .rakuten):
            let value = try TetherDecoderContender.decode(RakutenSearchResponse.self, from: data)
            return (value, Digest(value))
        case (.tetherDecoder, .posts):
            let value = try TetherDecoderContender.decode([Post].self, from: data)
            return (value, Digest(value))
        case (.foundationSerialization, .rakuten):
            let value = try JSONSerialization.jsonObject(with: data)
            return (value, Digest(rakuten: value))
        case (.foundationSerialization, .posts):
            let value = try JSONSerialization.jsonObject(with: data)
            return (value, Digest(posts: value))
        case (.tetherParser, .rakuten):
            let value = try JSONParser().parse(data)
            return (value, Digest(rakuten: value))
        case (.tetherParser, .posts):
            let value = try JSONParser().parse(data)
            return (value, Digest(posts: value))
        }
    }

    /// `tether-bench _generate <input label> [--quick]`: writes one generated input to standard output, to look
    /// at or to feed other tools (`tether-bench _generate page30 > page30.json`).
    static func runGenerate(_ arguments: [String]) -> Int32 {
        let inputs = makeInputs(quick: arguments.dropFirst().contains("--quick"))
        guard let label = arguments.first, let input = inputs.first(where: { $0.label == label }) else {
            Bench.note(
                "usage: tether-bench _generate <\(inputs.map(\.label).joined(separator: "|"))> [--quick]")
            return 2
        }
        FileHandle.standardOutput.write(input.data)
        return 0
    }

    // MARK: The Tether decoder probe

    /// Runs `tether-bench _probe` and returns why the Tether decoder cannot be measured, or `nil` if it can.
    private static func probeTetherDecoder() -> String? {
        guard TetherDecoderContender.isEnabled else { return "switched off in TetherDecoderContender.swift" }
        do {
            let child = try Bench.runSelf(["_probe"])
            guard child.status == 0 else {
                let reason = child.output.split(separator: "\n").last.map(String.init) ?? ""
                let crash = child.errors.split(separator: "\n").prefix(3).joined(separator: " | ")
                return "probe exited with status \(child.status): \(reason) \(crash)"
            }
            return nil
        } catch {
            return "cannot run the probe: \(error)"
        }
    }

    /// `tether-bench _probe`: decodes small inputs with the Tether decoder and Foundation's and compares them.
    /// Prints `ok` and exits 0 when they agree; a crash or mismatch is the parent's signal to skip the contender.
    static func runProbe() -> Int32 {
        var page = RakutenGenerator(seed: pageSeed)
        var posts = PostsGenerator(seed: postsSeed)
        let samples: [(Kind, Data)] = [
            (.rakuten, Data(page.response(items: 30))), (.posts, Data(posts.posts(targetBytes: 50_000))),
        ]
        for (kind, data) in samples {
            do {
                let (_, expected) = try decodeOnce(.foundationDecoder, kind, data)
                let (_, digest) = try decodeOnce(.tetherDecoder, kind, data)
                guard digest == expected else {
                    Bench.emit("mismatch on \(kind.rawValue): \(digest), Foundation \(expected)")
                    return 1
                }
            } catch {
                Bench.emit("error on \(kind.rawValue): \(error)")
                return 1
            }
        }
        Bench.emit("ok")
        return 0
    }

    // MARK: Peak memory

    /// Measures the peak memory growth of decoding `input` once per contender, each in a fresh child process.
    private static func measurePeaks(
        _ input: Input, disabled: [Contender: String], failures: inout [String]
    ) -> [Contender: Double] {
        let path = NSTemporaryDirectory() + "tether-bench-\(getpid())-\(input.label).json"
        guard FileManager.default.createFile(atPath: path, contents: input.data) else {
            failures.append("cannot write \(path)")
            return [:]
        }
        defer { try? FileManager.default.removeItem(atPath: path) }
        let expected = try? decodeOnce(.foundationDecoder, input.kind, input.data).1

        var growth: [Contender: Int] = [:]
        var ratios: [Contender: Double] = [:]
        for contender in Contender.allCases {
            let label = "json \(input.label)-peak \(contender.rawValue)"
            if let reason = disabled[contender] {
                Bench.note("# \(input.label)-peak \(contender.rawValue): \(reason)")
                Bench.emit("\(label) n/a n/a")
                continue
            }
            do {
                let child = try Bench.runSelf(["_peak", contender.rawValue, input.kind.rawValue, path])
                let fields = child.output.split(separator: " ", maxSplits: 3)
                guard child.status == 0, fields.count == 4, fields[0] == "peak", let baseline = Int(fields[1]),
                    let peak = Int(fields[2]), let digest = Digest(wire: fields[3].trimmingCharacters(in: .newlines))
                else {
                    throw Unavailable(
                        description: "child exited with status \(child.status): \(child.output) \(child.errors)")
                }
                if let expected, digest != expected {
                    failures.append(
                        "\(input.label)-peak: \(contender.rawValue) decoded \(digest), expected \(expected)")
                }
                growth[contender] = peak - baseline
                let ratio = growth[contender.baseline].map { Double(peak - baseline) / Double(max($0, 1)) }
                if contender == contender.baseline || ratio != nil { ratios[contender] = ratio }
                Bench.emit(
                    "\(label) \(Bench.format(Double(peak - baseline) / 1e6, 1)) "
                        + (ratio.map { Bench.format($0, 2) } ?? "n/a"))
                Bench.note(
                    "#   baseline \(Bench.format(Double(baseline) / 1e6, 1)) MB, peak \(Bench.format(Double(peak) / 1e6, 1)) MB"
                )
            } catch {
                Bench.note("# \(input.label)-peak \(contender.rawValue): \(error)")
                Bench.emit("\(label) n/a n/a")
            }
        }
        return ratios
    }

    /// `tether-bench _peak <contender> <rakuten|posts> <file>`: decodes the file once and prints
    /// `peak <baseline bytes> <peak bytes> <digest>`. The baseline is the resident size after a warm-up decode
    /// of a tiny input and after reading the file (where the peak is reset), so only the decode's growth counts.
    static func runPeak(_ arguments: [String]) -> Int32 {
        guard arguments.count == 3, let contender = Contender(rawValue: arguments[0]),
            let kind = Kind(rawValue: arguments[1])
        else {
            Bench.note("usage: tether-bench _peak <contender> <rakuten|posts> <file>")
            return 2
        }
        do {
            var tiny: Data
            switch kind {
            case .rakuten:
                var generator = RakutenGenerator(seed: pageSeed)
                tiny = Data(generator.response(items: 1))
            case .posts:
                var generator = PostsGenerator(seed: postsSeed)
                tiny = Data(generator.posts(targetBytes: 1))
            }
            blackHole(try decodeOnce(contender, kind, tiny))
            tiny = Data()
            let data = try Bench.readFile(arguments[2])
            let baseline = Bench.resetPeakResidentBytes() ? Bench.residentBytes() : Bench.peakResidentBytes()
            let (value, digest) = try decodeOnce(contender, kind, data)
            let peak = Bench.peakResidentBytes()
            Bench.emit("peak \(baseline) \(peak) \(digest.wire)")
            blackHole(value)
            blackHole(data)
            return 0
        } catch {
            Bench.emit("error \(error)")
            return 1
        }
    }
}
