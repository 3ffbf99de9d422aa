internal import Foundation
internal import TetherJSON

/// The real-world files of `tether-bench json`: `twitter.json`, `citm_catalog.json` and `canada.json` (the inputs
/// every JSON library reports on), read from `../shared/benchmarks/json` or `--corpus DIR`.
///
/// For each file and each job, Tether against Foundation on the same bytes: parse to a value (`JSONParser` against
/// `JSONSerialization`), decode into the file's Codable model (`TetherJSONDecoder` against `JSONDecoder`), and
/// encode that model (`TetherJSONEncoder` against `JSONEncoder`). Lines: `json <file> <contender> <MB/s> <ratio>`,
/// throughput in megabytes of the file per second (for encoding too, so the three jobs compare), ratio = the
/// Foundation contender's median time / this one's. Then the peak memory growth of encoding the largest file,
/// each encoder in a fresh child process: `json <file>-encode-peak <contender> <MB> <ratio>` (ratio = this /
/// Foundation's). A summary line checks the targets: decode ≥ 4×, encode ≥ 4×, parse ≥ 6× on every file, and
/// encoding peak ≤ 0.5×.
///
/// Then the writer: `JSONWriter.data(_:)` compact, pretty-printed and with sorted keys on the parsed value, each
/// against `JSONSerialization.data(withJSONObject:)` with the same option on Foundation's parsed value (the primary
/// lines, as above; each side returns `Data`). Then orjson (``OrjsonContender``), in alternating rounds within the
/// run: `json <file> vs-orjson <parse|write|encode> <Tether MB/s> <orjson MB/s> <orjson time / Tether time>` (parse
/// against `orjson.loads`, write and encode against `orjson.dumps` of orjson's own parsed value; the writer without
/// escaping `/`, as orjson, so both write the same text, whose sizes must be equal) and `json <file>
/// writer-vs-compact <pretty|sorted> <ratio>`; its summary checks issue 38's targets (parse ≥ 1, write ≥ 1, encode ≥ 0.4 of orjson;
/// pretty and sorted ≥ 0.5 of compact). Without orjson these lines say SKIP and `--check` fails.
enum JSONFilesBench {
    enum File: String, CaseIterable {
        case twitter
        case citmCatalog = "citm_catalog"
        case canada

        var fileName: String { rawValue + ".json" }
    }

    enum Contender: String, CaseIterable {
        case foundationSerialization = "foundation-serialization"
        case tetherParser = "tether-parser"
        case foundationDecoder = "foundation-decoder"
        case tetherDecoder = "tether-decoder"
        case foundationEncoder = "foundation-encoder"
        case tetherEncoder = "tether-encoder"
        case foundationWriter = "foundation-write"
        case tetherWriter = "tether-writer"
        case foundationWriterPretty = "foundation-write-pretty"
        case tetherWriterPretty = "tether-writer-pretty"
        case foundationWriterSorted = "foundation-write-sorted"
        case tetherWriterSorted = "tether-writer-sorted"

        var baseline: Contender {
            switch self {
            case .foundationSerialization, .tetherParser: .foundationSerialization
            case .foundationDecoder, .tetherDecoder: .foundationDecoder
            case .foundationEncoder, .tetherEncoder: .foundationEncoder
            case .foundationWriter, .tetherWriter: .foundationWriter
            case .foundationWriterPretty, .tetherWriterPretty: .foundationWriterPretty
            case .foundationWriterSorted, .tetherWriterSorted: .foundationWriterSorted
            }
        }
    }

    static let defaultCorpus = "../shared/benchmarks/json"

    /// Runs the files' measurements; returns the failures (results that disagree) and whether the targets were
    /// met (`nil` when the files are absent).
    static func run(_ options: BenchOptions) -> (failures: [String], pass: Bool?) {
        let directory = options.corpus ?? defaultCorpus
        let present = File.allCases.filter { FileManager.default.fileExists(atPath: directory + "/" + $0.fileName) }
        guard present.count == File.allCases.count else {
            Bench.note(
                "# json files: \(directory) does not hold \(File.allCases.map(\.fileName).joined(separator: ", "));"
                    + " skipping them (pass --corpus DIR)")
            Bench.emit("json files SKIP (no \(directory))")
            return ([], nil)
        }
        let budget =
            options.quick
            ? Budget(warmUpRuns: 1, minimumRuns: 3, maximumRuns: 20, seconds: 0.3)
            : Budget(warmUpRuns: 2, minimumRuns: 7, maximumRuns: 60, seconds: 1.5)
        var failures: [String] = []
        var ratios: [String] = []
        var pass = true
        let orjson = OrjsonContender.start(
            files: File.allCases.map { ($0.rawValue, directory + "/" + $0.fileName) })
        if case .failure(let skipped) = orjson {
            Bench.note("# orjson unavailable: \(skipped)")
        }
        var peerRatios: [String] = []
        var peerPass = true
        for file in File.allCases {
            let data: Data
            do {
                data = try Bench.readFile(directory + "/" + file.fileName)
            } catch {
                failures.append("\(file.fileName): \(error)")
                continue
            }
            let fileRatios: [Contender: Double]
            let peer: PeerRatios?
            switch file {
            case .twitter:
                (fileRatios, peer) = measure(file, data, TwitterSearch.self, budget, orjson, options, &failures)
            case .citmCatalog:
                (fileRatios, peer) = measure(file, data, CitmCatalog.self, budget, orjson, options, &failures)
            case .canada:
                (fileRatios, peer) = measure(
                    file, data, CanadaFeatureCollection.self, budget, orjson, options, &failures)
            }
            if let peer {
                peerPass = peerPass && peer.meetsTargets
                peerRatios.append("\(file.rawValue)=\(peer.summary)")
            } else {
                peerPass = false
                peerRatios.append("\(file.rawValue)=SKIP")
            }
            let parse = fileRatios[.tetherParser] ?? 0
            let decode = fileRatios[.tetherDecoder] ?? 0
            let encode = fileRatios[.tetherEncoder] ?? 0
            pass = pass && parse >= 6 && decode >= 4 && encode >= 4
            ratios.append(
                "\(file.rawValue)=\(Bench.format(parse, 2))/\(Bench.format(decode, 2))/\(Bench.format(encode, 2))")
        }
        let peak = measureEncodingPeak(directory: directory, file: .canada, failures: &failures)
        pass = pass && (peak ?? .infinity) <= 0.5 && failures.isEmpty
        let streamingPeak = measureStreamingPeak(directory: directory, failures: &failures)
        pass = pass && (streamingPeak ?? .infinity) < 8
        Bench.emit(
            "json files summary parse/decode/encode-vs-foundation \(ratios.joined(separator: " "))"
                + " encode-peak-ratio=\(peak.map { Bench.format($0, 2) } ?? "n/a")"
                + " targets: parse>=6 decode>=4 encode>=4 peak<=0.5 \(pass ? "PASS" : "FAIL")")
        let orjsonNote: String
        if case .failure(let skipped) = orjson { orjsonNote = " SKIP (\(skipped))" } else { orjsonNote = "" }
        Bench.emit(
            "json files summary vs-orjson parse/write/encode/pretty/sorted \(peerRatios.joined(separator: " "))"
                + " targets: parse>=1 write>=1 encode>=0.4 pretty,sorted>=0.5x-write"
                + " \(peerPass ? "PASS" : "FAIL")\(orjsonNote)")
        return (failures, pass && peerPass)
    }

    /// Measures the three jobs on one file and prints their lines; returns the Tether contenders' ratios.
    private static func measure<Model: Codable & Equatable>(
        _ file: File, _ data: Data, _ model: Model.Type, _ budget: Budget,
        _ orjson: Result<OrjsonContender, OrjsonContender.Skipped>, _ options: BenchOptions,
        _ failures: inout [String]
    ) -> ([Contender: Double], PeerRatios?) {
        // Verify first: both decoders agree, both encoders' output decodes back to the same model, and both
        // parsers read the same number of values.
        let reference: Model
        do {
            reference = try JSONDecoder().decode(Model.self, from: data)
            let ours = try TetherJSONDecoder().decode(Model.self, from: data)
            if ours != reference { failures.append("\(file.rawValue): TetherJSONDecoder decoded a different model") }
            let encoded = try TetherJSONEncoder().encode(reference)
            if try JSONDecoder().decode(Model.self, from: encoded) != reference {
                failures.append("\(file.rawValue): TetherJSONEncoder's output decodes to a different model")
            }
            let parsed = try JSONParser().parse(data)
            let serialized = try JSONSerialization.jsonObject(with: data)
            if count(parsed) != count(any: serialized) {
                failures.append("\(file.rawValue): the parsers read different numbers of values")
            }
            // (Sorted keys reorder the members, so that text reads back as a different value.)
            for options: JSONWriter.Options in [[], .prettyPrinted]
            where try JSONParser().parse(Data(JSONWriter(options: options).bytes(parsed))) != parsed {
                failures.append("\(file.rawValue): JSONWriter's output (\(options)) reads back as a different value")
            }
        } catch {
            failures.append("\(file.rawValue): \(error)")
            return ([:], nil)
        }
        let tree: JSON
        let foundationTree: Any
        do {
            tree = try JSONParser().parse(data)
            foundationTree = try JSONSerialization.jsonObject(with: data)
        } catch {
            failures.append("\(file.rawValue): \(error)")
            return ([:], nil)
        }

        let parser = JSONParser()
        let tetherDecoder = TetherJSONDecoder()
        let foundationDecoder = JSONDecoder()
        let tetherEncoder = TetherJSONEncoder()
        let foundationEncoder = JSONEncoder()
        let pairs: [(Contender, () throws -> Void, Contender, () throws -> Void)] = [
            (
                .foundationSerialization, { blackHole(try JSONSerialization.jsonObject(with: data)) },
                .tetherParser, { blackHole(try parser.parse(data)) }
            ),
            (
                .foundationDecoder, { blackHole(try foundationDecoder.decode(Model.self, from: data)) },
                .tetherDecoder, { blackHole(try tetherDecoder.decode(Model.self, from: data)) }
            ),
            (
                .foundationEncoder, { blackHole(try foundationEncoder.encode(reference)) },
                .tetherEncoder, { blackHole(try tetherEncoder.encode(reference)) }
            ),
        ]
        let writerPairs: [(Contender, () throws -> Void, Contender, () throws -> Void)] = [
            (
                JSONSerialization.WritingOptions(), JSONWriter.Options(), Contender.foundationWriter,
                Contender.tetherWriter
            ),
            (.prettyPrinted, .prettyPrinted, .foundationWriterPretty, .tetherWriterPretty),
            (.sortedKeys, .sortedKeys, .foundationWriterSorted, .tetherWriterSorted),
        ].map { foundationOptions, tetherOptions, baseline, contender in
            let writer = JSONWriter(options: tetherOptions)
            return (
                baseline,
                { blackHole(try JSONSerialization.data(withJSONObject: foundationTree, options: foundationOptions)) },
                contender, { blackHole(try writer.data(tree)) }
            )
        }
        var ratios: [Contender: Double] = [:]
        for (baseline, baselineRun, contender, run) in pairs + writerPairs {
            let results = Bench.measureRounds(budget, [baselineRun, run])
            guard case .success(let base) = results[0], case .success(let timing) = results[1] else {
                Bench.emit("json \(file.rawValue) \(baseline.rawValue) n/a n/a")
                Bench.emit("json \(file.rawValue) \(contender.rawValue) n/a n/a")
                failures.append("\(file.rawValue): \(baseline.rawValue) or \(contender.rawValue) failed")
                continue
            }
            let ratio = base.median / timing.median
            ratios[contender] = ratio
            for (name, t, r) in [(baseline, base, 1.0), (contender, timing, ratio)] {
                Bench.emit(
                    "json \(file.rawValue) \(name.rawValue) \(Bench.format(t.megabytesPerSecond(bytes: data.count), 1))"
                        + " \(Bench.format(r, 2))")
                Bench.note(
                    "#   \(file.rawValue) \(name.rawValue): \(t.runs) runs, median \(Bench.format(t.median * 1e3, 3)) ms CPU"
                        + " (wall \(Bench.format(t.wallMedian * 1e3, 3)) ms), fastest \(Bench.format(t.fastest * 1e3, 3)) ms"
                )
            }
        }
        let peer: PeerRatios?
        switch orjson {
        case .success(let orjson):
            peer = measureAgainstOrjson(
                file, data, tree: tree, model: reference, orjson, quick: options.quick, &failures)
        case .failure(let skipped):
            Bench.emit("json \(file.rawValue) vs-orjson SKIP (\(skipped))")
            peer = nil
        }
        return (ratios, peer)
    }

    /// The ratios of one file against orjson: orjson's time / Tether's for parse (`loads`), write and encode
    /// (`dumps`); and the pretty and sorted writers' time ratios to the compact writer.
    struct PeerRatios {
        var parse: Double
        var write: Double
        var encode: Double
        var pretty: Double
        var sorted: Double

        var meetsTargets: Bool { parse >= 1 && write >= 1 && encode >= 0.4 && pretty >= 0.5 && sorted >= 0.5 }

        var summary: String {
            [parse, write, encode, pretty, sorted].map { Bench.format($0, 2) }.joined(separator: "/")
        }
    }

    /// Times Tether's parser, writer (compact, pretty, sorted) and encoder against orjson's `loads` and `dumps`
    /// on one file, in alternating rounds (one run of each per round, the Python process timing its own), and
    /// prints `json <file> vs-orjson <job> <Tether MB/s> <orjson MB/s> <orjson time / Tether time>` and
    /// `json <file> writer-vs-compact <pretty|sorted> <compact time / this time>`.
    private static func measureAgainstOrjson<Model: Encodable>(
        _ file: File, _ data: Data, tree: JSON, model: Model, _ orjson: OrjsonContender, quick: Bool,
        _ failures: inout [String]
    ) -> PeerRatios? {
        // Each round runs each job enough times to take a millisecond or so, so the clocks' resolution and the
        // Python call do not matter.
        let runs = max(1, 3_000_000 / max(data.count, 1))
        let rounds = quick ? 5 : 21
        let parser = JSONParser()
        // Each side makes an object that owns its text: orjson a `bytes`, the writer a `Data` (`data(_:)`, no copy).
        // orjson does not escape `/`: the writer leaves it too, so that both write the same text (the sizes are
        // compared below). Pretty and sorted are judged against this compact writer.
        let compact = JSONWriter(options: .withoutEscapingSlashes)
        let pretty = JSONWriter(options: [.prettyPrinted, .withoutEscapingSlashes])
        let sorted = JSONWriter(options: [.sortedKeys, .withoutEscapingSlashes])
        let ourSize = (try? compact.bytes(tree).count) ?? -1
        let theirSize = orjson.outputSizes[file.rawValue] ?? -1
        Bench.note("#   \(file.rawValue) compact output: Tether \(ourSize) bytes, orjson \(theirSize)")
        guard ourSize == theirSize, ourSize > 0 else {
            // Not the same text: the write ratios would compare different work.
            let reason = "the compact outputs differ: Tether \(ourSize) bytes, orjson \(theirSize)"
            Bench.emit("json \(file.rawValue) vs-orjson FAIL (\(reason))")
            failures.append("\(file.rawValue) vs orjson: \(reason)")
            return nil
        }
        let encoder = TetherJSONEncoder()
        func timed(_ body: () throws -> Void) rethrows -> Double {
            let start = Bench.threadCPUTime()
            for _ in 0..<runs { try body() }
            return (Bench.threadCPUTime() - start) / Double(runs)
        }
        let jobs: [() throws -> Double] = [
            { try timed { blackHole(try parser.parse(data)) } },
            { try orjson.time("loads", file.rawValue, runs: runs) },
            { try timed { blackHole(try compact.data(tree)) } },
            { try orjson.time("dumps", file.rawValue, runs: runs) },
            { try timed { blackHole(try pretty.data(tree)) } },
            { try timed { blackHole(try sorted.data(tree)) } },
            { try timed { blackHole(try encoder.encode(model)) } },
        ]
        var times: [[Double]] = Array(repeating: [], count: jobs.count)
        do {
            for round in 0..<(rounds + 1) {
                for (index, job) in jobs.enumerated() {
                    let seconds = try job()
                    if round > 0 { times[index].append(seconds) }  // the first round warms up
                }
            }
        } catch {
            failures.append("\(file.rawValue) vs orjson: \(error)")
            return nil
        }
        let medians = times.map { Bench.median($0) }
        let megabytes = Double(data.count) / 1e6
        func line(_ job: String, _ ours: Double, _ theirs: Double) {
            Bench.emit(
                "json \(file.rawValue) vs-orjson \(job) \(Bench.format(megabytes / ours, 1))"
                    + " \(Bench.format(megabytes / theirs, 1)) \(Bench.format(theirs / ours, 2))")
        }
        line("parse", medians[0], medians[1])
        line("write", medians[2], medians[3])
        line("encode", medians[6], medians[3])
        Bench.emit("json \(file.rawValue) writer-vs-compact pretty \(Bench.format(medians[2] / medians[4], 2))")
        Bench.emit("json \(file.rawValue) writer-vs-compact sorted \(Bench.format(medians[2] / medians[5], 2))")
        Bench.note("#   \(file.rawValue) vs orjson: \(rounds) rounds of \(runs) runs each")
        return PeerRatios(
            parse: medians[1] / medians[0], write: medians[3] / medians[2], encode: medians[3] / medians[6],
            pretty: medians[2] / medians[4], sorted: medians[2] / medians[5])
    }

    /// The number of values in a parsed tree, to check that two parsers read the same document.
    private static func count(_ json: JSON) -> Int {
        switch json {
        case .array(let elements): 1 + elements.reduce(0) { $0 + count($1) }
        case .object(let object): 1 + object.values.reduce(0) { $0 + count($1) }
        default: 1
        }
    }

    private static func count(any value: Any) -> Int {
        if let array = value as? [Any] { return 1 + array.reduce(0) { $0 + count(any: $1) } }
        if let object = value as? [String: Any] { return 1 + object.values.reduce(0) { $0 + count(any: $1) } }
        return 1
    }

    // MARK: Peak memory

    /// Runs `tether-bench _encode-peak <contender> <file>` for both encoders and prints their lines; returns
    /// Tether's ratio.
    private static func measureEncodingPeak(directory: String, file: File, failures: inout [String]) -> Double? {
        var growth: [Contender: Int] = [:]
        for contender in [Contender.foundationEncoder, .tetherEncoder] {
            let label = "json \(file.rawValue)-encode-peak \(contender.rawValue)"
            do {
                let child = try Bench.runSelf(["_encode-peak", contender.rawValue, directory + "/" + file.fileName])
                let fields = child.output.split(whereSeparator: { $0 == " " || $0 == "\n" })
                guard child.status == 0, fields.count == 3, fields[0] == "peak", let baseline = Int(fields[1]),
                    let peak = Int(fields[2])
                else {
                    throw Unavailable(
                        description: "child exited with status \(child.status): \(child.output) \(child.errors)")
                }
                growth[contender] = peak - baseline
                let ratio = growth[.foundationEncoder].map { Double(peak - baseline) / Double(max($0, 1)) }
                Bench.emit(
                    "\(label) \(Bench.format(Double(peak - baseline) / 1e6, 1)) \(ratio.map { Bench.format($0, 2) } ?? "n/a")"
                )
            } catch {
                Bench.note("# \(label): \(error)")
                Bench.emit("\(label) n/a n/a")
                failures.append("\(label): \(error)")
            }
        }
        guard let ours = growth[.tetherEncoder], let theirs = growth[.foundationEncoder] else { return nil }
        return Double(ours) / Double(max(theirs, 1))
    }

    /// Runs `tether-bench _write-stream-peak <citm_catalog.json> <copies>` and prints
    /// `json stream-write-peak <document MB> <peak growth MB>`; returns the growth in MB (target: under 8).
    private static func measureStreamingPeak(directory: String, failures: inout [String]) -> Double? {
        // 400 copies of citm_catalog (0.5 MB of compact text each, sharing one tree) make a document of 200 MB.
        let path = directory + "/" + File.citmCatalog.fileName
        do {
            let child = try Bench.runSelf(["_write-stream-peak", path, "400"])
            let fields = child.output.split(whereSeparator: { $0 == " " || $0 == "\n" })
            guard child.status == 0, fields.count == 4, fields[0] == "peak", let written = Int(fields[1]),
                let baseline = Int(fields[2]), let peak = Int(fields[3])
            else {
                throw Unavailable(
                    description: "child exited with status \(child.status): \(child.output) \(child.errors)")
            }
            let growth = Double(peak - baseline) / 1e6
            Bench.emit(
                "json stream-write-peak \(Bench.format(Double(written) / 1e6, 1)) \(Bench.format(growth, 1))"
                    + " target<8 \(growth < 8 ? "PASS" : "FAIL")")
            return growth
        } catch {
            Bench.emit("json stream-write-peak n/a n/a")
            failures.append("stream-write-peak: \(error)")
            return nil
        }
    }

    /// `tether-bench _write-stream-peak <citm_catalog.json> <copies>`: parses the file, makes an array of
    /// `copies` copies of it (one tree, shared), and writes it with `JSONWriter.write(_:toFileDescriptor:)` to
    /// `/dev/null`; prints `peak <bytes written> <baseline bytes> <peak bytes>` around the write.
    static func runStreamingPeak(_ arguments: [String]) -> Int32 {
        guard arguments.count == 2, let copies = Int(arguments[1]) else {
            Bench.note("usage: tether-bench _write-stream-peak <citm_catalog.json> <copies>")
            return 2
        }
        do {
            let tree = try JSONParser().parse(try Bench.readFile(arguments[0]))
            let document = JSON.array(Array(repeating: tree, count: copies))
            let size = try JSONWriter().bytes(tree).count * copies + copies + 1
            let descriptor = open("/dev/null", O_WRONLY)
            guard descriptor >= 0 else { throw Unavailable(description: "cannot open /dev/null") }
            defer { close(descriptor) }
            // Warm up with a small value, so lazy set-up is in the baseline.
            try JSONWriter().write(["a": [1, 2.5, "x"]], toFileDescriptor: descriptor)
            let baseline = Bench.resetPeakResidentBytes() ? Bench.residentBytes() : Bench.peakResidentBytes()
            try JSONWriter().write(document, toFileDescriptor: descriptor)
            let peak = Bench.peakResidentBytes()
            Bench.emit("peak \(size) \(baseline) \(peak)")
            blackHole(document)
            return 0
        } catch {
            Bench.emit("error \(error)")
            return 1
        }
    }

    /// `tether-bench _encode-peak <foundation-encoder|tether-encoder> <canada.json>`: decodes the file, then
    /// prints `peak <baseline bytes> <peak bytes>` around one encode of the model (the output included).
    static func runEncodingPeak(_ arguments: [String]) -> Int32 {
        guard arguments.count == 2, let contender = Contender(rawValue: arguments[0]),
            contender == .foundationEncoder || contender == .tetherEncoder
        else {
            Bench.note("usage: tether-bench _encode-peak <foundation-encoder|tether-encoder> <canada.json>")
            return 2
        }
        do {
            let model = try JSONDecoder().decode(CanadaFeatureCollection.self, from: try Bench.readFile(arguments[1]))
            // Warm up with a tiny value, so lazy set-up is in the baseline.
            let tiny = CanadaFeatureCollection(type: "x", features: [])
            let encode: (CanadaFeatureCollection) throws -> Data =
                contender == .tetherEncoder
                ? { try TetherJSONEncoder().encode($0) } : { try JSONEncoder().encode($0) }
            blackHole(try encode(tiny))
            let baseline = Bench.resetPeakResidentBytes() ? Bench.residentBytes() : Bench.peakResidentBytes()
            let encoded = try encode(model)
            let peak = Bench.peakResidentBytes()
            Bench.emit("peak \(baseline) \(peak)")
            blackHole(encoded)
            blackHole(model)
            return 0
        } catch {
            Bench.emit("error \(error)")
            return 1
        }
    }
}
