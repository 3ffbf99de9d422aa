public import TetherHTTP1
public import TetherJSON

extension HTTPResponse {
    /// A JSON response: `body` written compactly (or pretty, as json-server does), with
    /// `Content-Type: application/json; charset=utf-8`.
    public static func json(
        _ body: JSON, status: HTTPStatus = .ok, headers: HTTPHeaders = [:], pretty: Bool = false
    ) -> HTTPResponse {
        var headers = headers
        if !headers.contains("Content-Type") { headers.add("Content-Type", "application/json; charset=utf-8") }
        let bytes =
            (try? JSONWriter(options: pretty ? [.prettyPrinted, .withoutEscapingSlashes] : [.withoutEscapingSlashes])
                .bytes(body)) ?? Array("null".utf8)
        return HTTPResponse(status: status, headers: headers, body: bytes)
    }

    /// A JSON error body, `{"error": "<code>", "message": "<text>"}`, for limits and bad requests.
    public static func jsonError(_ status: HTTPStatus, _ message: String, code: String? = nil) -> HTTPResponse {
        .json(["error": .string(code ?? status.reason), "message": .string(message)], status: status)
    }
}
