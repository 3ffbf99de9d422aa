internal import Foundation

#if canImport(Glibc)
    internal import Glibc
#elseif canImport(Darwin)
    internal import Darwin
#endif

/// tether-bench: `tether-bench <area> [--quick] [--check]`. See Docs/Benchmarks.md.

/// A benchmark area: one subcommand.
struct Area {
    var name: String
    var summary: String
    var run: (BenchOptions) -> Int32
}

let areas = [
    Area(
        name: "json",
        summary:
            "Codable decoding, encoding and parsing against Foundation (JSONDecoder, JSONEncoder, JSONSerialization)",
        run: JSONBench.run),
    Area(name: "server", summary: "The local API server against nginx on the same bytes (wrk)", run: ServerBench.run),
    Area(
        name: "http", summary: "The HTTP client against raw URLSession, its cache hits and coalescing",
        run: HTTPBench.run),
    Area(
        name: "store", summary: "The entity store: ingest against plain decoding, change notification, memory",
        run: { options in MainActor.assumeIsolated { StoreBench.run(options) } }),
    Area(
        name: "tui", summary: "The full-screen app: launch to the first data on screen, redraw while scrolling",
        run: TUIBench.run),
    Area(
        name: "images",
        summary: "Image decoding against Pillow, memory-cache hits, the item list's scroll with thumbnails",
        run: ImagesBench.run),
]

let usage = """
    usage: tether-bench <area> [--quick] [--check] [--corpus DIR] [--files-only] [--writes-only]

    areas:
    \(areas.map { "  \($0.name.padding(toLength: 8, withPad: " ", startingAt: 0))\($0.summary)" }.joined(separator: "\n"))

    options:
      --quick   small inputs and short budgets: a smoke run for CI
      --check   exit with status 1 when the summary misses a target (FAIL)
      --corpus DIR
                json: where twitter.json, citm_catalog.json and canada.json are
                (default ../shared/benchmarks/json; skipped when absent)
      --files-only
                json: measure only those files
      --writes-only
                server: only the write benchmarks (write-ack-8, patch-keyed), no wrk or nginx
      -h, --help

    Result lines go to standard output, progress and details to standard error.
    """

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("tether-bench: \(message)\n\n\(usage)\n".utf8))
    exit(2)
}

let arguments = Array(CommandLine.arguments.dropFirst())
switch arguments.first {
case nil:
    fail("no area given")
case "-h", "--help", "help":
    print(usage)
    exit(0)
case "_peak":  // hidden: the child process of a peak-memory measurement
    exit(JSONBench.runPeak(Array(arguments.dropFirst())))
case "_generate":  // hidden: writes a generated input to standard output
    exit(JSONBench.runGenerate(Array(arguments.dropFirst())))
case "_probe":  // hidden: the child process that checks the Tether decoder before it is timed
    exit(JSONBench.runProbe())
case "_serve":  // hidden: the server's child process of the server area's held-connections case
    exit(ServerHeldBench.serveChild())
case "_images-scroll":  // hidden: the child process of the images bench's scroll
    exit(ImagesBench.runScrollChild(Array(arguments.dropFirst())))
case "_encode-peak":  // hidden: the child process of the encoders' peak-memory measurement
    exit(JSONFilesBench.runEncodingPeak(Array(arguments.dropFirst())))
case "_write-stream-peak":  // hidden: the child process of the streaming writer's peak-memory measurement
    exit(JSONFilesBench.runStreamingPeak(Array(arguments.dropFirst())))
case "_json-loop":  // hidden: one JSON job in a loop, for a profiler
    exit(JSONProfileLoop.run(Array(arguments.dropFirst())))
case let name?:
    guard let area = areas.first(where: { $0.name == name }) else { fail("unknown area '\(name)'") }
    var options = BenchOptions()
    var rest = arguments.dropFirst()
    while let option = rest.popFirst() {
        switch option {
        case "--quick": options.quick = true
        case "--check": options.check = true
        case "--files-only": options.filesOnly = true
        case "--writes-only": options.writesOnly = true
        case "--corpus":
            guard let directory = rest.popFirst() else { fail("--corpus needs a directory") }
            options.corpus = directory
        default: fail("unknown option '\(option)'")
        }
    }
    exit(area.run(options))
}
