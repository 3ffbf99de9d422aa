import Foundation
import Testing
import TetherHTTP
import TetherHTTPTesting
import TetherJSON

@Suite struct RequestBuildingTests {
    let client = HTTPClient(baseURL: URL(string: "https://api.example.com/v1/")!)

    @Test func relativePathsAreAppendedToTheBasePath() {
        #expect(
            client.url(for: Request<Data>(path: "/posts/1"))?.absoluteString == "https://api.example.com/v1/posts/1")
        #expect(client.url(for: Request<Data>(path: "posts"))?.absoluteString == "https://api.example.com/v1/posts")
        #expect(
            client.url(for: Request<Data>(path: "http://127.0.0.1:3000/a"))?.absoluteString == "http://127.0.0.1:3000/a"
        )
    }

    @Test func queryValuesArePercentEncodedPerRFC3986() {
        let request = Request<Data>(
            path: "/search",
            query: [("keyword", "ノート PC"), ("q", "a+b&c=d"), ("tag", "x"), ("tag", "y"), ("flag", nil)])
        #expect(
            client.url(for: request)?.absoluteString
                == "https://api.example.com/v1/search?keyword=%E3%83%8E%E3%83%BC%E3%83%88%20PC&q=a%2Bb%26c%3Dd"
                + "&tag=x&tag=y&flag")
    }

    @Test func queryItemsJoinAQueryAlreadyInThePath() {
        let request = Request<Data>(path: "/posts?_page=2", query: [("_limit", "5")])
        #expect(client.url(for: request)?.absoluteString == "https://api.example.com/v1/posts?_page=2&_limit=5")
    }

    @Test func nonASCIIPathsAreEncodedAndControlCharactersRejected() async {
        #expect(
            client.url(for: Request<Data>(path: "/tags/ノート"))?.absoluteString
                == "https://api.example.com/v1/tags/%E3%83%8E%E3%83%BC%E3%83%88")
        let stub = StubTransport(script: [])
        let error = await #expect(throws: HTTPError.self) {
            try await makeClient(stub).send(Request<Data>(path: "/a\nb"))
        }
        guard case .invalidRequest(let reason) = error?.kind else {
            Issue.record("expected invalidRequest, got \(String(describing: error))")
            return
        }
        #expect(reason.contains("control character"))
        #expect(stub.requests.isEmpty)
    }

    @Test func aRelativePathWithoutABaseURLIsAnInvalidRequest() async {
        let bare = HTTPClient(baseURL: nil) { $0.transport = StubTransport(script: []) }
        let error = await #expect(throws: HTTPError.self) { try await bare.send(Request<Data>(path: "/posts")) }
        #expect(error?.message.hasPrefix("The request is invalid") == true)
    }

    @Test func headerInjectionIsRejected() async {
        let stub = StubTransport(script: [])
        var request = Request<Data>(path: "/a")
        request.headers.add("X-Evil", "a\r\nHost: other")
        let error = await #expect(throws: HTTPError.self) { try await makeClient(stub).send(request) }
        guard case .invalidRequest = error?.kind else {
            Issue.record("expected invalidRequest")
            return
        }
        #expect(stub.requests.isEmpty)
    }

    @Test func requestHeadersOverrideDefaultsAndBodiesSetTheirContentType() async throws {
        let stub = StubTransport(script: [.json("{}"), .json("{}"), .json("{}")])
        let client = makeClient(stub)
        var request = Request<Data>(
            path: "/notes", method: .post, headers: ["Accept": "text/plain"], body: .json(Note(id: 1, title: "a")))
        request.idempotencyKey = "k1"
        _ = try await client.send(request)
        _ = try await client.send(
            Request<Data>(path: "/form", method: .post, body: .form([("a b", "c+d"), ("e", "ノ")])))
        var form = MultipartForm(boundary: "XYZ")
        form.append(name: "title", value: "Trip")
        form.append(name: "file", filename: "a\".txt", contentType: "text/plain", data: Data("hi".utf8))
        _ = try await client.send(Request<Data>(path: "/upload", method: .post, body: .multipart(form)))

        let sent = stub.requests
        #expect(sent[0].headers.values(for: "Accept") == ["text/plain"])
        #expect(sent[0].headers["Content-Type"] == "application/json")
        #expect(sent[0].headers["Idempotency-Key"] == "k1")
        let note = try TetherJSONDecoder().decode(Note.self, from: try #require(sent[0].body))
        #expect(note == Note(id: 1, title: "a"))
        #expect(sent[1].headers["Content-Type"] == "application/x-www-form-urlencoded")
        #expect(sent[1].body == Data("a%20b=c%2Bd&e=%E3%83%8E".utf8))
        #expect(sent[2].headers["Content-Type"] == "multipart/form-data; boundary=XYZ")
        let multipart = String(decoding: try #require(sent[2].body), as: UTF8.self)
        #expect(
            multipart
                == "--XYZ\r\nContent-Disposition: form-data; name=\"title\"\r\n\r\nTrip\r\n"
                + "--XYZ\r\nContent-Disposition: form-data; name=\"file\"; filename=\"a%22.txt\"\r\n"
                + "Content-Type: text/plain\r\n\r\nhi\r\n--XYZ--\r\n")
    }

    @Test func aBodyThatCannotBeEncodedIsAnInvalidRequest() async {
        struct Bad: Encodable, Sendable {
            func encode(to encoder: any Encoder) throws {
                throw EncodingError.invalidValue(1, .init(codingPath: [], debugDescription: "nope"))
            }
        }
        let stub = StubTransport(script: [])
        let error = await #expect(throws: HTTPError.self) {
            try await makeClient(stub).send(Request<Data>(path: "/a", method: .post, body: .json(Bad())))
        }
        guard case .invalidRequest(let reason) = error?.kind else {
            Issue.record("expected invalidRequest")
            return
        }
        #expect(reason.contains("could not be encoded"))
        #expect(stub.requests.isEmpty)
    }

    @Test func decoratorsSetQueryItemsAndHeadersOnEveryAttempt() async throws {
        let stub = StubTransport(script: [.status(503), .json("{}")])
        let client = makeClient(stub) {
            $0.interceptors = [
                RequestDecorator.queryItem("applicationId", "app 1"), RequestDecorator.header("X-Client", "tests"),
            ]
        }
        _ = try await client.send(Request<Data>(path: "/search", query: [("applicationId", "old"), ("k", "v")]))
        #expect(stub.requests.count == 2)
        for request in stub.requests {
            #expect(request.url.absoluteString == "https://api.example.com/v1/search?applicationId=app%201&k=v")
            #expect(request.headers["X-Client"] == "tests")
        }
    }
}
