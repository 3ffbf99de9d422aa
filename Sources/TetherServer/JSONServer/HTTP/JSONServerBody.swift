import TetherHTTP1
import TetherJSON

/// json-server's response bodies: `JSON.stringify(value, null, 2)`, that is two-space indentation, `"key": value`,
/// members in stored order, `/` unescaped, no trailing newline, with `Content-Type: application/json;
/// charset=utf-8`.
enum JSONServerBody {
    private static let writer = JSONWriter(options: [.prettyPrinted, .withoutEscapingSlashes])

    /// The pretty-printed bytes of `json` (values in the database are always finite, so this cannot fail).
    static func bytes(_ json: JSON) -> [UInt8] {
        (try? writer.bytes(json)) ?? Array("null".utf8)
    }

    /// A response carrying `json`, after `headers`, with a strong `ETag` of the body when `tagged`.
    static func response(
        _ json: JSON, status: HTTPStatus = .ok, headers: HTTPHeaders = [:], tagged: Bool
    ) -> HTTPResponse {
        let body = bytes(json)
        var headers = headers
        headers.add("Content-Type", "application/json; charset=utf-8")
        if tagged { headers.add("ETag", EntityTag.of(body)) }
        return HTTPResponse(status: status, headers: headers, body: body)
    }

    /// json-server's 404: `{}`.
    static var notFound: HTTPResponse { response(.object([:]), status: .notFound, tagged: false) }

    /// One of our JSON errors, `{"error": "<reason>", "message": "<text>"}`.
    static func error(_ status: HTTPStatus, _ message: String, headers: HTTPHeaders = [:]) -> HTTPResponse {
        var response = HTTPResponse.jsonError(status, message)
        for (name, value) in headers { response.headers.add(name, value) }
        return response
    }

    /// The item's strong tag: the tag of its plain `GET` body.
    static func entityTag(of item: JSON.Object) -> String { EntityTag.of(bytes(.object(item))) }

    /// `json` with every whole `Double` written as an integer, as JavaScript reads and writes numbers
    /// (`1.0` is `1`), so stored data and responses match json-server's.
    static func normalized(_ json: JSON) -> JSON {
        switch json {
        case .number(let number):
            if !number.isInteger, let whole = number.int64, Double(whole) == number.double { return JSON(whole) }
            return json
        case .array(let elements):
            return .array(elements.map(normalized))
        case .object(let object):
            return .object(JSON.Object(keys: object.keys, values: object.values.map(normalized)))
        default:
            return json
        }
    }
}
