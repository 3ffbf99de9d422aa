import Testing
import TetherHTTP1

@testable import TetherServer

@Suite("Faults: parsing and the seeded sequence")
struct FaultParsingTests {
    @Test(arguments: [
        ("20ms", Duration.milliseconds(20)), ("1.5s", .milliseconds(1500)), ("250us", .microseconds(250)),
        ("250µs", .microseconds(250)), ("2m", .seconds(120)), ("0s", .zero), (" 7ms ", .milliseconds(7)),
        ("500ns", .nanoseconds(500)),
    ])
    func durations(text: String, expected: Duration) throws {
        #expect(try FaultConfiguration.parseDuration(text) == expected)
    }

    @Test(arguments: ["", "20", "ms", "-5ms", "1e3ms", "fast", "5 h", "1..2s"])
    func badDurations(text: String) {
        let error = #expect(throws: ServerError.self) { try FaultConfiguration.parseDuration(text) }
        #expect(error?.code == .invalidOption)
    }

    @Test func latencyRanges() throws {
        #expect(try FaultConfiguration.parseLatency("20ms..200ms") == .milliseconds(20)...(.milliseconds(200)))
        #expect(try FaultConfiguration.parseLatency("20ms...1s") == .milliseconds(20)...(.seconds(1)))
        #expect(try FaultConfiguration.parseLatency("150ms") == .milliseconds(150)...(.milliseconds(150)))
        #expect(throws: ServerError.self) { try FaultConfiguration.parseLatency("200ms..20ms") }
        #expect(throws: ServerError.self) { try FaultConfiguration.parseLatency("20ms..") }
    }

    @Test func commandLineOptions() throws {
        let faults = try FaultConfiguration.parse(
            latency: "20ms..200ms", failRate: "0.1", resetRate: "0.05", truncateRate: "0.05", seed: "7")
        #expect(
            faults
                == FaultConfiguration(
                    latency: .milliseconds(20)...(.milliseconds(200)), failRate: 0.1, resetRate: 0.05,
                    truncateRate: 0.05, seed: 7))
        #expect(try FaultConfiguration.parse().isNone)
        #expect(FaultConfiguration.none.isNone)
        for rate in ["1.5", "-0.1", "lots"] {
            #expect(throws: ServerError.self) { try FaultConfiguration.parse(failRate: rate) }
        }
        #expect(throws: ServerError.self) { try FaultConfiguration.parse(seed: "-1") }
    }

    @Test func scriptsParseAndPrint() throws {
        let script = try FaultScript.parse("latency=150ms, status=503, reset, truncate")
        #expect(script.latency == .milliseconds(150)...(.milliseconds(150)))
        #expect(script.status?.code == 503)
        #expect(script.reset && script.truncate)
        #expect(script.description == "latency=150ms, status=503, reset, truncate")
        #expect(try FaultScript.parse(script.description) == script)
        #expect(try FaultScript.parse("fail").status?.code == 503)
        #expect(try FaultScript.parse("latency=20ms..1s").description == "latency=20ms..1s")
        #expect(try FaultScript.parse("none") == FaultScript())
        #expect(FaultScript().description == "none")
        for bad in ["status=42", "status=abc", "latency", "latency=soon", "boom", "reset=yes"] {
            #expect(throws: ServerError.self) { try FaultScript.parse(bad) }
        }
    }

    @Test func theSameSeedGivesTheSameFaults() throws {
        let configuration = FaultConfiguration(
            latency: .milliseconds(1)...(.milliseconds(100)), failRate: 0.2, resetRate: 0.2, truncateRate: 0.2, seed: 42
        )
        func sequence(_ configuration: FaultConfiguration) throws -> [FaultPlan?] {
            let injector = FaultInjector(configuration: configuration)
            return try (0..<200).map { _ in
                var request = HTTPRequest(method: .get, target: "/posts/1")
                return try injector.plan(for: &request)
            }
        }
        let first = try sequence(configuration)
        #expect(try sequence(configuration) == first)
        var other = configuration
        other.seed = 43
        #expect(try sequence(other) != first)
        // Every kind of fault occurs, and latencies stay in the range.
        #expect(first.contains { $0?.status != nil })
        #expect(first.contains { $0?.reset == true })
        #expect(first.contains { $0?.truncate == true })
        #expect(
            first.allSatisfy { ($0?.latency).map { (.milliseconds(1)...(.milliseconds(100))).contains($0) } ?? false })
    }

    @Test func scriptsAreTakenOutOfTheRequest() throws {
        var request = HTTPRequest(
            method: .get, target: "/posts?_fault=reset&userId=1&_fault=latency%3D5ms",
            headers: ["X-Tether-Fault": "status=500"])
        let script = try FaultInjector.extractScript(from: &request)
        #expect(
            script
                == FaultScript(
                    latency: .milliseconds(5)...(.milliseconds(5)), status: HTTPStatus(code: 500), reset: true))
        #expect(request.target == "/posts?userId=1")
        #expect(!request.headers.contains("X-Tether-Fault"))

        var plain = HTTPRequest(method: .get, target: "/posts?_page=1")
        #expect(try FaultInjector.extractScript(from: &plain) == nil)
        #expect(plain.target == "/posts?_page=1")
    }
}
