import TetherHTTP1
import TetherJSON

extension JSONServerResponder {
    /// The headers every json-server response starts with: `X-Powered-By`, the CORS headers of
    /// `cors({origin: true, credentials: true})` (the request's `Origin` echoed, `Vary: Origin`, credentials
    /// allowed), and `defaults()`'s no-cache trio.
    private func commonHeaders(for request: HTTPRequest) -> HTTPHeaders {
        var headers: HTTPHeaders = [:]
        if configuration.sendsPoweredBy { headers.add("X-Powered-By", "Express") }
        if let origin = request.headers["Origin"], !origin.isEmpty {
            headers.add("Access-Control-Allow-Origin", origin)
        }
        headers.add("Vary", "Origin")
        headers.add("Access-Control-Allow-Credentials", "true")
        return headers
    }

    /// A route's response with the common headers in front, turned into `304 Not Modified` when it is a `200`
    /// to a `GET`/`HEAD` whose `If-None-Match` lists its `ETag`.
    func finish(_ response: HTTPResponse, for request: HTTPRequest) -> HTTPResponse {
        var headers = commonHeaders(for: request)
        headers.add("Cache-Control", "no-cache")
        headers.add("Pragma", "no-cache")
        headers.add("Expires", "-1")
        for (name, value) in response.headers { headers.add(name, value) }
        if response.status == .ok, request.method == .get || request.method == .head,
            let tag = response.headers["ETag"], let ifNoneMatch = request.headers["If-None-Match"],
            EntityTag.noneMatchHits(ifNoneMatch, current: tag)
        {
            headers.remove("Content-Type")
            return HTTPResponse(status: .notModified, headers: headers, body: [])
        }
        return HTTPResponse(status: response.status, headers: headers, body: response.bodyBytes ?? [])
    }

    /// The answer to any `OPTIONS` request, as the `cors` middleware gives it: 204 with the allowed methods
    /// and the requested headers reflected.
    func preflight(_ request: HTTPRequest) -> HTTPResponse {
        var headers = commonHeaders(for: request)
        headers.set("Vary", "Origin, Access-Control-Request-Headers")
        headers.add("Access-Control-Allow-Methods", "GET,HEAD,PUT,PATCH,POST,DELETE")
        if let requested = request.headers["Access-Control-Request-Headers"], !requested.isEmpty {
            headers.add("Access-Control-Allow-Headers", requested)
        }
        headers.add("Content-Length", "0")
        return HTTPResponse(status: .noContent, headers: headers, body: [])
    }
}
