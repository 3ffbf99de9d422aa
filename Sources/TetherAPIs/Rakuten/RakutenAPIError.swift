public import Foundation

/// The error body of the Rakuten Web Service, in either of its shapes.
///
/// - Classic: `{"error": "wrong_parameter", "error_description": "specify valid applicationId"}` (key order varies).
/// - The 2026 gateway: `{"errors": {"errorCode": 400, "errorMessage": "accessKey must be present …"}}`; the code
///   is then the number as a string (`"400"`).
///
/// ``TetherHTTP/HTTPClient/rakuten(applicationID:baseURL:configure:)`` sets
/// ``/TetherHTTP/HTTPClient/Configuration/apiErrorDecoder`` to decode it, so a failed search's
/// ``/TetherHTTP/HTTPError/message`` is Rakuten's own text: `"specify valid applicationId (400)"`.
public struct RakutenAPIError: Error, Sendable, Hashable, Decodable, LocalizedError {
    /// The error code: `wrong_parameter`, `not_found`, `too_many_requests`, `system_error`,
    /// `service_unavailable`, or the gateway's status number.
    public var code: String
    /// Rakuten's description of the problem (`error_description`, or the gateway's `errorMessage`).
    public var message: String

    public init(code: String, message: String) {
        self.code = code
        self.message = message
    }

    /// The description, for ``/TetherHTTP/HTTPError/message``.
    public var errorDescription: String? { message }

    private enum CodingKeys: String, CodingKey {
        case error
        case errorDescription = "error_description"
        case errors
    }

    private enum GatewayKeys: String, CodingKey {
        case errorCode, errorMessage
    }

    /// Decodes the classic shape, else the gateway's; anything else is a `DecodingError`.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        if container.contains(.errors) {
            let gateway = try container.nestedContainer(keyedBy: GatewayKeys.self, forKey: .errors)
            if let number = try? gateway.decode(Int.self, forKey: .errorCode) {
                code = String(number)
            } else {
                code = try gateway.decode(String.self, forKey: .errorCode)
            }
            message = try gateway.decode(String.self, forKey: .errorMessage)
        } else {
            code = try container.decode(String.self, forKey: .error)
            message = try container.decodeIfPresent(String.self, forKey: .errorDescription) ?? code
        }
    }
}
