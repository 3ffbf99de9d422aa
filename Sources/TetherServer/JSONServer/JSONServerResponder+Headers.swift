import Foundation
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
        let response = Self.wrappingJSONP(response, for: request)
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

    /// Express's `res.jsonp`: with a `callback` parameter, a JSON body becomes
    /// `/**/ typeof cb === 'function' && cb(<json>);` served as `text/javascript` (the name keeps only
    /// `[]`, word characters, `$` and `.`; U+2028 and U+2029 are escaped).
    static func wrappingJSONP(_ response: HTTPResponse, for request: HTTPRequest) -> HTTPResponse {
        guard request.targetMayContain("callback"),
            let callback = request.queryItems.first(where: { $0.name == "callback" })?.value, !callback.isEmpty,
            response.headers["Content-Type"]?.hasPrefix("application/json") == true, let body = response.bodyBytes
        else { return response }
        let name = String(
            String.UnicodeScalarView(
                callback.unicodeScalars.filter { scalar in
                    scalar == "[" || scalar == "]" || scalar == "$" || scalar == "." || scalar == "_"
                        || (scalar.isASCII && (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar)))
                }))
        let json = String(decoding: body, as: UTF8.self)
            .replacingOccurrences(of: "\u{2028}", with: "\\u2028")
            .replacingOccurrences(of: "\u{2029}", with: "\\u2029")
        let wrapped = Array("/**/ typeof \(name) === 'function' && \(name)(\(json));".utf8)
        var headers = HTTPHeaders()
        for (field, value) in response.headers {
            switch field.lowercased() {
            case "content-type":
                headers.add("X-Content-Type-Options", "nosniff")
                headers.add("Content-Type", "text/javascript; charset=utf-8")
            case "etag": headers.add("ETag", EntityTag.of(wrapped))
            default: headers.add(field, value)
            }
        }
        return HTTPResponse(status: response.status, headers: headers, body: wrapped)
    }
}
