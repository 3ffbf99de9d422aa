import Foundation

extension HTTPClient {
    /// The response for `prepared`: from the cache, from a transfer already in flight, or from the network, as the
    /// request's cache policy says; the cache is updated with what the network returns.
    ///
    /// A GET or HEAD the client made conditional itself (`If-None-Match`, `If-Modified-Since`) is answered with a
    /// 304 when the response the cache would serve meets its conditions (``ConditionalRequest``, RFC 9111 §4.3.2).
    func obtain<Value>(
        _ prepared: TransportRequest, request: Request<Value>, summary: RequestSummary, deadlines: Deadlines,
        progress: (@Sendable (TransferProgress) -> Void)?
    ) async throws(HTTPError) -> Exchange {
        var exchange = try await obtainFull(
            prepared, request: request, summary: summary, deadlines: deadlines, progress: progress)
        guard configuration.cache != nil, prepared.method == .get || prepared.method == .head,
            ConditionalRequest.isConditional(prepared.headers),
            ConditionalRequest.isNotModified(
                status: exchange.response.status.code, headers: exchange.response.headers, responseTime: Date(),
                requestHeaders: prepared.headers)
        else { return exchange }
        exchange.response = TransportResponse(
            status: HTTPStatus(code: 304), headers: ConditionalRequest.notModifiedHeaders(exchange.response.headers),
            body: Data(), url: exchange.response.url)
        return exchange
    }

    private func obtainFull<Value>(
        _ prepared: TransportRequest, request: Request<Value>, summary: RequestSummary, deadlines: Deadlines,
        progress: (@Sendable (TransferProgress) -> Void)?
    ) async throws(HTTPError) -> Exchange {
        let policy = request.retryPolicy ?? configuration.retryPolicy
        let readsCache = prepared.method == .get || prepared.method == .head
        guard let cache = configuration.cache, readsCache, prepared.body == nil else {
            let requestTime = Date()
            let exchange = try await network(
                prepared, stored: nil, policy: policy, summary: summary, deadlines: deadlines, progress: progress)
            if let cache = configuration.cache, !readsCache {
                let response = exchange.response
                cache.invalidate(
                    afterResponseTo: prepared.method, url: prepared.url, status: response.status.code,
                    headers: response.headers)
                // RFC 9110 §9.3.3: a POST response with explicit freshness whose Content-Location is the request's
                // URL answers later GETs of it.
                if prepared.method == .post, let location = response.headers["Content-Location"],
                    URL(string: CacheText.trimmed(location), relativeTo: prepared.url)?.absoluteURL == prepared.url,
                    CacheControl(response.headers).maxAge != nil || response.headers.contains("Expires")
                {
                    cache.store(
                        CachedResponse(
                            status: response.status.code, headers: response.headers, body: response.body,
                            url: prepared.url, requestTime: requestTime, responseTime: Date()),
                        method: .get, requestHeaders: [:], writesInBackground: true)
                }
            }
            return exchange
        }

        let cachePolicy = request.cachePolicy ?? configuration.cachePolicy
        let lookup: HTTPCache.Lookup =
            cachePolicy == .reload
            ? .miss
            : cache.lookup(method: prepared.method, url: prepared.url, requestHeaders: prepared.headers, now: Date())
        switch (cachePolicy, lookup) {
        case (.cacheOnly, .miss):
            throw HTTPError(.notCached, request: summary)
        case (_, .fresh(let stored)):
            return Exchange(cached: stored, source: .cache)
        case (.cacheOnly, .stale(let stored, _, let staleness)),
            (.returnCacheElseLoad, .stale(let stored, _, let staleness)):
            return Exchange(cached: stored, source: .cache, staleness: staleness)
        case (.staleWhileRevalidate, .stale(let stored, let validators, let staleness)):
            revalidateInBackground(prepared, stored: stored, validators: validators, policy: policy, summary: summary)
            return Exchange(cached: stored, source: .cache, staleness: staleness, revalidating: true)
        case (_, .stale(let stored, let validators, let staleness)) where staleness.allowsWhileRevalidating:
            // RFC 5861 §3: served at once, refreshed by one background revalidation.
            revalidateInBackground(prepared, stored: stored, validators: validators, policy: policy, summary: summary)
            return Exchange(cached: stored, source: .cache, staleness: staleness, revalidating: true)
        case (_, .stale(let stored, let validators, let staleness)):
            var conditional = prepared
            for field in validators { conditional.headers.set(field.name, field.value) }
            let servesOnError = staleness.allowsOnError(maximum: configuration.maximumStaleOnError)
            do throws(HTTPError) {
                let exchange = try await network(
                    conditional, stored: validators.isEmpty ? nil : stored, policy: policy, summary: summary,
                    deadlines: deadlines, progress: progress)
                // RFC 5861 §4: a server error is answered with the stored response.
                if servesOnError, [500, 502, 503, 504].contains(exchange.response.status.code) {
                    return Exchange(cached: stored, source: .cache, staleness: staleness, attempts: exchange.attempts)
                }
                return exchange
            } catch {
                guard servesOnError, Self.isUnreachable(error) else { throw error }
                return Exchange(cached: stored, source: .cache, staleness: staleness, attempts: error.attempts)
            }
        case (_, .miss):
            return try await network(
                prepared, stored: nil, policy: policy, summary: summary, deadlines: deadlines, progress: progress)
        }
    }

    /// Whether `error` means the server could not be reached or did not answer in time (not a cancellation, not
    /// a refused request).
    static func isUnreachable(_ error: HTTPError) -> Bool {
        switch error.kind {
        case .transport, .timeout: true
        default: false
        }
    }

    /// Sends `prepared` (sharing the transfer with identical requests in flight) and updates the cache with the
    /// answer; a 304 for `stored` serves `stored` with the new headers.
    func network(
        _ prepared: TransportRequest, stored: CachedResponse?, policy: RetryPolicy, summary: RequestSummary,
        deadlines: Deadlines, progress: (@Sendable (TransferProgress) -> Void)?
    ) async throws(HTTPError) -> Exchange {
        let work: @Sendable (SharedTransfer?) async throws -> Exchange = { [self] shared in
            let requestTime = Date()
            var exchange = try await sendAttempts(
                prepared, policy: policy, summary: summary, deadlines: deadlines, progress: progress,
                shared: shared)
            guard let cache = configuration.cache, prepared.method == .get || prepared.method == .head else {
                return exchange
            }
            let responseTime = Date()
            let response = exchange.response
            if response.status.code == 304, let stored {
                let merged = cache.refresh(
                    stored, with: response.headers, method: prepared.method, requestHeaders: prepared.headers,
                    requestTime: requestTime, responseTime: responseTime, writesInBackground: true)
                exchange.response = TransportResponse(
                    status: HTTPStatus(code: merged.status), headers: merged.headers, body: merged.body,
                    url: response.url)
                exchange.source = .revalidated
            } else if prepared.method == .get {
                _ = cache.store(
                    CachedResponse(
                        status: response.status.code, headers: response.headers, body: response.body,
                        url: prepared.url, requestTime: requestTime, responseTime: responseTime),
                    method: prepared.method, requestHeaders: prepared.headers, writesInBackground: true)
            }
            return exchange
        }
        guard configuration.coalescesRequests, prepared.method == .get || prepared.method == .head,
            prepared.body == nil
        else {
            do { return try await work(nil) } catch { throw error as! HTTPError }
        }
        do {
            // On URLSession without progress the first caller runs the transfer in its own task (no hand-off).
            let inline = urlSessionTransport != nil && progress == nil
            return try await coalescer.value(for: CoalescingKey(prepared), inline: inline) { shared in
                try await work(shared)
            }
        } catch let error as HTTPError {
            throw error
        } catch let error as CoalescedCancellation {
            throw HTTPError(.cancelled, request: summary, attempts: error.attempts)
        } catch {
            throw HTTPError(.cancelled, request: summary)
        }
    }

    /// Revalidates a stale entry on a task of its own (stale-while-revalidate), unless one is under way for its URL
    /// already; failures only reach the monitors.
    private func revalidateInBackground(
        _ prepared: TransportRequest, stored: CachedResponse, validators: HTTPHeaders, policy: RetryPolicy,
        summary: RequestSummary
    ) {
        let key = CacheKey.key(for: prepared.url)
        guard backgroundRevalidations.withLock({ $0.insert(key).inserted }) else { return }
        var conditional = prepared
        for field in validators { conditional.headers.set(field.name, field.value) }
        let deadlines = Deadlines(perAttempt: prepared.timeout, total: configuration.totalTimeout, start: .now)
        let request = conditional
        Task {
            defer { _ = backgroundRevalidations.withLock { $0.remove(key) } }
            do {
                _ = try await network(
                    request, stored: validators.isEmpty ? nil : stored, policy: policy, summary: summary,
                    deadlines: deadlines, progress: nil)
            } catch {
                if let error = error as? HTTPError { notify(.failed(error)) }
            }
        }
    }
}

extension Exchange {
    /// A response served from the cache; with `staleness`, a stale one, given an `Age` of its current age.
    init(
        cached: CachedResponse, source: Response<Void>.Source, staleness: HTTPCache.Staleness? = nil,
        revalidating: Bool = false, attempts: Int = 0
    ) {
        var headers = cached.headers
        if let staleness {
            headers.set("Age", String(Int(min(staleness.age.rounded(.down), Double(CacheControl.deltaSecondsCap)))))
        }
        self.init(
            response: TransportResponse(
                status: HTTPStatus(code: cached.status), headers: headers, body: cached.body, url: cached.url),
            source: source, attempts: attempts, attemptDurations: [], rateLimitWait: .zero,
            isStale: staleness != nil, isRevalidating: revalidating)
    }
}
