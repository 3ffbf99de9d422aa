public import Foundation

extension HTTPClient {
    /// Rakuten Web Service's host.
    public static let rakutenBaseURL = URL(string: "https://app.rakuten.co.jp")!

    /// A client for the Rakuten Ichiba item search: every search carries `applicationID`, requests wait for
    /// Rakuten's limit of one per second, and error bodies become ``RakutenAPIError``s whose text is
    /// ``/TetherHTTP/HTTPError/message``.
    ///
    /// ```swift
    /// import TetherAPIs
    ///
    /// let store = EntityStore(client: .rakuten(applicationID: "1234567890123456789"))
    /// ```
    ///
    /// The rate limit applies to the whole host, so use this client for Rakuten only. `configure` runs last and
    /// may change anything (a cache, a timeout).
    public static func rakuten(
        applicationID: String, baseURL: URL = rakutenBaseURL, configure: (inout Configuration) -> Void = { _ in }
    ) -> HTTPClient {
        HTTPClient(baseURL: baseURL) {
            $0.useRakuten(applicationID: applicationID, host: baseURL.host ?? "app.rakuten.co.jp")
            configure(&$0)
        }
    }
}

extension HTTPClient.Configuration {
    /// Sets a configuration up for Rakuten at `host`: Rakuten's error bodies for
    /// ``/TetherHTTP/HTTPClient/Configuration/apiErrorDecoder``, the ``RateLimit/rakuten`` limit for `host`,
    /// `applicationId` hidden from logs, and (unless `applicationID` is `nil`, for apps that add it themselves) an
    /// interceptor that adds `applicationId` to every request below `/services/api/`.
    public mutating func useRakuten(applicationID: String?, host: String = "app.rakuten.co.jp") {
        apiErrorDecoder = .json(RakutenAPIError.self)
        rateLimits[host.lowercased()] = .rakuten
        redactedQueryItems.insert("applicationId")
        if let applicationID {
            interceptors.append(
                RequestDecorator { request in
                    guard request.url.path.hasPrefix("/services/api/") else { return }
                    request.setQueryItem("applicationId", applicationID)
                })
        }
    }
}

extension RateLimit {
    /// Rakuten's rule of at most one request per second per application id, with a tenth of a second to spare
    /// (so that network jitter cannot bring two requests closer than a second at the server).
    public static let rakuten = RateLimit(requests: 1, per: .milliseconds(1100))
}
