import TetherSync

/// Sends `Authorization: Bearer <token>` and refreshes the token once when the server answers 401.
///
/// - Every request carries the current token.
/// - On a 401 for a request sent with the current token, `refresh` is called and the request is retried with the
///   new token. Concurrent 401s share one refresh: `refresh` runs once, and every waiting request retries with
///   its result.
/// - A 401 for a request sent with an older token is retried at once with the current one.
/// - A request is retried for a 401 at most once; a failing refresh is not retried, and its requests fail with
///   their 401, so a broken refresh cannot loop.
///
/// ```swift
/// import Foundation
/// import TetherHTTP
///
/// struct Token: Decodable { var accessToken: String }
/// let login = HTTPClient(baseURL: URL(string: "https://auth.example.com")!)
///
/// let auth = BearerAuthenticator(token: nil) { rejected in
///     try await login.send(Request<Token>(path: "/token", method: .post)).value.accessToken
/// }
/// let client = HTTPClient(baseURL: URL(string: "https://api.example.com")!) { $0.interceptors = [auth] }
/// ```
public final class BearerAuthenticator: HTTPInterceptor {
    private struct State {
        var token: String?
        var refresh: Task<String, any Error>?
    }

    private let state: Locked<State>
    private let refreshToken: @Sendable (_ rejected: String?) async throws -> String

    /// - Parameters:
    ///   - token: the token to start with, if any.
    ///   - refresh: returns a new token; it receives the token the server rejected.
    public init(token: String?, refresh: @escaping @Sendable (_ rejected: String?) async throws -> String) {
        state = Locked(State(token: token))
        refreshToken = refresh
    }

    /// The token requests carry now.
    public var token: String? { state.withLock { $0.token } }

    public func adapt(_ request: TransportRequest) async throws -> TransportRequest {
        guard let token = state.withLock({ $0.token }) else { return request }
        var request = request
        request.headers.set("Authorization", "Bearer \(token)")
        return request
    }

    public func retryDecision(for request: TransportRequest, context: RetryContext) async -> RetryDecision {
        guard context.response?.status.code == 401 else { return .useDefault }
        guard context.statuses.filter({ $0 == 401 }).count <= 1 else { return .doNotRetry }
        let sent = request.headers["Authorization"].flatMap { value -> String? in
            value.hasPrefix("Bearer ") ? String(value.dropFirst("Bearer ".count)) : nil
        }
        let task = state.withLock { state -> Task<String, any Error>? in
            if let current = state.token, current != sent, state.refresh == nil { return nil }
            if let running = state.refresh { return running }
            let refresh = refreshToken
            let task = Task { try await refresh(sent) }
            state.refresh = task
            return task
        }
        guard let task else { return .retry }
        do {
            let token = try await task.value
            state.withLock { state in
                state.token = token
                state.refresh = nil
            }
            return .retry
        } catch {
            state.withLock { state in state.refresh = nil }
            return .doNotRetry
        }
    }
}
