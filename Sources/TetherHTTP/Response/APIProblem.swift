public import Foundation
public import TetherJSON

/// What a server said about a request it refused, read from its error body by ``APIErrorDecoder/standard``.
///
/// ``message`` is the text to show; the other properties are set when the body has them. The body itself is in
/// ``json``, for extension members (RFC 9457) or fields of an API's own.
///
/// - Thread safety: a `Sendable` value.
public struct APIProblem: Error, Sendable, Hashable, LocalizedError, CustomStringConvertible {
    /// The text to show: the problem's `detail`, else its `title`, else the API's message.
    public var message: String
    /// A short, human-readable summary of the problem type (RFC 9457 `title`).
    public var title: String?
    /// The explanation of this occurrence (RFC 9457 `detail`, or the API's message).
    public var detail: String?
    /// A URI that identifies the problem type (RFC 9457 `type`).
    public var type: String?
    /// The HTTP status: the body's `status` when it has one, else the response's.
    public var status: Int?
    /// A URI for this occurrence (RFC 9457 `instance`).
    public var instance: String?
    /// The API's error code, when it gives one apart from the message (`"wrong_parameter"`, `"invalid_request"`,
    /// `"INVALID_ARGUMENT"`, a number as text).
    public var code: String?
    /// The whole body.
    public var json: JSON

    /// Reads an error body. These shapes are understood, first match wins:
    /// - RFC 9457 problem details: `{"type", "title", "status", "detail", "instance"}` (what ASP.NET, Spring and
    ///   many others send as `application/problem+json`, and Django REST's `{"detail"}`);
    /// - OAuth 2.0 and Rakuten: `{"error": "invalid_request", "error_description": "…"}`;
    /// - nested: `{"error": {"message": "…", "code": …}}` (Google, Stripe, OpenAI) and Rakuten's 2026 gateway
    ///   `{"errors": {"errorCode": 400, "errorMessage": "…"}}`;
    /// - a list: `{"errors": [{"message": "…"}]}` or `[{"detail": "…"}]` (GraphQL, JSON:API): the first one;
    /// - plain: `{"message": "…"}` (with `error` or `code` beside it as the code), or `{"error": "…"}` alone.
    ///
    /// - Returns: `nil` when the body is not a JSON object, or holds none of these with a non-empty text.
    public init?(body: Data) {
        guard !body.isEmpty, let json = try? JSON(parsing: body), case .object(let object) = json else {
            return nil
        }
        self.json = json
        title = Self.text(object["title"])
        detail = Self.text(object["detail"])
        type = Self.text(object["type"])
        instance = Self.text(object["instance"])
        status = object["status"]?.int
        var message = detail ?? title
        let error = object["error"]
        if message == nil, let description = Self.text(object["error_description"]) {
            // OAuth 2.0 and Rakuten: `{"error": "invalid_request", "error_description": "…"}`.
            message = description
            code = Self.text(error)
        }
        if message == nil, case .object(let nested)? = error {
            message = Self.text(nested["message"]) ?? Self.text(nested["error_description"])
            code = Self.text(nested["code"]) ?? Self.text(nested["status"]) ?? Self.text(nested["type"])
        }
        if message == nil, let errors = object["errors"] {
            switch errors {
            case .object(let gateway):
                message = Self.text(gateway["errorMessage"]) ?? Self.text(gateway["message"])
                code = Self.text(gateway["errorCode"]) ?? Self.text(gateway["code"])
            case .array(let list):
                if case .object(let first)? = list.first {
                    message = Self.text(first["message"]) ?? Self.text(first["detail"]) ?? Self.text(first["title"])
                    code = Self.text(first["code"])
                } else {
                    message = list.first.flatMap(Self.text)
                }
            default:
                message = Self.text(errors)
            }
        }
        if message == nil, let text = Self.text(object["message"]) {
            // `{"message": "…"}`, often beside a code: `{"error": "Not Found", "message": "…"}`, `{"code": …}`.
            message = text
            code = Self.text(error) ?? Self.text(object["code"])
        }
        if message == nil { message = Self.text(error) }
        guard let message else { return nil }
        self.message = message
    }

    /// The message, for ``HTTPError/message``.
    public var errorDescription: String? { message }

    /// The code and the message, for logs: `invalid_request: the title is empty`.
    public var description: String {
        if let code, code != message { return "\(code): \(message)" }
        return message
    }

    /// A string, or a number written as text; empty strings count as absent.
    private static func text(_ value: JSON?) -> String? {
        switch value {
        case .string(let text)?:
            let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
            return trimmed.isEmpty ? nil : trimmed
        case .number(let number)?:
            return number.int64.map { String($0) } ?? "\(number.double)"
        default:
            return nil
        }
    }
}
