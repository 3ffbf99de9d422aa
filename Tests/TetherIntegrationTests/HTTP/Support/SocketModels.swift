import Foundation
import TetherHTTP

/// Rakuten's error body, `{"error": "wrong_parameter", "error_description": "..."}`, for
/// ``HTTPClient/Configuration/apiErrorDecoder``.
struct RakutenErrorBody: Decodable, Error, LocalizedError, Equatable {
    var error: String
    var description: String

    enum CodingKeys: String, CodingKey {
        case error
        case description = "error_description"
    }

    var errorDescription: String? { description }
}

/// A post of the built-in data set.
struct SocketPost: Codable, Sendable, Equatable {
    var userId: Int
    var id: Int
    var title: String
    var body: String
}

/// A post read with the wrong type for `title`, to make decoding fail.
struct PostWithNumericTitle: Decodable, Sendable {
    var id: Int
    var title: Int
}

extension HTTPError {
    /// The status failure, when this is one.
    var statusFailure: HTTPError.StatusFailure? {
        if case .status(let failure) = kind { return failure }
        return nil
    }

    /// The decoding failure, when this is one.
    var decodingFailure: HTTPError.DecodingFailure? {
        if case .decoding(let failure) = kind { return failure }
        return nil
    }

    /// Whether this is a transport failure.
    var isTransport: Bool {
        if case .transport = kind { return true }
        return false
    }
}

/// Sends `request` and returns its error, or `nil` (recording nothing) when it succeeded.
func sendExpectingError<Value>(_ request: Request<Value>, on client: HTTPClient) async -> HTTPError? {
    do {
        _ = try await client.send(request)
        return nil
    } catch {
        return error
    }
}
