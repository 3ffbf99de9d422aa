public import Foundation
public import TetherJSON

/// A request body: JSON, a URL-encoded form, a multipart form, or raw bytes.
///
/// JSON bodies are encoded when the request is sent, on a background task, with the client's
/// ``HTTPClient/Configuration/encoder``; an encoding failure is ``HTTPError/Kind/invalidRequest(reason:)``.
public struct RequestBody: Sendable {
    enum Content: Sendable {
        case bytes(Data)
        case json(@Sendable (TetherJSONEncoder) throws -> Data)
    }

    let content: Content
    /// The `Content-Type` sent with the body (a request header of the same name wins).
    public var contentType: String

    /// `value` encoded as JSON, `Content-Type: application/json`.
    public static func json<Value: Encodable & Sendable>(_ value: Value) -> RequestBody {
        RequestBody(content: .json({ encoder in try encoder.encode(value) }), contentType: "application/json")
    }

    /// A JSON value as is, `Content-Type: application/json`.
    public static func json(_ value: JSON) -> RequestBody {
        RequestBody(content: .json({ _ in Data(try JSONWriter().bytes(value)) }), contentType: "application/json")
    }

    /// Fields as `application/x-www-form-urlencoded`, in order, names and values percent-encoded per RFC 3986.
    public static func form(_ fields: [(name: String, value: String)]) -> RequestBody {
        let text = fields.map { "\(PercentEncoding.encode($0.name))=\(PercentEncoding.encode($0.value))" }
            .joined(separator: "&")
        return RequestBody(content: .bytes(Data(text.utf8)), contentType: "application/x-www-form-urlencoded")
    }

    /// A `multipart/form-data` form with fields and files.
    public static func multipart(_ form: MultipartForm) -> RequestBody {
        RequestBody(content: .bytes(form.encoded()), contentType: "multipart/form-data; boundary=\(form.boundary)")
    }

    /// Raw bytes with the given content type.
    public static func data(_ data: Data, contentType: String = "application/octet-stream") -> RequestBody {
        RequestBody(content: .bytes(data), contentType: contentType)
    }

    /// UTF-8 text.
    public static func text(_ text: String, contentType: String = "text/plain; charset=utf-8") -> RequestBody {
        RequestBody(content: .bytes(Data(text.utf8)), contentType: contentType)
    }

    /// The bytes to send.
    func encoded(with encoder: TetherJSONEncoder) throws -> Data {
        switch content {
        case .bytes(let data): data
        case .json(let encode): try encode(encoder)
        }
    }
}
