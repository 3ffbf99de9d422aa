import Foundation

/// One stored response with what the cache needs to pick and judge it: its key, the request header values its
/// `Vary` names (RFC 9111 §4.1), and its parsed directives and freshness.
///
/// Only `key`, `response` and `varyFields` are persisted; the rest is derived again when an entry is read from
/// disk, so a changed ``HTTPCache/Configuration`` applies to old entries too.
struct CacheEntry: Sendable {
    /// One header field the response varies on: its lowercased name and the request's value at store time
    /// (`nil` when the request did not have it).
    struct VaryField: Sendable, Equatable {
        var name: String
        var value: String?
    }

    var key: String
    var response: CachedResponse
    var varyFields: [VaryField]
    /// The response's `Cache-Control`.
    let directives: CacheControl
    let freshness: Freshness
    /// `If-None-Match` and `If-Modified-Since` built from the response's `ETag` and `Last-Modified`.
    let validators: HTTPHeaders
    /// The response's `Vary` contains `*`: it never matches a later request.
    let varyIsWildcard: Bool

    /// An entry read back from storage.
    init(key: String, response: CachedResponse, varyFields: [VaryField], configuration: HTTPCache.Configuration) {
        self.key = key
        self.response = response
        // Normalised once here: values stored before normalising existed come back from disk as they were.
        self.varyFields = varyFields.map { field in
            VaryField(name: field.name, value: field.value.map { VaryValue.normalized($0, name: field.name) })
        }
        directives = CacheControl(response.headers)
        freshness = Freshness(response: response, directives: directives, configuration: configuration)
        var validators = HTTPHeaders()
        if let etag = response.headers["ETag"] { validators.add("If-None-Match", etag) }
        if let lastModified = response.headers["Last-Modified"] { validators.add("If-Modified-Since", lastModified) }
        self.validators = validators
        varyIsWildcard = CacheText.listElements(of: "Vary", in: response.headers).contains("*")
    }

    /// A new entry for `response` to the request with `requestHeaders`: records the values its `Vary` names.
    init(key: String, response: CachedResponse, requestHeaders: HTTPHeaders, configuration: HTTPCache.Configuration) {
        var names: [String] = []
        for name in CacheText.listElements(of: "Vary", in: response.headers) {
            let lowercased = CacheText.lowercased(name)
            if !names.contains(lowercased) { names.append(lowercased) }
        }
        let fields = names.filter { $0 != "*" }.map {
            VaryField(name: $0, value: VaryValue.of($0, in: requestHeaders))
        }
        self.init(key: key, response: response, varyFields: fields, configuration: configuration)
    }

    /// Whether a request with `requestHeaders` may be answered with this entry (RFC 9111 §4.1): each header
    /// field named by `Vary` has the same value once normalised (``VaryValue``: lines combined, whitespace around
    /// members dropped, case folded where the field is case-insensitive) or is absent in both; `Vary: *` never
    /// matches. The stored values are normalised once, when the entry is made or read back.
    ///
    /// - Complexity: O(v × h) for v varied fields and h request header fields.
    func matches(_ requestHeaders: HTTPHeaders) -> Bool {
        guard !varyIsWildcard else { return false }
        return varyFields.allSatisfy { VaryValue.of($0.name, in: requestHeaders) == $0.value }
    }

    /// What the entry weighs in the memory tier: the response's cost plus its key and varied values.
    var cost: Int {
        varyFields.reduce(response.cost + key.utf8.count) { $0 + $1.name.utf8.count + ($1.value?.utf8.count ?? 0) }
    }

    /// How the entry answers a request with `requestDirectives` at `now` (RFC 9111 §4.2, §4.3.1, §5.2.1):
    /// fresh when its age is below its lifetime, the request's `max-age` and `min-fresh` are met, and neither
    /// side says `no-cache`; a request's `max-stale` lets a stale entry through unless it is `must-revalidate`.
    /// A fresh response is served with an `Age` field holding its current age in whole seconds; the stored one is
    /// unchanged. Otherwise stale, with the stored response, the conditional headers to validate it (empty when
    /// it has no validator) and how far it may still be served stale (RFC 5861).
    func lookup(_ requestDirectives: CacheControl, now: Date) -> HTTPCache.Lookup {
        let age = freshness.currentAge(at: now)
        let remaining = freshness.lifetime - age
        var usable = remaining > 0
        if !usable, let maxStale = requestDirectives.maxStale, !freshness.mustRevalidate {
            usable = -remaining <= Double(maxStale)
        }
        if let maxAge = requestDirectives.maxAge, !(age < Double(maxAge)) { usable = false }
        if let minFresh = requestDirectives.minFresh, remaining < Double(minFresh) { usable = false }
        if requestDirectives.noCache || freshness.requiresValidation { usable = false }
        guard usable else {
            let ifError = [directives.staleIfError, requestDirectives.staleIfError].compactMap { $0 }.max()
            let staleness = HTTPCache.Staleness(
                age: age, seconds: max(0, -remaining), whileRevalidating: directives.staleWhileRevalidate,
                ifError: ifError, mayServeStale: !freshness.mustRevalidate && !freshness.requiresValidation,
                requestWantsValidation: requestDirectives.noCache || requestDirectives.maxAge != nil
                    || requestDirectives.minFresh != nil)
            return .stale(response, validators: validators, staleness: staleness)
        }
        // RFC 9111 §5.1: a response served without validation carries its current age.
        var served = response
        served.headers.set("Age", String(Int(min(age.rounded(.down), Double(CacheControl.deltaSecondsCap)))))
        return .fresh(served)
    }
}
