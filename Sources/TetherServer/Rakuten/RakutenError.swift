import TetherHTTP1
import TetherJSON

/// An error answer of the Item Search API: a status and `{"error": …, "error_description": …}`.
///
/// The codes and texts are the real API's where it has one (see the reference's error table).
struct RakutenError: Error, Sendable, Equatable {
    var status: HTTPStatus
    var code: String
    var description: String

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

    var body: JSON { ["error": .string(code), "error_description": .string(description)] }

    var response: HTTPResponse { .json(body, status: status) }
}
