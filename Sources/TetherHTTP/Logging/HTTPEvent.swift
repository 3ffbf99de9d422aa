/// Something that happened to a request, as told to each ``HTTPEventMonitor``.
///
/// Requests in events are redacted (``HTTPClient/Configuration/redactedQueryItems``, `Authorization`, `Cookie`).
public enum HTTPEvent: Sendable {
    /// An attempt is going out (attempt 1 is the first).
    case started(RequestSummary, attempt: Int)
    /// An attempt failed and another follows after `delay`.
    case retrying(RequestSummary, attempt: Int, delay: Duration, reason: String)
    /// The request succeeded.
    case finished(RequestSummary, status: HTTPStatus, source: Response<Void>.Source, duration: Duration, attempts: Int)
    /// The request failed.
    case failed(HTTPError)
}

/// Receives every ``HTTPEvent`` of a client, for logging and metrics.
///
/// Calling rules: `handle` is called synchronously on the request's task, from many tasks at once; it must be
/// thread safe and quick (hand heavy work to another task).
public protocol HTTPEventMonitor: Sendable {
    func handle(_ event: HTTPEvent)
}
