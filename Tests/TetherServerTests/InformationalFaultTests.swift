import Foundation
import Testing
import TetherJSON

@testable import TetherServer

/// A scripted 1xx status is never sent as a final answer: `status=101` and `status=100`, `102`...`199` are refused
/// with `400` and a message, on a connection that goes on in order.
@Suite("Server: a 1xx fault is refused", .timeLimit(.minutes(1)))
struct InformationalFaultTests {
    @Test(arguments: ["100", "101", "102", "103", "150", "199"])
    func aScriptedInformationalStatusDoesNotParse(_ code: String) {
        #expect(throws: ServerError.self) { try FaultScript.parse("status=\(code)") }
    }

    @Test func finalStatusesStillParse() throws {
        #expect(try FaultScript.parse("status=200").status?.code == 200)
        #expect(try FaultScript.parse("status=599").status?.code == 599)
    }

    @Test func pipelinedInformationalFaultsAreAnswered400InOrder() async throws {
        let responses = try await withServer { _, port in
            try await onThread {
                let client = try RawHTTPClient(port: port)
                // All sent before any is read: a 1xx sent as a final answer would shift every later response.
                try client.send(
                    RawHTTPClient.get("/hello?_fault=status=100")
                        + RawHTTPClient.get("/hello?_fault=status=101")
                        + RawHTTPClient.get("/hello", "X-Tether-Fault: status=102")
                        + RawHTTPClient.get("/hello?_fault=status%3D199")
                        + RawHTTPClient.get("/hello"))
                return try (0..<5).map { _ in try client.readResponse() }
            }
        }
        #expect(responses.map(\.status) == [400, 400, 400, 400, 200])
        for response in responses.prefix(4) {
            let json = try JSON(parsing: response.body)
            #expect(json["error"].string == "invalid_fault")
            #expect(json["message"].string?.contains("1") == true)
        }
        let upgrade = try JSON(parsing: responses[1].body)["message"].string ?? ""
        #expect(upgrade.contains("Upgrade"), "\(upgrade)")
        #expect(responses[4].text == "hello")
    }

    @Test func aRefused1xxKeepsTheConnectionForTheNextRequest() async throws {
        let (refused, next) = try await withServer { _, port in
            try await onThread {
                let client = try RawHTTPClient(port: port)
                let refused = try client.exchange(RawHTTPClient.get("/echo?_fault=status=100"))
                return (refused, try client.exchange(RawHTTPClient.get("/hello")))
            }
        }
        #expect(refused.status == 400 && refused.header("Connection") == nil)
        #expect(next.status == 200 && next.text == "hello")
    }
}
