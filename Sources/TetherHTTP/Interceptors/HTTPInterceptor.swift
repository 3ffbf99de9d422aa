/// Changes requests before they go out, and decides about retries after they fail.
///
/// Interceptors run in the order of ``HTTPClient/Configuration/interceptors``: `adapt` before every attempt (so a
/// refreshed token is picked up by the retry), `retryDecision` after every failed attempt until one returns
/// something other than ``RetryDecision/useDefault``.
///
/// Calling rules: both methods may be called concurrently for different requests, from any task; they must be
/// thread safe. An error thrown by `adapt` fails the request: an ``HTTPError`` as is, anything else as
/// ``HTTPError/Kind/invalidRequest(reason:)``.
public protocol HTTPInterceptor: Sendable {
    /// Returns the request to send, changed as needed (a header, a query item, a signature).
    func adapt(_ request: TransportRequest) async throws -> TransportRequest

    /// Decides whether a failed attempt is retried. The default is ``RetryDecision/useDefault``.
    func retryDecision(for request: TransportRequest, context: RetryContext) async -> RetryDecision
}

extension HTTPInterceptor {
    public func adapt(_ request: TransportRequest) async throws -> TransportRequest { request }

    public func retryDecision(for request: TransportRequest, context: RetryContext) async -> RetryDecision {
        .useDefault
    }
}

/// An interceptor that sets a header or a query item on every request, for API keys and app ids.
///
/// ```swift
/// import Foundation
/// import TetherHTTP
///
/// let client = HTTPClient(baseURL: URL(string: "https://app.rakuten.co.jp")!) {
///     $0.interceptors = [RequestDecorator.queryItem("applicationId", "1234567890123456789")]
/// }
/// ```
public struct RequestDecorator: HTTPInterceptor {
    private let change: @Sendable (inout TransportRequest) -> Void

    /// An interceptor that applies `change` to every request.
    public init(_ change: @escaping @Sendable (inout TransportRequest) -> Void) {
        self.change = change
    }

    /// Sets header `name` on every request (replacing a value the request has).
    public static func header(_ name: String, _ value: String) -> RequestDecorator {
        RequestDecorator { $0.headers.set(name, value) }
    }

    /// Sets query item `name` on every request (replacing a value the request has).
    public static func queryItem(_ name: String, _ value: String) -> RequestDecorator {
        RequestDecorator { $0.setQueryItem(name, value) }
    }

    public func adapt(_ request: TransportRequest) async throws -> TransportRequest {
        var request = request
        change(&request)
        return request
    }
}
