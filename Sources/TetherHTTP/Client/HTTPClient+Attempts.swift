import Foundation
import TetherIO

extension HTTPClient {
    /// Sends `prepared` until it succeeds, fails for good or runs out of attempts or time.
    ///
    /// Each attempt waits for the rate limit, runs the interceptors' `adapt`, goes through the transport under the
    /// attempt's deadline and follows redirects. A failed attempt is retried as ``RetryPolicy`` and the
    /// interceptors decide. The last response is returned even when its status is a failure (validation comes
    /// later); errors are thrown.
    ///
    /// `shared`, for a transfer shared by coalesced callers, learns each attempt as it starts, so a caller that
    /// stops waiting reports the attempts made.
    ///
    /// On ``URLSessionTransport`` each attempt runs in the calling task and the transport enforces its deadline by
    /// cancelling the data task; on other transports each attempt runs in a task of its own under
    /// ``withDeadline(_:operation:)``.
    func sendAttempts(
        _ prepared: TransportRequest, policy: RetryPolicy, summary: RequestSummary, deadlines: Deadlines,
        progress: (@Sendable (TransferProgress) -> Void)?, shared: SharedTransfer? = nil
    ) async throws(HTTPError) -> Exchange {
        var attempt = 0
        var statuses: [Int?] = []
        var durations: [Duration] = []
        var rateLimitWait = Duration.zero
        var interceptorRetries = 0
        let retrySafe = RetryPolicy.isRetrySafe(method: prepared.method, headers: prepared.headers)
        // A shared transfer is also cancelled when abandoned.
        func isCancelled() -> Bool { Task.isCancelled || shared?.isAbandoned == true }

        while true {
            attempt += 1
            if isCancelled() { throw HTTPError(.cancelled, request: summary, attempts: attempt - 1) }
            if let total = deadlines.total, let remaining = deadlines.remaining, remaining <= .zero {
                throw HTTPError(.timeout(.total(total)), request: summary, attempts: attempt - 1)
            }
            if !rateLimiter.isEmpty {
                do {
                    let host = prepared.url.host
                    rateLimitWait += try await rateLimiter.acquire(host: host)
                } catch {
                    throw HTTPError(.cancelled, request: summary, attempts: attempt - 1)
                }
            }
            var wire = prepared
            for interceptor in configuration.interceptors {
                do {
                    wire = try await interceptor.adapt(wire)
                } catch let error as HTTPError {
                    throw HTTPError(error.kind, request: summary, attempts: attempt - 1)
                } catch {
                    if isCancelled() { throw HTTPError(.cancelled, request: summary, attempts: attempt - 1) }
                    throw HTTPError(
                        .invalidRequest(reason: "an interceptor failed: \(error)"), request: summary,
                        attempts: attempt - 1)
                }
            }
            let (limit, timeout) = deadlines.nextAttempt()
            wire.timeout = limit
            notify(.started(summary, attempt: attempt))

            shared?.attemptStarted(attempt)
            let attemptStart = ContinuousClock.now
            let outcome: Result<TransportResponse, HTTPError>
            do {
                let response: TransportResponse
                let request = wire
                if transportEnforcesDeadlines {
                    // The transport ends its own transfer at the deadline: no task needed.
                    response = try await followRedirects(
                        request, progress, deadline: attemptStart + limit, sharing: shared)
                } else {
                    response = try await withDeadline(limit) {
                        try await self.followRedirects(request, progress, deadline: nil)
                    }
                }
                outcome = .success(response)
            } catch {
                outcome = .failure(
                    classify(error, timeout: timeout, summary: summary, attempts: attempt, cancelled: isCancelled()))
            }
            durations.append(ContinuousClock.now - attemptStart)

            let context: RetryContext
            switch outcome {
            case .success(let response):
                statuses.append(response.status.code)
                if response.status.code < 400 {
                    return Exchange(
                        response: response, source: .network, attempts: attempt, attemptDurations: durations,
                        rateLimitWait: rateLimitWait)
                }
                context = RetryContext(attempt: attempt, response: response, error: nil, statuses: statuses)
            case .failure(let error):
                if case .cancelled = error.kind { throw error }
                statuses.append(nil)
                context = RetryContext(attempt: attempt, response: nil, error: error, statuses: statuses)
            }

            var decision = RetryDecision.useDefault
            for interceptor in configuration.interceptors {
                decision = await interceptor.retryDecision(for: wire, context: context)
                if decision != .useDefault { break }
            }
            var delay: Duration?
            var reason = Self.reason(for: outcome)
            switch decision {
            case .doNotRetry:
                delay = nil
            case .retry, .retryAfter:
                if interceptorRetries < configuration.maximumInterceptorRetries {
                    interceptorRetries += 1
                    if case .retryAfter(let wait) = decision { delay = wait } else { delay = .zero }
                    reason += " (interceptor)"
                }
            case .useDefault:
                if attempt < policy.maximumAttempts && retrySafe && Self.isRetryable(outcome, policy: policy) {
                    if case .success(let response) = outcome, let retryAfter = RetryAfter.delay(in: response.headers) {
                        delay =
                            retryAfter <= policy.maximumRetryAfter
                            ? (policy.ignoresRetryAfter ? .zero : retryAfter) : nil
                    } else {
                        delay = policy.delay(beforeRetry: attempt)
                    }
                }
            }
            var outOfTime = false
            if let wait = delay, let remaining = deadlines.remaining, wait >= remaining {
                delay = nil
                outOfTime = true
            }
            guard let delay else {
                switch outcome {
                case .success(let response):
                    return Exchange(
                        response: response, source: .network, attempts: attempt, attemptDurations: durations,
                        rateLimitWait: rateLimitWait)
                case .failure(let error):
                    // A timed-out attempt that would have been retried but for the total deadline: that deadline
                    // is what ended the request (the attempt can end after it on a loaded machine).
                    if outOfTime, case .timeout(.request) = error.kind, let total = deadlines.total {
                        throw HTTPError(.timeout(.total(total)), request: summary, attempts: attempt)
                    }
                    throw error
                }
            }
            notify(.retrying(summary, attempt: attempt, delay: delay, reason: reason))
            if delay > .zero {
                do {
                    try await Task.sleep(for: delay)
                } catch {
                    throw HTTPError(.cancelled, request: summary, attempts: attempt)
                }
            }
        }
    }

    /// One attempt's transfers: the request and the redirects it leads to.
    ///
    /// With a `deadline`, the transport enforces it on each transfer and throws ``DeadlineExceeded``: a
    /// ``URLSessionTransport`` through its own methods, ``NativeTransport`` through each request's `timeout` (what
    /// is left of the attempt's); otherwise the caller enforces it (``withDeadline(_:operation:)``). `sharing`, for a
    /// coalesced request, lets a buffered transfer outlive a cancelled caller (``TransferSharing``).
    func followRedirects(
        _ request: TransportRequest, _ progress: (@Sendable (TransferProgress) -> Void)?,
        deadline: ContinuousClock.Instant?, sharing: SharedTransfer? = nil
    ) async throws -> TransportResponse {
        var current = request
        var redirects = 0
        while true {
            let response: TransportResponse
            if let deadline, let urlSessionTransport {
                if let progress {
                    response = try await urlSessionTransport.sendStreaming(
                        current, progress: progress, deadline: deadline)
                } else {
                    response = try await urlSessionTransport.sendBuffered(
                        current, deadline: deadline, sharing: sharing)
                }
            } else {
                // A transport that enforces deadlines itself (the native one) gets what is left of the attempt's.
                if let deadline { current.timeout = max(.zero, deadline - .now) }
                response = try await transport.send(current, progress: progress)
            }
            let code = response.status.code
            guard [301, 302, 303, 307, 308].contains(code), let location = response.headers["Location"],
                let next = URL(string: location, relativeTo: current.url)?.absoluteURL,
                let scheme = next.scheme?.lowercased(), scheme == "http" || scheme == "https"
            else { return response }
            guard redirects < configuration.maximumRedirects else {
                throw HTTPError(
                    .tooManyRedirects(limit: configuration.maximumRedirects),
                    request: RequestSummary(method: request.method, url: ""))
            }
            redirects += 1
            if code == 303 && current.method != .head || (code == 301 || code == 302) && current.method == .post {
                current.method = .get
                current.body = nil
                current.headers.remove("Content-Type")
                current.headers.remove("Content-Length")
            }
            if !Self.sameOrigin(current.url, next) {
                for name in ["Authorization", "Proxy-Authorization", "Cookie"] { current.headers.remove(name) }
            }
            current.url = next
        }
    }

    static func sameOrigin(_ a: URL, _ b: URL) -> Bool {
        func port(_ url: URL) -> Int? { url.port ?? (url.scheme?.lowercased() == "https" ? 443 : 80) }
        return a.scheme?.lowercased() == b.scheme?.lowercased() && a.host?.lowercased() == b.host?.lowercased()
            && port(a) == port(b)
    }

    /// Maps whatever an attempt threw to an ``HTTPError``.
    func classify(
        _ error: any Error, timeout: HTTPError.Timeout, summary: RequestSummary, attempts: Int, cancelled: Bool
    ) -> HTTPError {
        if cancelled { return HTTPError(.cancelled, request: summary, attempts: attempts) }
        if error is DeadlineExceeded { return HTTPError(.timeout(timeout), request: summary, attempts: attempts) }
        if let error = error as? HTTPError { return HTTPError(error.kind, request: summary, attempts: attempts) }
        if error is CancellationError { return HTTPError(.cancelled, request: summary, attempts: attempts) }
        if let urlError = error as? URLError {
            switch urlError.code {
            case .timedOut: return HTTPError(.timeout(timeout), request: summary, attempts: attempts)
            case .cancelled: return HTTPError(.cancelled, request: summary, attempts: attempts)
            default: break
            }
        }
        return HTTPError(.transport(underlying: error), request: summary, attempts: attempts)
    }

    static func isRetryable(_ outcome: Result<TransportResponse, HTTPError>, policy: RetryPolicy) -> Bool {
        switch outcome {
        case .success(let response):
            return policy.retryableStatuses.contains(response.status.code)
        case .failure(let error):
            switch error.kind {
            case .transport(let underlying):
                if let error = underlying as? IOError, error.isCertificateFailure || error.code == .tlsConfiguration {
                    return false  // The same certificate or settings would fail again.
                }
                return !(underlying is any TransportMisuse)
            case .timeout(.request): return true
            default: return false
            }
        }
    }

    static func reason(for outcome: Result<TransportResponse, HTTPError>) -> String {
        switch outcome {
        case .success(let response): "status \(response.status.code)"
        case .failure(let error):
            switch error.kind {
            case .transport(let underlying): "transport error (\(HTTPError.describe(underlying)))"
            case .timeout: "timed out"
            default: "\(error.kind)"
            }
        }
    }
}
