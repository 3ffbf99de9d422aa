/// A complete HTTP request: its head and its whole body.
public struct HTTPRequest: Sendable {
    /// The method, such as `GET`.
    public var method: HTTPMethod
    /// The request target as sent: `/posts?userId=1` (origin form), or an absolute URL.
    public var target: String
    /// The HTTP version, `(1, 1)` or `(1, 0)`.
    public var version: HTTPVersion
    /// The header fields, in order.
    public var headers: HTTPHeaders
    /// The body, empty when there is none.
    public var body: [UInt8]

    public init(
        method: HTTPMethod, target: String, version: HTTPVersion = .http11, headers: HTTPHeaders = [:],
        body: [UInt8] = []
    ) {
        self.method = method
        self.target = target
        self.version = version
        self.headers = headers
        self.body = body
    }

    /// The target's path, percent-decoded (`/posts/1`); `nil` when it is not valid UTF-8 after decoding.
    public var path: String? { HTTPTarget(target).path }

    /// The target's query items in order, percent-decoded, with `+` read as a space; repeated names kept.
    public var queryItems: [(name: String, value: String)] { HTTPTarget(target).queryItems }
}

/// An HTTP version.
public struct HTTPVersion: Hashable, Sendable, CustomStringConvertible {
    public var major: Int
    public var minor: Int

    public init(major: Int, minor: Int) {
        self.major = major
        self.minor = minor
    }

    public static let http11 = HTTPVersion(major: 1, minor: 1)
    public static let http10 = HTTPVersion(major: 1, minor: 0)

    public var description: String { "HTTP/\(major).\(minor)" }
}
