import TetherHTTP1
import TetherJSON

/// An error answer of the Item Search API: a status and `{"error": …, "error_description": …}`, or the 2026
/// gateway's own shape `{"errors": {"errorCode": 400, "errorMessage": …}}` (``isGateway``).
///
/// The codes and texts are the real API's where it has one (see the reference's error table).
struct RakutenError: Error, Sendable, Equatable {
    var status: HTTPStatus
    var code: String
    var description: String
    /// Whether the gateway (not the API behind it) answers, in its own shape.
    var isGateway = false

    static func wrongParameter(_ description: String) -> RakutenError {
        RakutenError(status: .badRequest, code: "wrong_parameter", description: description)
    }

    static let invalidApplicationID = wrongParameter("specify valid applicationId")
    static let keywordNotValid = wrongParameter("keyword is not valid")
    static let keywordTooLong = wrongParameter("keyword must be under 128 length")
    static let noSearchCondition = wrongParameter(
        "keyword or itemCode is essential parameter, or set genreId value except 0. "
            + "To search for items in shop, please give your shopCode and set genreId to 0")
    static let notFound = RakutenError(status: .notFound, code: "not_found", description: "not found")
    static let tooManyRequests = RakutenError(
        status: .tooManyRequests, code: "too_many_requests",
        description: "number of allowed requests has been exceeded for this API. please try again soon.")
    static let systemError = RakutenError(
        status: .internalServerError, code: "system_error", description: "api logic error")

    /// The gateway's answer to a request without an access key (neither the `accessKey` query item nor
    /// `Authorization: Bearer`).
    static let accessKeyMissing = RakutenError(
        status: .badRequest, code: "400",
        description: "accessKey must be present as a query parameter or in the header", isGateway: true)

    /// The gateway's answer to a web application's request without a matching `Origin` or `Referer`.
    static let referrerMissing = RakutenError(
        status: .forbidden, code: "403", description: "REQUEST_CONTEXT_BODY_HTTP_REFERRER_MISSING", isGateway: true)

    var body: JSON {
        if isGateway {
            return [
                "errors": ["errorCode": JSON(status.code), "errorMessage": .string(description)]
            ]
        }
        return ["error": .string(code), "error_description": .string(description)]
    }

    var response: HTTPResponse { .json(body, status: status) }
}
