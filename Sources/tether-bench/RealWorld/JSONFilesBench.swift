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

        var baseline: Contender {
            switch self {
            case .foundationSerialization, .tetherParser: .foundationSerialization
            case .foundationDecoder, .tetherDecoder: .foundationDecoder
            case .foundationEncoder, .tetherEncoder: .foundationEncoder
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
        for file in File.allCases {
            let data: Data
            do {
                data = try Bench.readFile(directory + "/" + file.fileName)
            } catch {
                failures.append("\(file.fileName): \(error)")
                continue
            }
            let fileRatios: [Contender: Double]
            switch file {
            case .twitter: fileRatios = measure(file, data, TwitterSearch.self, budget, &failures)
            case .citmCatalog: fileRatios = measure(file, data, CitmCatalog.self, budget, &failures)
            case .canada: fileRatios = measure(file, data, CanadaFeatureCollection.self, budget, &failures)
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
        Bench.emit(
            "json files summary parse/decode/encode-vs-foundation \(ratios.joined(separator: " "))"
                + " encode-peak-ratio=\(peak.map { Bench.format($0, 2) } ?? "n/a")"
                + " targets: parse>=6 decode>=4 encode>=4 peak<=0.5 \(pass ? "PASS" : "FAIL")")
        return (failures, pass)
    }

    /// Measures the three jobs on one file and prints their lines; returns the Tether contenders' ratios.
    private static func measure<Model: Codable & Equatable>(
        _ file: File, _ data: Data, _ model: Model.Type, _ budget: Budget, _ failures: inout [String]
    ) -> [Contender: Double] {
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
        } catch {
            failures.append("\(file.rawValue): \(error)")
            return [:]
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
        var ratios: [Contender: Double] = [:]
        for (baseline, baselineRun, contender, run) in pairs {
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
        return ratios
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
