import Foundation
import Testing

@testable import TetherHTTP

/// A fixed moment the cache tests count from, so no test depends on the clock.
let cacheEpoch = Date(timeIntervalSince1970: 1_700_000_000)

/// `cacheEpoch` plus `seconds`.
func cacheTime(_ seconds: Double) -> Date { cacheEpoch.addingTimeInterval(seconds) }

let cacheTestURL = URL(string: "http://127.0.0.1:8080/posts/1")!

/// A response as the transport would hand it to the cache, received at `cacheEpoch` unless told otherwise, with a
/// `Date` header matching its response time unless `headers` has one or `date` is `false`.
func cachedResponse(
    status: Int = 200, _ headers: HTTPHeaders = [:], body: String = #"{"id":1}"#, url: URL = cacheTestURL,
    requestTime: Date = cacheEpoch, responseTime: Date = cacheEpoch, date: Bool = true
) -> CachedResponse {
    var headers = headers
    if date, !headers.contains("Date") { headers.add("Date", HTTPDateParser.format(responseTime)) }
    return CachedResponse(
        status: status, headers: headers, body: Data(body.utf8), url: url, requestTime: requestTime,
        responseTime: responseTime)
}

extension CachedResponse {
    /// The response as a fresh lookup serves it: with `Age: seconds`.
    func aged(_ seconds: Int) -> CachedResponse {
        var response = self
        response.headers.set("Age", String(seconds))
        return response
    }
}

extension HTTPCache.Lookup {
    var isMiss: Bool { if case .miss = self { true } else { false } }
    var freshResponse: CachedResponse? { if case .fresh(let response) = self { response } else { nil } }
    var staleResponse: CachedResponse? { if case .stale(let response, _, _) = self { response } else { nil } }
    var validators: HTTPHeaders? { if case .stale(_, let validators, _) = self { validators } else { nil } }
}

extension HTTPCache {
    /// A memory-only cache with `configure` applied to the default configuration.
    static func memoryOnly(_ configure: (inout Configuration) -> Void = { _ in }) -> HTTPCache {
        var configuration = Configuration()
        configure(&configuration)
        return HTTPCache(configuration: configuration)
    }

    /// `lookup` for a GET of `url` at `now`.
    func get(_ headers: HTTPHeaders = [:], url: URL = cacheTestURL, at now: Date) -> Lookup {
        lookup(method: .get, url: url, requestHeaders: headers, now: now)
    }
}

/// A fresh directory under the system's temporary directory, removed when the value is dropped by `remove()`.
struct TemporaryCacheDirectory {
    let url: URL

    init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("tether-cache-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    var path: String { url.path }

    /// The names of the files in `directory` (default: the cache directory itself).
    func fileNames(in directory: URL? = nil) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: (directory ?? url).path)) ?? []).sorted()
    }

    func remove() { try? FileManager.default.removeItem(at: url) }
}

/// Runs `body` with a fresh temporary directory and removes it afterwards, whatever happens.
func withTemporaryCacheDirectory(_ body: (TemporaryCacheDirectory) throws -> Void) throws {
    let directory = try TemporaryCacheDirectory()
    defer { directory.remove() }
    try body(directory)
}
