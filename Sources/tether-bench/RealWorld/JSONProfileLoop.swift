internal import Foundation
internal import TetherAPIs
internal import TetherJSON

/// `tether-bench _json-loop <parse|decode|encode|write|write-pretty|write-sorted> <twitter|citm_catalog|canada|rakuten> <file> [count]`: runs
/// one Tether job on one input `count` times (default 1,000) and prints the mean CPU time per run on standard
/// error. Hidden, for a profiler (`perf record -g tether-bench _json-loop decode twitter twitter.json`); the
/// rakuten model (TetherAPIs' ``RakutenSearchResponse``, which only decodes: no `encode` job) reads a file written
/// by `tether-bench _generate rakuten50mb`.
enum JSONProfileLoop {
    static func run(_ arguments: [String]) -> Int32 {
        guard arguments.count >= 3, let count = arguments.count > 3 ? Int(arguments[3]) : 1000 else {
            Bench.note(
                "usage: tether-bench _json-loop <parse|decode|encode|write|write-pretty|write-sorted> <twitter|citm_catalog|canada|rakuten> <file> [count]"
            )
            return 2
        }
        do {
            let data = try Bench.readFile(arguments[2])
            switch arguments[1] {
            case "twitter": try loop(arguments[0], data, TwitterSearch.self, count)
            case "citm_catalog": try loop(arguments[0], data, CitmCatalog.self, count)
            case "canada": try loop(arguments[0], data, CanadaFeatureCollection.self, count)
            case "rakuten": try loop(arguments[0], data, RakutenSearchResponse.self, count)
            default:
                Bench.note("unknown model '\(arguments[1])'")
                return 2
            }
            return 0
        } catch {
            Bench.note("error: \(error)")
            return 1
        }
    }

    private static func loop<Model: Decodable>(_ job: String, _ data: Data, _ model: Model.Type, _ count: Int) throws {
        let body: () throws -> Void
        switch job {
        case "parse":
            let parser = JSONParser()
            body = { blackHole(try parser.parse(data)) }
        case "decode":
            let decoder = TetherJSONDecoder()
            body = { blackHole(try decoder.decode(Model.self, from: data)) }
        case "encode":
            guard let value = try JSONDecoder().decode(Model.self, from: data) as? any Encodable else {
                throw Unavailable(description: "\(Model.self) only decodes: there is no encode job for it")
            }
            let encoder = TetherJSONEncoder()
            body = { blackHole(try encoder.encode(value)) }
        case "write", "write-pretty", "write-sorted":
            let tree = try JSONParser().parse(data)
            let options: JSONWriter.Options =
                job == "write" ? [] : job == "write-pretty" ? .prettyPrinted : .sortedKeys
            let writer = JSONWriter(options: options)
            body = { blackHole(try writer.bytes(tree)) }
        default:
            throw Unavailable(description: "unknown job '\(job)'")
        }
        let start = clock()
        for _ in 0..<count { try body() }
        let seconds = Double(clock() - start) / Double(CLOCKS_PER_SEC)
        Bench.note("# \(job): \(Bench.format(seconds / Double(count) * 1e6, 1)) µs CPU per run over \(count) runs")
    }
}
