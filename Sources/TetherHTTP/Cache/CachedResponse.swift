import Foundation

/// A response as the cache stores and serves it: the final status, the header fields, the whole body, and the
/// times of the exchange that produced it (RFC 9111 §4.2.3 computes the response's age from them).
///
/// `url` is the request's target URL: the entry is stored under it and found by a request for the same URL (the
/// fragment is not part of the key). `requestTime` is when the request was sent and `responseTime` when the
/// response arrived, both by the client's clock.
struct CachedResponse: Sendable, Equatable {
    var status: Int
    var headers: HTTPHeaders
    var body: Data
    var url: URL
    var requestTime: Date
    var responseTime: Date

    init(status: Int, headers: HTTPHeaders, body: Data, url: URL, requestTime: Date, responseTime: Date) {
        self.status = status
        self.headers = headers
        self.body = body
        self.url = url
        self.requestTime = requestTime
        self.responseTime = responseTime
    }

    /// What the response weighs in the memory tier: body bytes plus an estimate of the header fields and the URL
    /// (their UTF-8 bytes and 32 bytes of bookkeeping per field), plus a fixed 256 bytes per entry.
    var cost: Int {
        var cost = 256 + body.count + url.absoluteString.utf8.count
        for field in headers { cost += field.name.utf8.count + field.value.utf8.count + 32 }
        return cost
    }
}
