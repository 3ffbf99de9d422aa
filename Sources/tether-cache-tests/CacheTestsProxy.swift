import Foundation
import TetherHTTP
import TetherHTTP1
import TetherServer

/// Answers each request it gets by sending it on through one ``HTTPClient`` with one ``HTTPCache`` in its default
/// configuration (memory and disk), retries and redirects off, every status passed back as it came: the cache as
/// the HTTP Working Group's cache-tests suite sees a caching proxy.
struct CacheTestsProxy: HTTPResponder {
    let client: HTTPClient

    /// Fields that belong to one connection, never passed on (RFC 9110 §7.6.1), and those the server or the client
    /// sets for itself.
    static let connectionFields: Set<String> = [
        "connection", "keep-alive", "proxy-connection", "te", "trailer", "transfer-encoding", "upgrade",
        "proxy-authenticate", "proxy-authorization", "host", "content-length",
    ]

    init(origin: URL, cacheDirectory: URL) {
        let cache = HTTPCache(configuration: .init(directory: cacheDirectory))
        client = HTTPClient(baseURL: origin) {
            $0.headers = [:]
            $0.cache = cache
            $0.retryPolicy = .never
            $0.maximumRedirects = 0
            $0.acceptableStatuses = 100..<600
            $0.apiErrorDecoder = nil
            $0.coalescesRequests = false
        }
    }

    func respond(to request: HTTPRequest) async -> HTTPResponse? {
        let target = request.target
        let path = target.split(separator: "?", maxSplits: 1).first.map(String.init) ?? "/"
        var query: [(name: String, value: String?)] = []
        if let queryText = target.split(separator: "?", maxSplits: 1).dropFirst().first {
            for pair in queryText.split(separator: "&") {
                let parts = pair.split(separator: "=", maxSplits: 1)
                query.append(
                    (
                        String(parts[0]).removingPercentEncoding ?? String(parts[0]),
                        parts.count > 1 ? (String(parts[1]).removingPercentEncoding ?? String(parts[1])) : nil
                    ))
            }
        }
        var headers = HTTPHeaders()
        for field in request.headers where !Self.connectionFields.contains(field.name.lowercased()) {
            headers.add(field.name, field.value)
        }
        var outgoing = Request<Data>(path: path, method: request.method, query: query, headers: headers)
        if !request.body.isEmpty || ["POST", "PUT", "PATCH"].contains(request.method.rawValue) {
            outgoing.body = .data(
                Data(request.body), contentType: request.headers["Content-Type"] ?? "application/octet-stream")
        }
        do {
            let response = try await client.send(outgoing)
            var fields = HTTPHeaders()
            for field in response.headers where !Self.connectionFields.contains(field.name.lowercased()) {
                fields.add(field.name, field.value)
            }
            return HTTPResponse(status: response.status, headers: fields, body: Array(response.data))
        } catch {
            return HTTPResponse(
                status: HTTPStatus(code: 502), headers: ["Content-Type": "text/plain"],
                body: Array("tether-cache-tests: \(error.message)\n".utf8))
        }
    }
}
