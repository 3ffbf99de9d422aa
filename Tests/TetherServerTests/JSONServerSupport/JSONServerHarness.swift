import Foundation
import Testing
import TetherHTTP1
import TetherJSON
import TetherTestSupport

@testable import TetherServer

/// jsonplaceholder's database in `shared/fixtures` (found by TetherTestSupport's ``SharedFixtures``).
///
/// Tests that need it use `.enabled(if: JSONServerFixtures.isAvailable)`.
enum JSONServerFixtures {
    static var jsonPlaceholderURL: URL { SharedFixtures.url("jsonplaceholder/db.json") }

    static var isAvailable: Bool { SharedFixtures.contains("jsonplaceholder/db.json") }

    /// jsonplaceholder's database, in memory (each call reads the file again, so tests do not share writes).
    static func jsonPlaceholder() throws -> JSONServerResponder {
        JSONServerResponder(database: try JSONDatabase(contentsOf: jsonPlaceholderURL, mode: .inMemory))
    }
}

/// A response, read for assertions.
struct Reply {
    var status: Int
    var headers: HTTPHeaders
    var body: [UInt8]

    var text: String { String(decoding: body, as: UTF8.self) }
    var json: JSON? { try? JSON(parsing: body) }
    subscript(header: String) -> String? { headers[header] }
}

extension JSONServerResponder {
    /// Sends a request straight to the responder (no sockets) and reads the reply.
    func send(
        _ method: HTTPMethod, _ target: String, body: String? = nil, headers: [(String, String)] = [],
        host: String? = "localhost:3000"
    ) async throws -> Reply {
        var fields = HTTPHeaders(headers)
        if let host, !fields.contains("Host") { fields.add("Host", host) }
        if body != nil, !fields.contains("Content-Type") { fields.add("Content-Type", "application/json") }
        let request = HTTPRequest(method: method, target: target, headers: fields, body: Array((body ?? "").utf8))
        let response = try #require(await respond(to: request))
        return Reply(status: response.status.code, headers: response.headers, body: response.bodyBytes ?? [])
    }

    func get(_ target: String, headers: [(String, String)] = []) async throws -> Reply {
        try await send(.get, target, headers: headers)
    }
}

/// The pretty JSON text json-server would send for `json` (`JSON.stringify(json, null, 2)`).
func pretty(_ json: JSON) throws -> String {
    try JSONWriter(options: [.prettyPrinted, .withoutEscapingSlashes]).string(json)
}

/// The ids of an array of objects, as integers.
func ids(_ reply: Reply) -> [Int] {
    (reply.json?.array ?? []).compactMap { $0["id"]?.int }
}
