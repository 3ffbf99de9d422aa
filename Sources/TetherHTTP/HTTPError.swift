public import Foundation
import TetherIO

/// The one error TetherHTTP throws.
///
/// Every failure of ``HTTPClient/send(_:)`` is an `HTTPError`: its ``kind`` says what went wrong and carries the
/// details (the status and body, the decoding path, the underlying transport error); ``request`` says which request
/// failed, with secrets redacted; ``message`` is a short sentence fit to show in a UI.
///
/// ```swift
/// import Foundation
/// import TetherHTTP
///
/// struct Post: Codable, Sendable { var id: Int; var title: String }
/// let client = HTTPClient(baseURL: URL(string: "http://127.0.0.1:3000")!)
///
/// do {
///     let posts = try await client.send(Request<[Post]>(path: "/posts")).value
///     print(posts.count)
/// } catch {
///     switch error.kind {
///     case .status(let failure) where failure.status.code == 404: print("no posts")
///     case .cancelled: break
///     default: print(error.message)   // fit for a banner
///     }
/// }
/// ```
public struct HTTPError: Error, Sendable, CustomStringConvertible {
    /// What went wrong.
    public enum Kind: Sendable {
        /// The request could not be built: a malformed URL or path, a body that could not be encoded, a bad
        /// header. Never retried.
        case invalidRequest(reason: String)
        /// The connection failed: refused, reset, DNS, TLS. `underlying` is the transport's own error.
        case transport(underlying: any Error)
        /// A deadline passed: the per-request timeout of one attempt (`.request`) or the total deadline across
        /// retries (`.total`).
        case timeout(Timeout)
        /// The calling task was cancelled (or the handle returned by a completion-handler call was).
        case cancelled
        /// The server answered with a status the request does not accept.
        case status(StatusFailure)
        /// The body could not be decoded into the response type.
        case decoding(DecodingFailure)
        /// The response body exceeded the configured maximum size; the transfer was stopped.
        case responseTooLarge(limit: Int)
        /// More redirects than ``HTTPClient/Configuration/maximumRedirects``.
        case tooManyRedirects(limit: Int)
        /// The cache-only policy found no usable cached response.
        case notCached
    }

    /// Which deadline passed.
    public enum Timeout: Sendable, Equatable {
        /// One attempt took longer than its timeout.
        case request(Duration)
        /// All attempts together took longer than the total deadline.
        case total(Duration)
    }

    /// A response with an unacceptable status.
    public struct StatusFailure: Sendable {
        /// The status the server sent.
        public var status: HTTPStatus
        /// The response headers.
        public var headers: HTTPHeaders
        /// The raw response body.
        public var body: Data
        /// The body decoded by the configuration's ``HTTPClient/Configuration/apiErrorDecoder``, when it could.
        public var apiError: (any Error)?
    }

    /// A body that did not decode.
    public struct DecodingFailure: Sendable {
        /// Where in the body decoding failed, as a dotted path (`Items[3].Item.itemPrice`); empty at the top.
        public var codingPath: String
        /// The decoder's explanation.
        public var reason: String
        /// The start of the body, at most 200 characters, for logs.
        public var bodyExcerpt: String
        /// The decoder's own error.
        public var underlying: any Error
    }

    /// What failed.
    public var kind: Kind
    /// The request that failed, with secrets redacted (see ``HTTPClient/Configuration/redactedQueryItems``).
    public var request: RequestSummary
    /// How many attempts were made (0 when the request never went out).
    public var attempts: Int

    public init(_ kind: Kind, request: RequestSummary, attempts: Int = 0) {
        self.kind = kind
        self.request = request
        self.attempts = attempts
    }

    /// The HTTP status for ``Kind/status(_:)`` failures, else `nil`.
    public var status: HTTPStatus? {
        if case .status(let failure) = kind { return failure.status }
        return nil
    }

    /// Whether this error is a cancellation (by `Task.cancel()` or a handle's `cancel()`).
    public var isCancellation: Bool {
        if case .cancelled = kind { return true }
        return false
    }

    /// Whether the connection was refused: the host answered, but nothing listens on the port (`ECONNREFUSED`, or
    /// `URLError.cannotConnectToHost`). Sending again at once cannot help; a caller that keeps the request for later
    /// (an outbox) waits instead of retrying.
    public var isConnectionRefused: Bool {
        guard case .transport(let underlying) = kind else { return false }
        if let error = underlying as? IOError {
            return error.code == .connectionFailed && error.errno == ECONNREFUSED
        }
        if let error = underlying as? URLError { return error.code == .cannotConnectToHost }
        return false
    }

    /// A short sentence for a UI: no URL, no stack, no jargon beyond the status.
    ///
    /// For status failures whose body decoded as an API error, the API's own message is used.
    public var message: String {
        switch kind {
        case .invalidRequest(let reason): return "The request is invalid: \(reason)."
        case .transport(let misuse as any TransportMisuse): return misuse.description
        case .transport(let error as IOError) where error.isCertificateFailure:
            return "The server's certificate was not accepted."
        case .transport(let error as IOError) where error.isTLS:
            return "A secure connection to the server could not be made."
        case .transport: return "The server could not be reached."
        case .timeout: return "The server took too long to answer."
        case .cancelled: return "The request was cancelled."
        case .status(let failure):
            if let apiError = failure.apiError {
                let text = (apiError as? any LocalizedError)?.errorDescription ?? String(describing: apiError)
                return "\(text) (\(failure.status.code))"
            }
            return "The server answered \(failure.status.code) \(failure.status.reason)."
        case .decoding: return "The server's answer could not be read."
        case .responseTooLarge(let limit): return "The server's answer is larger than \(limit) bytes."
        case .tooManyRedirects: return "The server redirected too many times."
        case .notCached: return "No saved copy is available."
        }
    }

    /// The message plus the request and the technical details, for logs.
    public var description: String {
        var text = "\(request.method.rawValue) \(request.url): "
        switch kind {
        case .invalidRequest(let reason): text += "invalid request: \(reason)"
        case .transport(let underlying): text += "transport error: \(HTTPError.describe(underlying))"
        case .timeout(.request(let limit)): text += "timed out after \(limit) (one attempt)"
        case .timeout(.total(let limit)): text += "timed out after \(limit) (total deadline)"
        case .cancelled: text += "cancelled"
        case .status(let failure):
            text += "status \(failure.status.code)"
            if let apiError = failure.apiError { text += ": \(apiError)" }
        case .decoding(let failure):
            text += "decoding failed at '\(failure.codingPath)': \(failure.reason); body starts \(failure.bodyExcerpt)"
        case .responseTooLarge(let limit): text += "response larger than \(limit) bytes"
        case .tooManyRedirects(let limit): text += "more than \(limit) redirects"
        case .notCached: text += "no cached response (cache-only policy)"
        }
        if attempts > 1 { text += " (after \(attempts) attempts)" }
        return text
    }
}

extension HTTPError {
    /// A transport error for logs without the URL it carries: Foundation's errors keep the request URL, secrets
    /// included, in their user info.
    static func describe(_ error: any Error) -> String {
        if let urlError = error as? URLError {
            return "URLError \(urlError.code.rawValue)"
        }
        if let ioError = error as? IOError { return "IOError \(ioError.code)" }
        let nsError = error as NSError
        if nsError.domain == NSURLErrorDomain { return "URLError \(nsError.code)" }
        return "\(type(of: error))"
    }
}

/// The method and URL of a request, with secrets redacted, as carried by ``HTTPError``.
public struct RequestSummary: Sendable, Hashable, CustomStringConvertible {
    /// The method.
    public var method: HTTPMethod
    /// The absolute URL with redacted query values replaced by `<redacted>`, or the path as given when no URL could
    /// be built.
    public var url: String

    public init(method: HTTPMethod, url: String) {
        self.method = method
        self.url = url
    }

    public var description: String { "\(method.rawValue) \(url)" }
}
