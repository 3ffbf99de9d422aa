import Foundation

/// How fresh a stored response is (RFC 9111 §4.2): its freshness lifetime and the age it had on arrival, worked
/// out once when the entry is made so that a lookup only adds the time it has been resident.
///
/// The freshness lifetime, first rule that applies (§4.2.1; `s-maxage` is for shared caches and ignored):
/// 1. `Cache-Control: max-age`;
/// 2. `Expires` minus `Date` (or minus the response time when `Date` is missing or invalid); an `Expires` that is
///    not an HTTP date means already expired;
/// 3. with ``HTTPCache/Configuration/usesHeuristicFreshness``, for a heuristically cacheable status, 10% of
///    `Date` minus `Last-Modified`, capped at 24 hours (§4.2.2);
/// 4. when there is no validator (`ETag`, `Last-Modified`), ``HTTPCache/Configuration/defaultTimeToLive``;
/// 5. otherwise zero: stale at once, so every use is revalidated.
///
/// The age (§4.2.3): `age_value` is the first member of the first `Age` line (RFC 9111 §5.1), and
/// `apparent_age = max(0, response_time - date_value)`,
/// `corrected_age_value = age_value + (response_time - request_time)`,
/// `corrected_initial_age = max(apparent_age, corrected_age_value)`, and the current age adds the resident time
/// `now - response_time` (never negative, should the clock step back).
struct Freshness: Sendable, Equatable {
    /// Seconds the response is fresh for, counted from its origin.
    var lifetime: Double
    /// The response's age in seconds when it arrived.
    var correctedInitialAge: Double
    /// When the response arrived.
    var responseTime: Date
    /// `no-cache`: validate before every use.
    var requiresValidation: Bool
    /// `must-revalidate`: never serve stale, even to a request with `max-stale`.
    var mustRevalidate: Bool

    /// The largest heuristic lifetime, in seconds.
    static let heuristicCap: Double = 86_400

    init(response: CachedResponse, directives: CacheControl, configuration: HTTPCache.Configuration) {
        let headers = response.headers
        let dateValue = headers["Date"].flatMap { HTTPDateParser.parse($0, now: response.responseTime) }
        let date = dateValue ?? response.responseTime

        if let maxAge = directives.maxAge {
            lifetime = Double(maxAge)
        } else if let expires = headers["Expires"] {
            let expiry = HTTPDateParser.parse(expires, now: response.responseTime)
            lifetime = expiry.map { max(0, $0.timeIntervalSince(date)) } ?? 0
        } else if configuration.usesHeuristicFreshness,
            CacheStorability.heuristicallyCacheableStatuses.contains(response.status),
            let lastModified = headers["Last-Modified"].flatMap({ HTTPDateParser.parse($0) })
        {
            lifetime = min(max(0, date.timeIntervalSince(lastModified)) / 10, Self.heuristicCap)
        } else if !Self.hasValidators(headers), let ttl = configuration.defaultTimeToLive {
            lifetime = max(0, Double(ttl.components.seconds) + Double(ttl.components.attoseconds) / 1e18)
        } else {
            lifetime = 0
        }

        // The first line's first member (`Age: 7200, 0` is 7200 old); a value that is not a number is ignored.
        let ageValue =
            headers["Age"].flatMap { line in
                CacheControl.deltaSeconds(CacheText.trimmed(line.prefix { $0 != "," }))
            } ?? 0
        let apparentAge = max(0, response.responseTime.timeIntervalSince(date))
        let responseDelay = max(0, response.responseTime.timeIntervalSince(response.requestTime))
        correctedInitialAge = max(apparentAge, Double(ageValue) + responseDelay)
        responseTime = response.responseTime
        requiresValidation = directives.noCache
        mustRevalidate = directives.mustRevalidate
    }

    /// The response's age at `now`, in seconds.
    func currentAge(at now: Date) -> Double {
        correctedInitialAge + max(0, now.timeIntervalSince(responseTime))
    }

    /// Whether `headers` carry a validator the cache can send back (`ETag` or `Last-Modified`).
    static func hasValidators(_ headers: HTTPHeaders) -> Bool {
        headers.contains("ETag") || headers.contains("Last-Modified")
    }
}
