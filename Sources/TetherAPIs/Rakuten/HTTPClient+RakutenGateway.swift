public import Foundation

extension HTTPClient {
    /// The host of Rakuten's 2026 API gateway, where the Item Search API lives since 2026-05-14.
    public static let rakutenGatewayURL = URL(string: "https://openapi.rakuten.co.jp")!

    /// The newest Item Search version the gateway is reported to serve (it also serves `20220601` and
    /// `20260401`); see `shared/reference/rakuten-ichiba-item-search.md` §1.
    public static let rakutenGatewayVersion = "20260701"

    /// A client for the Item Search API as it is today: Rakuten's 2026 gateway, which needs an access key
    /// (`pk_…`) besides the application id, and for apps registered as web applications an `Origin`/`Referer`
    /// matching the registered site.
    ///
    /// ```swift
    /// import TetherAPIs
    ///
    /// let client = HTTPClient.rakuten(
    ///     applicationID: "1234567890123456789", accessKey: "pk_…", origin: "https://example.com")
    /// let page = try await client.send(RakutenItemSearch(keyword: "ノートパソコン").request()).value
    /// ```
    ///
    /// Everything ``rakuten(applicationID:baseURL:configure:)`` does, and (see
    /// ``HTTPClient/Configuration/useRakutenGateway(accessKey:origin:version:)``): searches written for the classic
    /// path (``RakutenItemSearch/path``) go to the gateway's `/ichibams/api/IchibaItem/Search/<version>`, the key
    /// goes in `Authorization: Bearer` (never in the URL, so never in logs), and `origin` goes in `Origin` and
    /// `Referer`. The gateway's error shape (`{"errors": {"errorCode": 403, "errorMessage": …}}`) becomes a
    /// ``RakutenAPIError`` as the classic one does.
    public static func rakuten(
        applicationID: String, accessKey: String, origin: String? = nil, baseURL: URL = rakutenGatewayURL,
        version: String = rakutenGatewayVersion, configure: (inout Configuration) -> Void = { _ in }
    ) -> HTTPClient {
        HTTPClient(baseURL: baseURL) {
            $0.useRakuten(applicationID: nil, host: baseURL.host ?? "openapi.rakuten.co.jp")
            $0.useRakutenGateway(accessKey: accessKey, origin: origin, version: version)
            $0.interceptors.append(
                RequestDecorator { request in
                    guard request.url.path.hasPrefix("/ichibams/api/") else { return }
                    request.setQueryItem("applicationId", applicationID)
                })
            configure(&$0)
        }
    }
}

extension HTTPClient.Configuration {
    /// Sets a configuration up for Rakuten's 2026 gateway (call after ``useRakuten(applicationID:host:)``):
    /// requests below `/services/api/IchibaItem/Search/` go to `/ichibams/api/IchibaItem/Search/<version>`
    /// instead, with `Authorization: Bearer <accessKey>`, and with `Origin` and `Referer` set to `origin` when it
    /// is given. `accessKey` is hidden from logs as a query item too, in case a caller adds it there.
    public mutating func useRakutenGateway(accessKey: String, origin: String?, version: String) {
        redactedQueryItems.insert("accessKey")
        interceptors.append(
            RequestDecorator { request in
                let classic = "/services/api/IchibaItem/Search/"
                if request.url.path.hasPrefix(classic),
                    var components = URLComponents(url: request.url, resolvingAgainstBaseURL: false)
                {
                    components.percentEncodedPath = "/ichibams/api/IchibaItem/Search/" + version
                    if let url = components.url { request.url = url }
                }
                guard request.url.path.hasPrefix("/ichibams/api/") else { return }
                request.headers.set("Authorization", "Bearer " + accessKey)
                if let origin {
                    request.headers.set("Origin", origin)
                    request.headers.set("Referer", origin.hasSuffix("/") ? origin : origin + "/")
                }
            })
    }
}
