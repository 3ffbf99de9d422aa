import TetherHTTP1

/// The server's responders in order, and the not-found answer when none answers: what both server cores ask.
struct ResponderChain: Sendable {
    let responders: [any HTTPResponder]
    /// The not-found answer, json-server style: `404` with the body `{}`.
    let notFound = HTTPResponse.json([:], status: .notFound)
    /// Whether every responder may run on the event loop (see ``HTTPResponder/runsOnEventLoop``).
    let runsOnEventLoop: Bool

    init(responders: [any HTTPResponder]) {
        self.responders = responders
        runsOnEventLoop = responders.allSatisfy(\.runsOnEventLoop)
    }

    /// The response to one request: after the planned latency, the planned fault status or the first responder's
    /// answer, else 404 `{}`.
    func response(to request: HTTPRequest, plan: FaultPlan?) async -> HTTPResponse {
        if let latency = plan?.latency { try? await Task.sleep(for: latency) }
        if let status = plan?.status {
            var response = HTTPResponse.jsonError(status, "fault injected by the server", code: "injected_fault")
            if status.code == 503 || status.code == 429 { response.headers.add("Retry-After", "1") }
            return response
        }
        for responder in responders {
            if let response = await responder.respond(to: request) { return response }
        }
        return notFound
    }

    /// Whether the responder asked to close the connection.
    static func closes(_ response: HTTPResponse) -> Bool {
        response.headers["Connection"].map { hasToken($0, "close") } ?? false
    }

    private static func hasToken(_ value: String, _ token: String) -> Bool {
        value.split(separator: ",").contains { $0.trimmingSpaces.caseInsensitiveEqual(token) }
    }
}
