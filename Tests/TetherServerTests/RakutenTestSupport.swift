import Foundation
import Testing
import TetherHTTP1
import TetherJSON
import TetherTestSupport

@testable import TetherServer

/// The fixtures below `shared/fixtures` (found by TetherTestSupport's ``SharedFixtures``), parsed; tests that need
/// them are `.enabled(if: RakutenFixtures.isAvailable)`.
enum RakutenFixtures {
    static var isAvailable: Bool { SharedFixtures.contains("rakuten") }

    /// A fixture below `shared/fixtures`, parsed.
    static func json(_ path: String) throws -> JSON {
        try JSON(parsing: [UInt8](SharedFixtures.data(path)))
    }
}

/// One catalog for every test (generating it is the slow part).
enum RakutenTestCatalog {
    static let shared = RakutenCatalog(seed: 1)
    /// A responder without a rate limit, for the rule and shape tests.
    static let responder = RakutenSearchResponder(
        catalog: shared, configuration: .init(rateLimit: nil))
}

/// A search answer: status, headers and the parsed body.
struct RakutenAnswer {
    var status: Int
    var headers: HTTPHeaders
    var body: JSON
    var bytes: [UInt8]
}

/// Sends `GET <path>?<query>` (each value percent-encoded) to `responder` and parses the JSON answer.
func rakutenSearch(
    _ parameters: [(String, String)], version: String = "20220601",
    responder: RakutenSearchResponder = RakutenTestCatalog.responder, host: String = "127.0.0.1:3000"
) async throws -> RakutenAnswer {
    let query = parameters.map { "\($0.0)=\(HTTPTarget.percentEncode($0.1))" }.joined(separator: "&")
    return try await rakutenGet("/services/api/IchibaItem/Search/\(version)?\(query)", responder: responder, host: host)
}

/// Sends `GET target` as given (no encoding) and parses the JSON answer.
func rakutenGet(
    _ target: String, responder: RakutenSearchResponder = RakutenTestCatalog.responder,
    host: String = "127.0.0.1:3000"
) async throws -> RakutenAnswer {
    let request = HTTPRequest(method: .get, target: target, headers: ["Host": host])
    let response = try #require(await responder.respond(to: request))
    let bytes = try #require(response.bodyBytes)
    return RakutenAnswer(
        status: response.status.code, headers: response.headers, body: try JSON(parsing: bytes), bytes: bytes)
}

extension JSON {
    /// The keys of an object, in order.
    var orderedKeys: [String] { object?.keys ?? [] }
}
