import Foundation
import Testing
import TetherJSON
import TetherServer
import TetherTestSupport

@testable import TetherCLI

/// `tether get` end to end: in-process runs of the command against a ``TetherServerApp`` on a free port (or the
/// command's own embedded server), over real sockets.
@Suite struct GetCommandTests {
    // MARK: - Output

    @Test func printsJSONIndented() async throws {
        try await withServer { base in
            let result = await tetherOnThread("get", "\(base)/posts/1")
            #expect(result.status == 0)
            #expect(result.stderr.isEmpty)
            #expect(result.stdout.hasPrefix("{\n  \"userId\": 1,\n  \"id\": 1,\n  \"title\": "))
            #expect(result.stdout.hasSuffix("\"\n}\n"))
            let json = try JSONParser().parse(Array(result.stdout.utf8))
            #expect(json["id"].number?.int == 1)
        }
    }

    @Test func includePrintsTheStatusLineAndHeadersFirst() async throws {
        try await withServer { base in
            let result = await tetherOnThread("get", "-i", "\(base)/posts/1")
            #expect(result.status == 0)
            let parts = result.stdout.components(separatedBy: "\n\n")
            let head = try #require(parts.first).split(separator: "\n").map(String.init)
            #expect(head.first == "HTTP/1.1 200 OK")
            #expect(head.contains { $0.lowercased().hasPrefix("etag: \"") })
            #expect(head.contains { $0.lowercased() == "content-type: application/json; charset=utf-8" })
            #expect(parts.dropFirst().joined(separator: "\n\n").hasPrefix("{\n  \"userId\": 1,"))
        }
    }

    @Test func verboseTellsTheRequestTheAttemptsAndTheSource() async throws {
        try await withServer { base in
            let result = await tetherOnThread("get", "-v", "-H", "X-Trace: 42", "\(base)/posts/1")
            #expect(result.status == 0)
            let lines = result.stderr.split(separator: "\n").map(String.init)
            #expect(lines.first == "> GET \(base)/posts/1")
            #expect(lines.contains("> Accept: application/json"))
            #expect(lines.contains("> X-Trace: 42"))
            #expect(lines.contains("* attempt 1: GET \(base)/posts/1"))
            #expect(lines.contains { $0.hasPrefix("* 200 OK in ") && $0.hasSuffix(" (network)") })
            #expect(lines.contains("< HTTP/1.1 200 OK"))
            #expect(lines.last == "* from the network (1 attempt)")
            #expect(result.stdout.hasPrefix("{\n  \"userId\": 1,"))
        }
    }

    #if os(Linux)
        @Test func nativeTransportWithTimings() async throws {
            try await withServer { base in
                let result = await tetherOnThread("get", "-v", "--transport", "native", "\(base)/posts/1")
                #expect(result.status == 0)
                let lines = result.stderr.split(separator: "\n").map(String.init)
                let timings = try #require(lines.first { $0.hasPrefix("* time_namelookup=") })
                #expect(timings.contains(" time_starttransfer=") && timings.contains(" reused=false"))
                #expect(lines.last == "* from the network (1 attempt)")
                #expect(result.stdout.hasPrefix("{\n  \"userId\": 1,"))
            }
        }
    #endif

    @Test func verboseShowsEachRetry() async throws {
        try await withServer { base in
            // Each 503 carries Retry-After: 1, so this takes about two seconds.
            let result = await tetherOnThread("get", "-v", "-H", "X-Tether-Fault: status=503", "\(base)/posts/1")
            #expect(result.status == 1)
            let lines = result.stderr.split(separator: "\n").map(String.init)
            #expect(lines.filter { $0.hasPrefix("* attempt ") && $0.contains(": GET ") }.count == 3)
            #expect(lines.contains("* attempt 1 failed (status 503); retrying in 1.00s"))
            #expect(
                lines.last
                    == "tether: GET \(base)/posts/1: 503 Service Unavailable: fault injected by the server (after 3 attempts)"
            )
            #expect(result.stdout.isEmpty)
        }
    }

    // MARK: - Methods, headers and bodies

    @Test func dataPostsJSONAndCreatesANote() async throws {
        try await withServer { base in
            let created = await tetherOnThread(
                "get", "-v", "-d", #"{"title": "Groceries", "body": "milk"}"#, "\(base)/notes")
            #expect(created.status == 0)
            #expect(created.stderr.hasPrefix("> POST \(base)/notes\n"))
            #expect(created.stderr.contains("> Content-Type: application/json\n"))
            let note = try JSONParser().parse(Array(created.stdout.utf8))
            #expect(note["title"].string == "Groceries")
            let id = try #require(note["id"].number?.int)

            let read = await tetherOnThread("get", "\(base)/notes/\(id)")
            #expect(read.status == 0)
            #expect(try JSONParser().parse(Array(read.stdout.utf8))["body"].string == "milk")
        }
    }

    @Test func patchChangesOneField() async throws {
        try await withServer { base in
            let before = try JSONParser().parse(Array(await tetherOnThread("get", "\(base)/notes/1").stdout.utf8))
            let patched = await tetherOnThread("get", "-X", "PATCH", "-d", #"{"title":"Renamed"}"#, "\(base)/notes/1")
            #expect(patched.status == 0)
            let after = try JSONParser().parse(Array(await tetherOnThread("get", "\(base)/notes/1").stdout.utf8))
            #expect(after["title"].string == "Renamed")
            #expect(after["body"].string == before["body"].string)
            #expect(before["title"].string != "Renamed")
        }
    }

    @Test func headersReachTheServer() async throws {
        try await withServer { base in
            // The fault header makes the server answer 409 instead of the post, so it must have arrived.
            let result = await tetherOnThread("get", "-H", "X-Tether-Fault: status=409", "\(base)/posts/1")
            #expect(result.status == 1)
            #expect(result.stderr.hasPrefix("tether: GET \(base)/posts/1: 409 Conflict"))
        }
    }

    @Test func aBodyThatIsNotJSONIsSentAsAForm() async throws {
        try await withServer { base in
            let result = await tetherOnThread("get", "-v", "-X", "PUT", "-d", "title=x", "\(base)/notes/1")
            #expect(result.stderr.contains("> PUT \(base)/notes/1\n"))
            #expect(result.stderr.contains("> Content-Type: application/x-www-form-urlencoded\n"))
            #expect(result.stderr.contains("> (7 bytes of body)\n"))
        }
    }

    @Test func dataFromAFileAndFromStandardInput() async throws {
        let directory = try TemporaryDirectory()
        let path = try directory.file("note.json", #"{"title": "From a file"}"#)
        try await withServer { base in
            let fromFile = await tetherOnThread("get", "-d", "@\(path)", "\(base)/notes")
            #expect(fromFile.status == 0)
            let fileNote = try JSONParser().parse(Array(fromFile.stdout.utf8))
            #expect(fileNote["title"].string == "From a file")

            let fromInput = await tetherOnThread(
                arguments: ["get", "-d", "@-", "\(base)/notes"], stdin: Array(#"{"title": "Piped"}"#.utf8))
            #expect(fromInput.status == 0)
            #expect(fromInput.stdinReads == 1)
            let pipedNote = try JSONParser().parse(Array(fromInput.stdout.utf8))
            #expect(pipedNote["title"].string == "Piped")
        }
        let missing = tether("get", "-d", "@\(directory.url.path)/missing.json", "/notes")
        #expect(missing.status == 1)
        #expect(missing.stderr.hasPrefix("tether: cannot read"))
    }

    // MARK: - Failures

    @Test func notFoundExits1WithOneLine() async throws {
        try await withServer { base in
            let result = await tetherOnThread("get", "\(base)/posts/9999")
            #expect(result.status == 1)
            #expect(result.stdout.isEmpty)
            #expect(result.stderr == "tether: GET \(base)/posts/9999: 404 Not Found\n")

            let included = await tetherOnThread("get", "-i", "\(base)/posts/9999")
            #expect(included.status == 1)
            #expect(included.stdout.hasPrefix("HTTP/1.1 404 Not Found\n"))
            #expect(included.stdout.hasSuffix("\n\n{}\n"))
        }
    }

    @Test func showsTheRakutenErrorDescription() async throws {
        try await withServer { base in
            let result = await tetherOnThread("get", "\(base)/services/api/IchibaItem/Search/20220601?applicationId=1")
            #expect(result.status == 1)
            #expect(
                result.stderr.hasPrefix(
                    "tether: GET \(base)/services/api/IchibaItem/Search/20220601?applicationId=1: "
                        + "400 Bad Request: keyword or itemCode is essential parameter"))
            #expect(result.stderr.filter { $0 == "\n" }.count == 1)
        }
    }

    @Test func unreachableServerExits1() async throws {
        let port = try await closedPort()
        let result = await tetherOnThread("get", "http://127.0.0.1:\(port)/posts")
        #expect(result.status == 1)
        #expect(result.stderr.hasPrefix("tether: GET http://127.0.0.1:\(port)/posts: cannot connect: "))
        #expect(result.stderr.hasSuffix(" (after 3 attempts)\n"))
    }

    @Test func jsonInsistsOnAJSONAnswer() async throws {
        try await withServer { base in
            let image = await tetherOnThread("get", "\(base)/images/photo-1?_ex=16x16")
            #expect(image.status == 0)
            #expect(image.stdout.hasPrefix("\u{FFFD}PNG\r\n"))

            let insisted = await tetherOnThread("get", "--json", "\(base)/images/photo-1?_ex=16x16")
            #expect(insisted.status == 1)
            #expect(insisted.stdout.isEmpty)
            #expect(insisted.stderr.hasPrefix("tether: the answer is not JSON: "))

            let json = await tetherOnThread("get", "--json", "\(base)/posts/1")
            #expect(json.status == 0)
            #expect(json.stdout.hasPrefix("{\n  \"userId\": 1,"))
        }
    }

    @Test(arguments: [
        ["get"], ["get", "--bogus", "/posts"], ["get", "-X"], ["get", "-H", "NoColon", "/posts"],
        ["get", "-H", "Bad Name: 1", "/posts"], ["get", "/posts", "/users"], ["get", "ftp://127.0.0.1/a"],
        ["get", "-X", "GE T", "/posts"], ["get", "--include=yes", "/posts"], ["get", "-d", "a", "-d", "b", "/posts"],
        ["get", "--json", "-d", "not json", "/notes"], ["get", "--cache", "", "/posts"], ["get", "http://"],
    ])
    func usageErrorsExit2(arguments: [String]) {
        let result = tether(arguments: arguments)
        #expect(result.status == 2)
        #expect(result.stdout.isEmpty)
        #expect(result.stderr.hasPrefix("tether: ") && result.stderr.hasSuffix("see 'tether get --help'\n"))
        #expect(result.stderr.filter { $0 == "\n" }.count == 1)
    }

    @Test func parsesOptions() throws {
        let options = try #require(
            try GetCommand.parse([
                "-XPUT", "--header=A: 1", "-H", "B:2", "-d", "{}", "-i", "--verbose", "--json", "--cache", "/tmp/c",
                ":3000/notes/1",
            ]))
        #expect(options.target == .url("http://127.0.0.1:3000/notes/1"))
        #expect(options.method == "PUT" && options.effectiveMethod == "PUT")
        #expect(options.headers == [.init(name: "A", value: "1"), .init(name: "B", value: "2")])
        #expect(options.data == "{}" && options.include && options.verbose && options.json)
        #expect(options.cacheDirectory == "/tmp/c")
        #expect(try GetCommand.parse(["-d", "x", "localhost:8080/a"])?.effectiveMethod == "POST")
        #expect(try GetCommand.parse(["localhost:8080/a"])?.target == .url("http://localhost:8080/a"))
        #expect(try GetCommand.parse(["/posts?_page=2"])?.target == .embedded("/posts?_page=2"))
        #expect(try GetCommand.parse(["--help"]) == nil)
        #expect(try GetCommand.parse(["--transport", "urlsession", "/a"])?.transport == "urlsession")
        #expect(throws: CLIError.self) { try GetCommand.parse(["--transport", "carrier-pigeon", "/a"]) }
    }

    @Test func helpListsTheOptions() {
        let result = tether("get", "--help")
        #expect(result.status == 0)
        #expect(result.stdout.contains("--cache <dir>") && result.stdout.contains("--json"))
        #expect(tether("--help").stdout.contains("get <url|path> [options]"))
    }

    // MARK: - The cache

    @Test func cacheRevalidatesWithTheETag() async throws {
        let directory = try TemporaryDirectory()
        let cache = directory.url.appendingPathComponent("http").path
        try await withServer { base in
            let first = await tetherOnThread("get", "-v", "--cache", cache, "\(base)/posts/2")
            #expect(first.status == 0)
            #expect(first.stderr.hasSuffix("* from the network (1 attempt)\n"))

            // json-server answers `Cache-Control: no-cache` with an ETag: the copy is revalidated with a 304.
            let second = await tetherOnThread("get", "-v", "--cache", cache, "\(base)/posts/2")
            #expect(second.status == 0)
            #expect(second.stderr.contains("> If-None-Match: \""))
            #expect(second.stderr.hasSuffix("* from the cache, revalidated by the server (304 Not Modified)\n"))
            #expect(second.stdout == first.stdout)
        }
        #expect(try !FileManager.default.contentsOfDirectory(atPath: cache).isEmpty)
    }

    // MARK: - The embedded server

    @Test func aPathGoesToTheEmbeddedServer() async throws {
        let result = await tetherOnThread("get", "-v", "/posts/1")
        #expect(result.status == 0)
        #expect(try JSONParser().parse(Array(result.stdout.utf8))["id"].number?.int == 1)
        let first = try #require(result.stderr.split(separator: "\n").first)
        #expect(first.hasPrefix("> GET http://127.0.0.1:") && first.hasSuffix("/posts/1"))

        let missing = await tetherOnThread("get", "/nothing-here")
        #expect(missing.status == 1)
        #expect(missing.stderr == "tether: GET /nothing-here: 404 Not Found\n")
    }

    @Test func theEmbeddedServerSharesACacheAcrossRuns() async throws {
        let directory = try TemporaryDirectory()
        let first = await tetherOnThread("get", "-v", "--cache", directory.url.path, "/todos/3")
        #expect(first.stderr.hasSuffix("* from the network (1 attempt)\n"))
        // Another run, another server on another port: the same cache entry, revalidated.
        let second = await tetherOnThread("get", "-v", "--cache", directory.url.path, "/todos/3")
        #expect(second.status == 0)
        #expect(second.stderr.hasSuffix("* from the cache, revalidated by the server (304 Not Modified)\n"))
        #expect(second.stdout == first.stdout)
    }
}

// MARK: - Support

/// Runs `tether` in-process on a thread of its own and waits for it without blocking the caller.
///
/// `tether get` blocks its thread until the request is done; that thread must not be one of the concurrency
/// pool's, which the client and the server need (the pool has as many threads as cores).
private func tetherOnThread(_ arguments: String...) async -> CLIResult {
    await tetherOnThread(arguments: arguments)
}

private func tetherOnThread(arguments: [String], stdin: [UInt8]? = nil) async -> CLIResult {
    await withCheckedContinuation { continuation in
        Thread {
            continuation.resume(returning: tether(arguments: arguments, stdin: stdin))
        }.start()
    }
}

/// Runs `body` with the base URL of a fresh server (built-in data, writes in memory, no Rakuten rate limit).
private func withServer(_ body: (String) async throws -> Void) async throws {
    let app = try await TetherServerApp.start(.init(writes: .inMemory, rakutenRateLimit: false))
    do {
        try await body(app.baseURL.absoluteString)
    } catch {
        await app.stop()
        throw error
    }
    await app.stop()
}

/// A loopback port that refuses connections.
private func closedPort() async throws -> Int {
    try closedLoopbackPort()
}
