import Foundation
import Testing
import TetherJSON

@testable import TetherServer

/// Limits and malformed requests over real sockets in front of the json-server routes, with the default limits
/// (`tether serve`'s) unless a test sets smaller ones: each gets its status, a JSON error body and a close, and
/// the server goes on serving. What `ServerLimitsTests` covers already (one field over the header limit, a
/// long target and a large body on small limits, a request line that is not HTTP, a missing `Host`, HTTP/2.0,
/// the header timeout, the idle timeout, the connection limit) is not repeated.
@Suite(.enabled(if: JSONServerFixtures.isAvailable), .serialized, .timeLimit(.minutes(1)))
struct LimitsOverSocketsTests {
    /// What one bad request got: the response, what came after it before the close, and a later request's
    /// status on a new connection.
    private struct Outcome: Sendable {
        var response: RawResponse
        var rest: [UInt8]
        var after: Int
    }

    /// Sends `bytes` on a connection, reads the response and waits for the close, then asks again on a new one.
    private func refuse(_ bytes: [UInt8], on server: LiveServer) async throws -> Outcome {
        let port = server.port
        let next = server.requestText("GET", "/posts/1")
        return try await onThread {
            let client = try RawHTTPClient(port: port)
            try client.send(bytes)
            let response = try client.readResponse()
            let rest = try client.readUntilClosed()
            let after = try RawHTTPClient(port: port).exchange(next).status
            return Outcome(response: response, rest: rest, after: after)
        }
    }

    private func expectRefused(
        _ outcome: Outcome, _ status: Int, _ message: String? = nil, sourceLocation: SourceLocation = #_sourceLocation
    ) {
        #expect(outcome.response.status == status, sourceLocation: sourceLocation)
        #expect(outcome.response.header("Connection") == "close", sourceLocation: sourceLocation)
        #expect(
            outcome.response.header("Content-Type") == "application/json; charset=utf-8", sourceLocation: sourceLocation
        )
        let json = outcome.response.json
        #expect(json?.object?.keys == ["error", "message"], sourceLocation: sourceLocation)
        #expect(json?["error"].string?.isEmpty == false, sourceLocation: sourceLocation)
        if let message {
            #expect(json?["message"].string == message, sourceLocation: sourceLocation)
        } else {
            #expect(json?["message"].string?.isEmpty == false, sourceLocation: sourceLocation)
        }
        #expect(outcome.rest.isEmpty, "bytes after the error response", sourceLocation: sourceLocation)
        #expect(outcome.after == 200, "the next connection", sourceLocation: sourceLocation)
    }

    static let malformed: [(String, String, Int, String)] = [
        (
            "a Content-Length that is not a number",
            "POST /posts HTTP/1.1\r\nHost: x\r\nContent-Length: abc\r\n\r\n", 400,
            "Content-Length is not a decimal number."
        ),
        (
            "a negative Content-Length", "POST /posts HTTP/1.1\r\nHost: x\r\nContent-Length: -1\r\n\r\n", 400,
            "Content-Length is not a decimal number."
        ),
        (
            "two Content-Length values that disagree",
            "POST /posts HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\nContent-Length: 3\r\n\r\n{}", 400,
            "Content-Length values disagree."
        ),
        (
            "both Transfer-Encoding and Content-Length",
            "POST /posts HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\nTransfer-Encoding: chunked\r\n\r\n2\r\n{}\r\n0\r\n\r\n",
            400, "Both Transfer-Encoding and Content-Length."
        ),
        (
            "a chunk size that is not hexadecimal",
            "POST /posts HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n{}\r\n0\r\n\r\n", 400,
            "A chunk size is not hexadecimal."
        ),
        (
            "a transfer coding other than chunked",
            "POST /posts HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: gzip\r\n\r\n", 501,
            "Only the chunked transfer coding is supported."
        ),
        (
            "a field line without a colon", "GET /posts/1 HTTP/1.1\r\nHost: x\r\nBroken\r\n\r\n", 400,
            "A header field line has no colon."
        ),
        (
            "a space before the colon", "GET /posts/1 HTTP/1.1\r\nHost: x\r\nX-A : b\r\n\r\n", 400,
            "A header field name is not a token."
        ),
        (
            "obsolete line folding", "GET /posts/1 HTTP/1.1\r\nHost: x\r\nX-A: b\r\n c\r\n\r\n", 400,
            "Obsolete line folding in the header fields."
        ),
        (
            "a control character in a value", "GET /posts/1 HTTP/1.1\r\nHost: x\r\nX-A: a\u{0}b\r\n\r\n", 400,
            "A header field value has a control character."
        ),
        (
            "two Host fields", "GET /posts/1 HTTP/1.1\r\nHost: x\r\nHost: y\r\n\r\n", 400,
            "More than one Host header field."
        ),
        ("a method that is not a token", "G(T /posts/1 HTTP/1.1\r\nHost: x\r\n\r\n", 400, "The method is not a token."),
        (
            "raw UTF-8 in the target", "GET /posts?q=コーヒー HTTP/1.1\r\nHost: x\r\n\r\n", 400,
            "The request target has invalid characters."
        ),
    ]

    @Test(arguments: malformed)
    func malformedRequestsGetTheirStatusAndAJSONError(
        what: String, request: String, status: Int, message: String
    ) async throws {
        let outcome = try await withJSONPlaceholderServer { server in
            try await refuse(Array(request.utf8), on: server)
        }
        expectRefused(outcome, status, message)
    }

    @Test func theDefaultLimitsAre10MBBodies8KBRequestLinesAnd16KBOfFields() async throws {
        try await withJSONPlaceholderServer { server in
            // The body is refused from its Content-Length, before any of it is sent.
            let body = try await refuse(
                Array("POST /posts HTTP/1.1\r\nHost: x\r\nContent-Length: 10485761\r\n\r\n".utf8), on: server)
            expectRefused(body, 413, "The body is larger than 10485760 bytes.")
            #expect(body.response.json?["error"].string == "Content Too Large")

            let target = "/posts?q=" + String(repeating: "a", count: 8 * 1024)
            let long = try await refuse(Array("GET \(target) HTTP/1.1\r\nHost: x\r\n\r\n".utf8), on: server)
            expectRefused(long, 414)

            // Many fields, each small, over 16 KB together.
            let fields = (0..<20).map { "X-Field-\($0): \(String(repeating: "v", count: 1000))\r\n" }.joined()
            let many = try await refuse(Array("GET /posts/1 HTTP/1.1\r\nHost: x\r\n\(fields)\r\n".utf8), on: server)
            expectRefused(many, 431)

            // Just under the limits, the same requests are served.
            let fewer = (0..<14).map { "X-Field-\($0): \(String(repeating: "v", count: 1000))\r\n" }.joined()
            let served = try await onThread { [port = server.port] in
                try RawHTTPClient(port: port).exchange("GET /posts/1 HTTP/1.1\r\nHost: x\r\n\(fewer)\r\n")
            }
            #expect(served.status == 200)
        }
    }

    @Test func bodiesUpToTheLimitAreAcceptedAndLargerOnes413WhateverTheFraming() async throws {
        let limits = HTTPServer.Configuration(limits: .init(maximumBodyBytes: 100))
        let database = try await JSONPlaceholder.writableCopy()
        try await withJSONServer(database, limits) { server in
            // Exactly 100 bytes: `{"title":"…"}` with 88 letters.
            let exact = #"{"title":""# + String(repeating: "a", count: 88) + #""}"#
            #expect(exact.utf8.count == 100)
            let created = try await server.send("POST", "/posts", body: exact)
            #expect(created.status == 201)

            let over = #"{"title":""# + String(repeating: "a", count: 89) + #""}"#
            let refused = try await refuse(Array(server.requestText("POST", "/posts", body: over).utf8), on: server)
            expectRefused(refused, 413, "The body is larger than 100 bytes.")

            // Chunked: two chunks of 60 bytes go over 100 together.
            let chunk = String(repeating: "b", count: 60)
            let chunked = try await refuse(
                Array(
                    ("POST /posts HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n"
                        + "3c\r\n\(chunk)\r\n3c\r\n\(chunk)\r\n0\r\n\r\n").utf8), on: server)
            expectRefused(chunked, 413)
            // A chunked body within the limit is read whole.
            let small = try await onThread { [port = server.port] in
                try RawHTTPClient(port: port).exchange(
                    "POST /posts HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n"
                        + "6\r\n{\"a\":\r\n2\r\n1}\r\n0\r\n\r\n")
            }
            #expect(small.status == 201)
            #expect(small.json?["a"].int == 1)
            #expect(try await server.get("/posts").json?.array?.count == 102)
        }
    }

    @Test func expectContinueGets100OnlyForABodyWithinTheLimit() async throws {
        let database = try await JSONPlaceholder.writableCopy()
        try await withJSONServer(database, .init()) { server in
            let refused = try await refuse(
                Array(
                    ("POST /posts HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nExpect: 100-continue\r\n"
                        + "Content-Length: 10485761\r\n\r\n").utf8), on: server)
            expectRefused(refused, 413)
            let port = server.port
            let (interim, final) = try await onThread {
                let client = try RawHTTPClient(port: port)
                try client.send(
                    "POST /posts HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nExpect: 100-continue\r\n"
                        + "Content-Length: 16\r\n\r\n")
                let interim = try client.readResponse()
                try client.send(#"{"title": "100"}"#)
                return (interim, try client.readResponse())
            }
            #expect(interim.status == 100)
            #expect(final.status == 201)
            #expect(final.json == ["title": "100", "id": 101])
        }
    }

    @Test func aBodyThatStopsArrivingGets408() async throws {
        let database = try await JSONPlaceholder.readOnlyCopy()
        try await withJSONServer(database, .init(headerTimeout: .milliseconds(300))) { server in
            let port = server.port
            let (response, rest) = try await onThread {
                let client = try RawHTTPClient(port: port)
                try client.send("POST /posts HTTP/1.1\r\nHost: x\r\nContent-Length: 10\r\n\r\n{\"a\"")
                let response = try client.readResponse()
                return (response, try client.readUntilClosed())
            }
            #expect(response.status == 408)
            #expect(response.header("Connection") == "close")
            #expect(response.json?.object?.keys == ["error", "message"])
            #expect(response.json?["error"].string == "Request Timeout")
            #expect(rest.isEmpty)
            #expect(try await server.get("/posts/1").status == 200)
        }
    }

    @Test func requestsPipelinedAfterABadOneAreNotAnswered() async throws {
        try await withJSONPlaceholderServer { server in
            let good = server.requestText("GET", "/posts/1")
            let outcome = try await refuse(
                Array((good + "GET /posts/2 HTTP/1.1\r\nHost: x\r\nBroken\r\n\r\n" + good).utf8), on: server)
            // The first is answered, then the bad one, then the connection closes.
            #expect(outcome.response.status == 200)
            let rest = String(decoding: outcome.rest, as: UTF8.self)
            #expect(rest.hasPrefix("HTTP/1.1 400 Bad Request\r\n"))
            #expect(rest.components(separatedBy: "HTTP/1.1 ").count == 2)
            #expect(outcome.after == 200)
        }
    }
}
