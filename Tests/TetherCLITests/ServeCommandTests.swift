import Foundation
import Testing
import TetherJSON
import TetherServer

@testable import TetherCLI

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// `tether serve`: usage errors and invalid files through `TetherCLI.run`, and the start path on port 0.
@Suite struct ServeCommandTests {
    @Test(arguments: [
        ["serve", "--port"], ["serve", "--port", "70000"], ["serve", "--bogus"], ["serve", "a.json", "b.json"],
        ["serve", "--read-only", "--in-memory"], ["serve", "--latency", "fast"], ["serve", "--fail-rate", "2"],
        ["serve", "--log=yes"], ["serve", "--seed", "-1"],
    ])
    func usageErrorsExit2(arguments: [String]) {
        let result = tether(arguments: arguments)
        #expect(result.status == 2)
        #expect(result.stdout.isEmpty)
        #expect(result.stderr.hasPrefix("tether: ") && result.stderr.filter { $0 == "\n" }.count == 1)
    }

    @Test func helpListsTheOptions() {
        let result = tether("serve", "--help")
        #expect(result.status == 0)
        #expect(result.stdout.contains("--no-rate-limit") && result.stdout.contains("--truncate-rate"))
        #expect(tether("--help").stdout.contains("serve [db.json]"))
    }

    @Test func helpShowsASampleDatabaseAndWhereTheKeysAreKept() throws {
        let help = tether("serve", "--help").stdout
        // The sample is a json-server database: top-level arrays and objects.
        let start = try #require(help.range(of: "  {\n"))
        let end = try #require(help.range(of: "\n  }\n", range: start.upperBound..<help.endIndex))
        let sample = try JSON(parsing: Array(help[start.lowerBound..<end.upperBound].utf8))
        #expect(sample["notes"]?.array?.count == 1)
        #expect(sample["profile"]?.object != nil)
        #expect(
            help.contains("Idempotency-Key") && help.contains(".db.json.tether/ beside db.json (no longer inside it)"))
    }

    @Test func invalidDatabaseFileExits1WithItsPosition() throws {
        let directory = try TemporaryDirectory()
        let path = try directory.file("db.json", "{\n  \"posts\": [,]\n}")
        let result = tether("serve", path, "--port", "0")
        #expect(result.status == 1)
        #expect(result.stderr.contains("not valid JSON") && result.stderr.contains("line 2, column 13"))
        let missing = tether("serve", directory.url.appendingPathComponent("missing.json").path)
        #expect(missing.status == 1)
        #expect(missing.stderr.contains("cannot read"))
    }

    @Test func parsesOptions() throws {
        let options = try #require(
            try ServeCommand.parse([
                "db.json", "--host", "0.0.0.0", "--port=0", "--read-only", "--log", "--no-rate-limit",
                "--latency", "20ms..200ms", "--fail-rate", "0.1", "--seed", "7",
            ]))
        #expect(options.databaseFile == "db.json")
        #expect(options.host == "0.0.0.0" && options.port == 0 && options.writes == .readOnly)
        #expect(options.log && !options.rateLimit)
        #expect(options.faults.failRate == 0.1 && options.faults.seed == 7)
        #expect(options.faults.latency == .milliseconds(20) ... .milliseconds(200))
        #expect(try ServeCommand.parse([])?.port == 3000)
    }

    @Test func startsOnAnEphemeralPortAndStops() async throws {
        let options = try #require(try ServeCommand.parse(["--port", "0", "--no-rate-limit"]))
        let app = try await ServeCommand.start(options)
        #expect(app.port > 0)
        let banner = ServeCommand.banner(for: app)
        #expect(banner.hasPrefix("Tether server listening on http://127.0.0.1:\(app.port)\n"))
        #expect(banner.contains("/services/api/IchibaItem/Search/20220601") && banner.contains("/posts\n"))

        let session = URLSession(configuration: .ephemeral)
        let (_, response) = try await session.data(from: URL(string: "\(app.baseURL)/posts/1")!)
        session.finishTasksAndInvalidate()
        #expect((response as? HTTPURLResponse)?.statusCode == 200)
        await app.stop()
        #expect(app.server.port == nil)
    }
}
