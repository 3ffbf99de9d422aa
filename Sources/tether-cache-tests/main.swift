import Foundation
import TetherServer

// A caching proxy for running the HTTP Working Group's cache-tests suite (github.com/http-tests/cache-tests)
// against TetherHTTP's cache: `Scripts/cache-tests.sh <suite folder>` starts the suite's origin server, this proxy in
// front of it, and the suite's client against the proxy.
//
// usage: tether-cache-tests --port <port> --origin <url> [--cache-directory <folder>]

var port = 0
var origin = URL(string: "http://127.0.0.1:8000")!
var cacheDirectory = FileManager.default.temporaryDirectory.appendingPathComponent(
    "tether-cache-tests-\(ProcessInfo.processInfo.processIdentifier)")
var arguments = CommandLine.arguments.dropFirst()
while let argument = arguments.popFirst() {
    switch argument {
    case "--port": port = Int(arguments.popFirst() ?? "") ?? -1
    case "--origin": origin = URL(string: arguments.popFirst() ?? "") ?? origin
    case "--cache-directory": cacheDirectory = URL(fileURLWithPath: arguments.popFirst() ?? "")
    default:
        FileHandle.standardError.write(
            Data("usage: tether-cache-tests --port <port> --origin <url> [--cache-directory <folder>]\n".utf8))
        exit(2)
    }
}
guard port >= 0 else {
    FileHandle.standardError.write(Data("tether-cache-tests: --port needs a number\n".utf8))
    exit(2)
}
try? FileManager.default.removeItem(at: cacheDirectory)
let server = HTTPServer(
    configuration: .init(port: port), responders: [CacheTestsProxy(origin: origin, cacheDirectory: cacheDirectory)])
do {
    let bound = try await server.start()
    FileHandle.standardOutput.write(
        Data("tether-cache-tests: listening on 127.0.0.1:\(bound), origin \(origin.absoluteString)\n".utf8))
    while true { try await Task.sleep(for: .seconds(3600)) }
} catch {
    FileHandle.standardError.write(Data("tether-cache-tests: \(error)\n".utf8))
    exit(1)
}
