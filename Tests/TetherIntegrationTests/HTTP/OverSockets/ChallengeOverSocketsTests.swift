import Foundation
import Testing
import TetherHTTP
import TetherHTTP1

/// 401 and 407 with any challenge are ordinary responses on every transport: URLSession on Linux used to wait
/// until the deadline on a Basic challenge. Also with progress (URLSession's delegate path).
@Suite struct ChallengeOverSocketsTests {
    static var transports: [String] {
        #if os(Linux)
            ["urlsession", "native"]
        #else
            ["urlsession"]
        #endif
    }

    static func transport(_ name: String) -> any HTTPTransport {
        #if os(Linux)
            if name == "native" { return NativeTransport() }
        #endif
        return URLSessionTransport()
    }

    @Test(
        arguments: transports,
        [
            (401, "WWW-Authenticate", "Basic realm=\"tether\""), (401, "WWW-Authenticate", "Bearer realm=\"tether\""),
            (401, "WWW-Authenticate", "Digest realm=\"tether\", nonce=\"1\""),
            (407, "Proxy-Authenticate", "Basic realm=\"proxy\""),
        ])
    func challengeIsReturnedAsAResponse(transport: String, challenge: (Int, String, String)) async throws {
        let (code, field, value) = challenge
        let response = HTTPResponse(
            status: HTTPStatus(code: code), headers: [field: value, "Content-Type": "text/plain"],
            body: Array("who are you?".utf8))
        try await withSocketServer(answering: response) { server in
            let client = HTTPClient(baseURL: server.baseURL) {
                $0.transport = Self.transport(transport)
                $0.retryPolicy = .never
                $0.timeout = .seconds(10)
            }
            let error = await #expect(throws: HTTPError.self) {
                try await client.send(Request<Data>(path: "/private"))
            }
            let streamed = await #expect(throws: HTTPError.self) {
                try await client.task(for: Request<Data>(path: "/private")).response
            }
            #expect(streamed?.status?.code == code)
            #expect(error?.status?.code == code)
            if case .status(let failure) = error?.kind {
                // FoundationNetworking keeps the body of a challenge to itself.
                if transport == "native" { #expect(String(decoding: failure.body, as: UTF8.self) == "who are you?") }
                #expect(failure.headers[field] == value)
            } else {
                Issue.record("not a status failure: \(String(describing: error))")
            }
            #expect(server.log.count("/private") == 2)
        }
    }
}
