import Foundation
import Testing
import TetherHTTP
import TetherHTTPTesting

/// An API error body shaped like Rakuten's.
struct StubAPIError: Decodable, Error, LocalizedError {
    enum CodingKeys: String, CodingKey {
        case error
        case detail = "error_description"
    }

    var error: String
    var detail: String
    var errorDescription: String? { detail }
}

@Suite struct ErrorsAndLoggingTests {
    @Test func aStatusFailureCarriesTheBodyAndTheDecodedAPIError() async {
        let body = #"{"error": "wrong_parameter", "error_description": "keyword is not valid"}"#
        let stub = StubTransport(script: [.json(body, status: 400)])
        let client = makeClient(stub) { $0.apiErrorDecoder = .json(StubAPIError.self) }
        let error = await #expect(throws: HTTPError.self) { try await client.send(Request<Data>(path: "/search")) }
        guard case .status(let failure) = error?.kind else {
            Issue.record("expected a status failure")
            return
        }
        #expect(failure.status.code == 400)
        #expect(failure.body == Data(body.utf8))
        #expect((failure.apiError as? StubAPIError)?.error == "wrong_parameter")
        #expect(error?.message == "keyword is not valid (400)")
    }

    @Test func aStatusFailureWithoutAnAPIErrorSaysTheStatus() async {
        let stub = StubTransport(script: [.status(404)])
        let error = await #expect(throws: HTTPError.self) { try await makeClient(stub).send(Request<Data>(path: "/x")) }
        #expect(error?.message == "The server answered 404 Not Found.")
        #expect(error?.description == "GET https://api.example.com/v1/x: status 404")
    }

    @Test func aWrongTypeIsADecodingErrorWithItsPath() async {
        let stub = StubTransport(script: [.json(#"[{"id": 1, "title": "a"}, {"id": "two", "title": "b"}]"#)])
        let error = await #expect(throws: HTTPError.self) {
            try await makeClient(stub).send(Request<[Note]>(path: "/n"))
        }
        guard case .decoding(let failure) = error?.kind else {
            Issue.record("expected a decoding failure, got \(String(describing: error))")
            return
        }
        #expect(failure.codingPath == "[1].id")
        #expect(failure.bodyExcerpt.hasPrefix(#"[{"id": 1"#))
        #expect(error?.message == "The server's answer could not be read.")
    }

    @Test func malformedJSONIsADecodingError() async {
        let stub = StubTransport(script: [.json(#"{"id": 1, "title": "a""#)])
        let error = await #expect(throws: HTTPError.self) { try await makeClient(stub).send(Request<Note>(path: "/n")) }
        guard case .decoding = error?.kind else {
            Issue.record("expected a decoding failure, got \(String(describing: error))")
            return
        }
    }

    @Test func aNonJSONContentTypeIsADecodingErrorForDecodableResponsesOnly() async throws {
        let html = StubResponse(status: 200, headers: ["Content-Type": "text/html"], body: Data("<html>".utf8))
        let stub = StubTransport(script: [html, html])
        let client = makeClient(stub)
        let error = await #expect(throws: HTTPError.self) { try await client.send(Request<Note>(path: "/n")) }
        guard case .decoding(let failure) = error?.kind else {
            Issue.record("expected a decoding failure")
            return
        }
        #expect(failure.reason == "expected JSON but the response is 'text/html'")
        #expect(try await client.send(Request<String>(path: "/n")).value == "<html>")
    }

    @Test func aBodyOverTheLimitIsResponseTooLarge() async {
        let stub = StubTransport(script: [.json(String(repeating: " ", count: 2000) + "{}")])
        let error = await #expect(throws: HTTPError.self) {
            try await makeClient(stub) { $0.maximumResponseSize = 1000 }.send(Request<Data>(path: "/big"))
        }
        guard case .responseTooLarge(let limit) = error?.kind else {
            Issue.record("expected responseTooLarge, got \(String(describing: error))")
            return
        }
        #expect(limit == 1000)
        #expect(stub.requests.count == 1)
    }

    @Test func secretsAreRedactedInErrorsLogsAndCurl() async {
        let log = EventLog()
        let stub = StubTransport(script: [.status(500), .status(500), .status(500)])
        let client = makeClient(stub) {
            $0.monitors = [log]
            $0.interceptors = [RequestDecorator.header("Authorization", "Bearer s3cret")]
        }
        var request = Request<Data>(path: "/search", query: [("applicationId", "APP-SECRET"), ("keyword", "a")])
        request.headers.set("Cookie", "session=COOKIE-SECRET")
        let error = await #expect(throws: HTTPError.self) { try await client.send(request) }
        let texts = [String(describing: error), error?.message ?? "", client.curlDescription(for: request)] + log.lines
        for text in texts {
            #expect(!text.contains("APP-SECRET"))
            #expect(!text.contains("s3cret"))
            #expect(!text.contains("COOKIE-SECRET"))
        }
        #expect(error?.request.url == "https://api.example.com/v1/search?applicationId=<redacted>&keyword=a")
        #expect(client.curlDescription(for: request).contains("-H 'Cookie: <redacted>'"))
        #expect(stub.requests.first?.url.query == "applicationId=APP-SECRET&keyword=a")
    }

    @Test func curlDescriptionRepeatsTheRequest() {
        let client = HTTPClient(baseURL: stubBase) { $0.headers = ["Accept": "application/json"] }
        let request = Request<Data>(path: "/notes", method: .post, body: .text("it's"))
        #expect(
            client.curlDescription(for: request)
                == #"curl -X POST -H 'Accept: application/json' -H 'Content-Type: text/plain; charset=utf-8' "#
                + #"--data-raw 'it'\''s' 'https://api.example.com/v1/notes'"#)
    }
}

@Suite struct CallStyleTests {
    @Test func theCompletionHandlerIsCalledOnceOnItsQueue() async throws {
        let stub = StubTransport(script: [.json(#"{"id": 1, "title": "a"}"#)])
        let client = makeClient(stub)
        let queue = DispatchQueue(label: "tests.completion")
        let key = DispatchSpecificKey<String>()
        queue.setSpecific(key: key, value: "mine")
        let calls = Counter()
        let value: Note = try await withCheckedThrowingContinuation { continuation in
            client.send(Request<Note>(path: "/notes/1"), on: queue) { result in
                calls.increment()
                #expect(DispatchQueue.getSpecific(key: key) == "mine")
                continuation.resume(with: result.map(\.value))
            }
        }
        #expect(value == Note(id: 1, title: "a"))
        try await Task.sleep(for: .milliseconds(20))
        #expect(calls.count == 1)
    }

    @Test func aCancelledCompletionCallReportsCancellation() async {
        let stub = StubTransport { _ in StubResponse.json("{}").delayed(by: .seconds(20)) }
        let client = makeClient(stub)
        let result: Result<Response<Data>, HTTPError> = await withCheckedContinuation { continuation in
            let handle = client.send(Request<Data>(path: "/slow"), on: DispatchQueue.global()) {
                continuation.resume(returning: $0)
            }
            handle.cancel()
        }
        guard case .failure(let error) = result else {
            Issue.record("expected a failure")
            return
        }
        #expect(error.isCancellation)
    }

    @Test func aBatchDeliversEveryResultInOrder() async throws {
        let stub = StubTransport { request in
            let id = Int(request.url.lastPathComponent) ?? 0
            if id == 2 { return .status(404) }
            return StubResponse.json(#"{"id": \#(id), "title": "n\#(id)"}"#).delayed(
                by: .milliseconds(Int64(50 - id * 10)))
        }
        let client = makeClient(stub)
        let requests = (1...4).map { Request<Note>(path: "/notes/\($0)") }
        let results: [Result<Response<Note>, HTTPError>] = await withCheckedContinuation { continuation in
            client.send(all: requests, on: DispatchQueue.global()) { continuation.resume(returning: $0) }
        }
        #expect(results.count == 4)
        #expect(try results[0].get().value.id == 1)
        #expect(results[1].failureStatus == 404)
        #expect(try results[2].get().value.id == 3)
        #expect(try results[3].get().value.id == 4)
    }

    @Test func progressReportsTheBytesOfTheBody() async throws {
        let stub = StubTransport(script: [StubResponse(body: Data(count: 5000))])
        let task = makeClient(stub).task(for: Request<Data>(path: "/big"))
        var last: TransferProgress?
        for await progress in task.progress { last = progress }
        let response = try await task.response
        #expect(response.data.count == 5000)
        #expect(last?.bytesReceived == 5000)
        #expect(last?.fractionReceived == 1)
    }
}

extension Result where Failure == HTTPError {
    var failureStatus: Int? {
        if case .failure(let error) = self { return error.status?.code }
        return nil
    }
}
