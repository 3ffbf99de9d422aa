import Foundation
import Testing
import TetherHTTP1
import TetherJSON

@testable import TetherServer

@Suite("Faults: injected over real connections", .timeLimit(.minutes(1)))
struct FaultInjectionTests {
    @Test func configuredLatencyDelaysButTheRequestSucceeds() async throws {
        let log = LogLines()
        let faults = FaultConfiguration(latency: .milliseconds(30)...(.milliseconds(30)))
        let response = try await withServer(.init(accessLog: log.sink, faults: faults)) { _, port in
            try await onThread { try RawHTTPClient(port: port).exchange(RawHTTPClient.get("/hello")) }
        }
        #expect(response.text == "hello")
        #expect(log.lines.count == 1)
        #expect(log.lines.first?.hasSuffix(" fault=latency=30ms") == true)
    }

    @Test func failRateOneAnswers503WithRetryAfter() async throws {
        let response = try await withServer(.init(faults: .init(failRate: 1))) { _, port in
            try await onThread { try RawHTTPClient(port: port).exchange(RawHTTPClient.get("/hello")) }
        }
        #expect(response.status == 503)
        #expect(response.header("Retry-After") == "1")
        #expect(try JSON(parsing: response.body)["error"].string == "injected_fault")
    }

    @Test func resetRateOneCutsTheResponseWithAConnectionError() async throws {
        let outcome = try await withServer(.init(faults: .init(resetRate: 1))) { _, port in
            try await onThread { () -> Result<RawResponse, RawClientError> in
                do {
                    return .success(try RawHTTPClient(port: port).exchange(RawHTTPClient.get("/big")))
                } catch let error as RawClientError {
                    return .failure(error)
                }
            }
        }
        switch outcome {
        case .success(let response):
            Issue.record("expected a connection error, got \(response.status) with \(response.body.count) bytes")
        case .failure(.failed(let code)):
            #expect(code == ECONNRESET)
        case .failure(.closed(let received)):
            // The reset raced the read of the partial body: what came is still short.
            #expect(received.count < 100_000)
        case .failure(let other):
            Issue.record("unexpected \(other)")
        }
    }

    @Test func truncateRateOneSendsAShortBody() async throws {
        let outcome = try await withServer(.init(faults: .init(truncateRate: 1))) { _, port in
            try await onThread { () -> RawClientError? in
                do {
                    _ = try RawHTTPClient(port: port).exchange(RawHTTPClient.get("/big"))
                    return nil
                } catch let error as RawClientError {
                    return error
                }
            }
        }
        guard case .closed(let received)? = outcome else {
            Issue.record("expected a short body and a close, got \(String(describing: outcome))")
            return
        }
        let text = String(decoding: received, as: UTF8.self)
        #expect(text.contains("Content-Length: 100000\r\n"))
        let body = text.components(separatedBy: "\r\n\r\n").dropFirst().joined()
        #expect(body.utf8.count == 50_000)
    }

    @Test func aHeaderScriptAsksForAStatusAndIsNotSeenByResponders() async throws {
        let (failed, passed, target) = try await withServer { _, port in
            try await onThread {
                let client = try RawHTTPClient(port: port)
                let failed = try client.exchange(RawHTTPClient.get("/hello", "X-Tether-Fault: status=418"))
                let passed = try client.exchange(
                    RawHTTPClient.get("/echo?a=1&_fault=latency%3D5ms&b=2", "X-Tether-Fault: none"))
                let target = try client.exchange(RawHTTPClient.get("/echo?_fault=latency=1ms"))
                return (failed, passed, target)
            }
        }
        #expect(failed.status == 418)
        #expect(failed.header("Retry-After") == nil)
        #expect(passed.status == 200)
        #expect(passed.header("X-Fault-Header") == "no")
        #expect(passed.header("X-Target") == "/echo?a=1&b=2")
        #expect(target.header("X-Target") == "/echo")
    }

    @Test func aQueryScriptResetsAndNoneOverridesConfiguredFaults() async throws {
        let (resetError, spared) = try await withServer(.init(faults: .init(failRate: 1))) { _, port in
            try await onThread { () -> (RawClientError?, RawResponse) in
                var resetError: RawClientError?
                do {
                    _ = try RawHTTPClient(port: port).exchange(RawHTTPClient.get("/big?_fault=reset"))
                } catch let error as RawClientError {
                    resetError = error
                }
                let spared = try RawHTTPClient(port: port).exchange(RawHTTPClient.get("/hello?_fault=none"))
                return (resetError, spared)
            }
        }
        #expect(resetError != nil)
        #expect(spared.status == 200)
    }

    @Test func anUnreadableScriptIs400() async throws {
        let (response, next) = try await withServer { _, port in
            try await onThread {
                let client = try RawHTTPClient(port: port)
                let response = try client.exchange(RawHTTPClient.get("/hello", "X-Tether-Fault: explode"))
                return (response, try client.exchange(RawHTTPClient.get("/hello")))
            }
        }
        #expect(response.status == 400)
        #expect(try JSON(parsing: response.body)["error"].string == "invalid_fault")
        #expect(next.text == "hello")
    }

    @Test func faultsOnAStreamedResponse() async throws {
        let (truncated, reset) = try await withServer { _, port in
            try await onThread { () -> (RawClientError?, RawClientError?) in
                func attempt(_ script: String) -> RawClientError? {
                    do {
                        _ = try RawHTTPClient(port: port, timeout: .seconds(30)).exchange(
                            RawHTTPClient.get("/stream", "X-Tether-Fault: \(script)"))
                        return nil
                    } catch { return error as? RawClientError }
                }
                return (attempt("truncate"), attempt("reset"))
            }
        }
        guard case .closed(let received)? = truncated else {
            Issue.record("expected a truncated body, got \(String(describing: truncated))")
            return
        }
        #expect(String(decoding: received, as: UTF8.self).contains("Content-Length: 3\r\n"))
        #expect(reset != nil)
    }
}
