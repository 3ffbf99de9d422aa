public import Foundation
import TetherJSON

/// Turns an error body into an error value for ``HTTPError/StatusFailure/apiError``.
///
/// Every client has one by default (``standard``), so a refused request's ``HTTPError/message`` is the server's
/// own text, `"title must not be empty (422)"`, instead of `"The server answered 422 Unprocessable Content."`:
///
/// ```swift
/// import TetherHTTP
///
/// func explain(_ error: HTTPError) -> String {
///     if case .status(let failure) = error.kind, let problem = failure.apiError as? APIProblem {
///         return problem.detail ?? problem.message
///     }
///     return error.message
/// }
/// ```
///
/// An API with its own error type sets ``json(_:)`` (as `HTTPClient.rakuten` does), or a closure.
///
/// - Thread safety: `Sendable`; the client calls it on its own tasks.
public struct APIErrorDecoder: Sendable {
    let decode: @Sendable (HTTPStatus, HTTPHeaders, Data) -> (any Error)?

    /// A decoder from a closure; return `nil` when the body is not an API error.
    public init(_ decode: @escaping @Sendable (HTTPStatus, HTTPHeaders, Data) -> (any Error)?) {
        self.decode = decode
    }

    /// Decodes bodies as JSON into `type`; bodies that do not decode give no API error.
    ///
    /// Give `type` a `LocalizedError` conformance and ``HTTPError/message`` shows its `errorDescription`.
    public static func json<APIError: Decodable & Error>(_ type: APIError.Type) -> APIErrorDecoder {
        APIErrorDecoder { _, _, body in try? TetherJSONDecoder().decode(APIError.self, from: body) }
    }

    /// The default: an ``APIProblem`` from RFC 9457 problem details or any of the common JSON error shapes (see
    /// ``APIProblem/init(body:)``); bodies that are not JSON, or hold no message, give none.
    public static let standard = APIErrorDecoder { status, _, body in
        guard var problem = APIProblem(body: body) else { return nil }
        if problem.status == nil { problem.status = status.code }
        return problem
    }
}
