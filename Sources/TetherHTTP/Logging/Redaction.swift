import Foundation

/// Hides secrets in URLs and headers before they reach logs, errors and `curl` descriptions.
struct Redaction: Sendable {
    static let placeholder = "<redacted>"
    static let secretHeaders: Set<String> = ["authorization", "proxy-authorization", "cookie", "set-cookie"]

    /// Query item names whose values are hidden, lowercased.
    let queryItems: Set<String>

    init(queryItems: Set<String>) {
        self.queryItems = Set(queryItems.map { $0.lowercased() })
    }

    /// `url` with the values of secret query items replaced by `<redacted>`.
    func redact(_ url: URL) -> String { redact(url.absoluteString) }

    func redact(_ text: String) -> String {
        guard let question = text.firstIndex(of: "?") else { return text }
        var end = text.endIndex
        if let hash = text[question...].firstIndex(of: "#") { end = hash }
        let pairs = text[text.index(after: question)..<end].split(separator: "&", omittingEmptySubsequences: false)
        let redacted = pairs.map { pair -> String in
            guard let equals = pair.firstIndex(of: "=") else { return String(pair) }
            let name = String(pair[..<equals])
            let decoded = name.removingPercentEncoding ?? name
            return queryItems.contains(decoded.lowercased()) ? "\(name)=\(Self.placeholder)" : String(pair)
        }
        return text[...question] + redacted.joined(separator: "&") + text[end...]
    }

    /// `headers` with secret values replaced.
    func redact(_ headers: HTTPHeaders) -> HTTPHeaders {
        HTTPHeaders(
            headers.map { field in
                (field.name, Self.secretHeaders.contains(field.name.lowercased()) ? Self.placeholder : field.value)
            })
    }

    func summary(_ request: TransportRequest) -> RequestSummary {
        RequestSummary(method: request.method, url: redact(request.url))
    }

    /// A `curl` command line that repeats `request`, secrets redacted.
    func curlDescription(_ request: TransportRequest) -> String {
        func quote(_ text: String) -> String { "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'" }
        var parts = ["curl"]
        if request.method != .get || request.body != nil { parts.append("-X \(request.method.rawValue)") }
        for field in redact(request.headers) { parts.append("-H \(quote("\(field.name): \(field.value)"))") }
        if let body = request.body, !body.isEmpty {
            if let text = String(validating: body, as: UTF8.self) {
                parts.append("--data-raw \(quote(text))")
            } else {
                parts.append("--data-binary <\(body.count) bytes>")
            }
        }
        parts.append(quote(redact(request.url)))
        return parts.joined(separator: " ")
    }
}
