public import TetherHTTP1

/// Something that answers HTTP requests: the json-server REST engine, the Rakuten item search, the image route.
///
/// The server asks its responders in order and sends the first response it gets.
///
/// - Thread safety: `respond(to:)` is called concurrently from many connections.
public protocol HTTPResponder: Sendable {
    /// The response to `request`, or `nil` when the request is not for this responder.
    func respond(to request: HTTPRequest) async -> HTTPResponse?
}
