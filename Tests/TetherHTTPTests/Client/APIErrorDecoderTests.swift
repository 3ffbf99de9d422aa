import Foundation
import Testing
import TetherHTTP
import TetherHTTPTesting
import TetherJSON

/// ``APIErrorDecoder/standard``: the error shapes of real APIs, read into an ``APIProblem``.
@Suite struct APIErrorDecoderTests {
    private func read(_ json: String) -> APIProblem? {
        APIProblem(body: Data(json.utf8))
    }

    @Test func rfc9457ProblemDetails() throws {
        let problem = try #require(
            read(
                """
                {"type": "https://example.com/probs/out-of-credit", "title": "You do not have enough credit.",
                 "status": 403, "detail": "Your current balance is 30, but that costs 50.",
                 "instance": "/account/12345/msgs/abc", "balance": 30}
                """))
        #expect(problem.message == "Your current balance is 30, but that costs 50.")
        #expect(problem.title == "You do not have enough credit.")
        #expect(problem.type == "https://example.com/probs/out-of-credit")
        #expect(problem.status == 403)
        #expect(problem.instance == "/account/12345/msgs/abc")
        #expect(problem.json["balance"]?.int == 30)
        // A title alone is the message; so is Django REST's lone `detail`.
        #expect(read(#"{"title": "Not Found", "status": 404}"#)?.message == "Not Found")
        #expect(
            read(#"{"detail": "Authentication credentials were not provided."}"#)?.message
                == "Authentication credentials were not provided.")
    }

    @Test func oauthAndRakutenClassic() throws {
        let rakuten = try #require(
            read(#"{"error_description": "specify valid applicationId", "error": "wrong_parameter"}"#))
        #expect(rakuten.message == "specify valid applicationId")
        #expect(rakuten.code == "wrong_parameter")
        #expect(rakuten.description == "wrong_parameter: specify valid applicationId")
    }

    @Test func nestedErrorObjects() throws {
        let google = try #require(
            read(#"{"error": {"code": 400, "message": "Invalid value at 'q'", "status": "INVALID_ARGUMENT"}}"#))
        #expect(google.message == "Invalid value at 'q'")
        #expect(google.code == "400")
        let stripe = try #require(
            read(#"{"error": {"type": "card_error", "message": "Your card was declined."}}"#))
        #expect(stripe.message == "Your card was declined.")
        #expect(stripe.code == "card_error")
        let gateway = try #require(
            read(#"{"errors": {"errorCode": 400, "errorMessage": "accessKey must be present"}}"#))
        #expect(gateway.message == "accessKey must be present")
        #expect(gateway.code == "400")
    }

    @Test func listsOfErrorsGiveTheFirst() throws {
        #expect(
            read(#"{"errors": [{"message": "Field 'x' doesn't exist"}, {"message": "second"}]}"#)?.message
                == "Field 'x' doesn't exist")
        #expect(
            read(#"{"errors": [{"status": "422", "title": "Invalid", "detail": "title is empty"}]}"#)?.message
                == "title is empty")
        #expect(read(#"{"errors": ["first", "second"]}"#)?.message == "first")
    }

    @Test func plainMessagesAndCodes() throws {
        let tether = try #require(read(#"{"error": "invalid_json", "message": "the body is not JSON"}"#))
        #expect(tether.message == "the body is not JSON")
        #expect(tether.code == "invalid_json")
        #expect(read(#"{"message": "title must not be empty", "code": 1002}"#)?.code == "1002")
        #expect(read(#"{"error": "Unauthorized"}"#)?.message == "Unauthorized")
        #expect(read(#"{"message": "  spaced  "}"#)?.message == "spaced")
    }

    @Test func bodiesWithoutAMessageGiveNone() {
        #expect(read("") == nil)
        #expect(read("{}") == nil)
        #expect(read(#"{"message": ""}"#) == nil)
        #expect(read(#"{"message": null, "error": 3.5}"#)?.message == "3.5")
        #expect(read("<html><body>Bad Gateway</body></html>") == nil)
        #expect(read(#"["message"]"#) == nil)
        #expect(read(#"{"message": "truncated"#) == nil)
        #expect(read(#"{"items": [], "count": 0}"#) == nil)
    }

    @Test func theClientShowsTheServersMessageByDefault() async throws {
        let stub = StubTransport(script: [
            .json(#"{"message": "title must not be empty"}"#, status: 422)
        ])
        let client = HTTPClient(baseURL: URL(string: "https://api.example.com")!) { $0.transport = stub }
        do {
            _ = try await client.send(Request<Data>(path: "/notes", method: .post, body: .json(["title": ""])))
            Issue.record("a 422 succeeded")
        } catch {
            #expect(error.message == "title must not be empty (422)")
            guard case .status(let failure) = error.kind else { throw error }
            let problem = try #require(failure.apiError as? APIProblem)
            #expect(problem.status == 422)
            #expect(error.description.contains("status 422: title must not be empty"))
        }
    }

    @Test func withoutADecoderTheMessageIsTheStatus() async throws {
        let stub = StubTransport(script: [.json(#"{"message": "title must not be empty"}"#, status: 422)])
        let client = HTTPClient(baseURL: URL(string: "https://api.example.com")!) {
            $0.transport = stub
            $0.apiErrorDecoder = nil
        }
        do {
            _ = try await client.send(Request<Data>(path: "/notes", method: .post, body: .json(["title": ""])))
            Issue.record("a 422 succeeded")
        } catch {
            #expect(error.message == "The server answered 422 Unprocessable Content.")
            guard case .status(let failure) = error.kind else { throw error }
            #expect(failure.apiError == nil)
        }
    }
}
