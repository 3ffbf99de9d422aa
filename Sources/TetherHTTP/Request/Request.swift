public import Foundation
import TetherJSON

/// A description of one HTTP call and of how to read its answer into `Response`.
///
/// A request is a value: build it, change it, send it any number of times. The path is relative to the client's
/// base URL (`"/posts"`, `"posts/1"`) or an absolute URL (`"https://example.com/a"`). Query items keep their order and
/// may repeat; each name and value is percent-encoded per RFC 3986 when the request is sent, so `+`, `&` and
/// Japanese keywords arrive intact (`+` goes out as `%2B`, `ノート` as UTF-8 percent-escapes).
///
/// What `Response` may be decides how the body is read:
/// - any `Decodable` type: JSON through the client's ``HTTPClient/Configuration/decoder`` (a non-JSON
///   `Content-Type` is a decoding error);
/// - `Data`: the raw body; `String`: the body as UTF-8; `Void`: the body is ignored.
///
/// ```swift
/// import TetherHTTP
/// import TetherJSON
///
/// struct SearchPage: Decodable, Sendable { var count: Int }
/// struct Note: Decodable, Sendable { var id: Int; var title: String }
///
/// let search = Request<SearchPage>(path: "/services/api/IchibaItem/Search/20220601",
///                                  query: [("keyword", "ノートパソコン"), ("hits", "30")])
/// let save = Request<Note>(path: "/notes/3", method: .patch, body: .json(["title": "New title"] as JSON))
/// ```
public struct Request<Response: Sendable>: Sendable {
    /// The method; any token is allowed (`HTTPMethod("PURGE")`).
    public var method: HTTPMethod
    /// The path relative to the client's base URL, or an absolute `http`/`https` URL.
    public var path: String
    /// The query items in order; a `nil` value sends the bare name (`?flag`).
    public var query: [(name: String, value: String?)]
    /// Headers for this request; they override the configuration's default headers of the same name.
    public var headers: HTTPHeaders
    /// The body, encoded when the request is sent (never on the caller's actor).
    public var body: RequestBody?
    /// The deadline of one attempt, overriding ``HTTPClient/Configuration/timeout``.
    public var timeout: Duration?
    /// The deadline of all attempts together, overriding ``HTTPClient/Configuration/totalTimeout``.
    public var totalTimeout: Duration?
    /// How the cache is used, overriding ``HTTPClient/Configuration/cachePolicy``.
    public var cachePolicy: CachePolicy?
    /// When to retry, overriding ``HTTPClient/Configuration/retryPolicy``.
    public var retryPolicy: RetryPolicy?
    /// The statuses accepted as success, overriding ``HTTPClient/Configuration/acceptableStatuses``.
    public var acceptableStatuses: Range<Int>?

    let decoder: BodyDecoder<Response>

    init(
        method: HTTPMethod, path: String, query: [(name: String, value: String?)], headers: HTTPHeaders,
        body: RequestBody?, decoder: BodyDecoder<Response>
    ) {
        self.method = method
        self.path = path
        self.query = query
        self.headers = headers
        self.body = body
        self.decoder = decoder
    }

    /// The `Idempotency-Key` header. A request that carries one may be retried even when its method is not
    /// idempotent (POST, PATCH): the server applies it once.
    public var idempotencyKey: String? {
        get { headers["Idempotency-Key"] }
        set {
            if let newValue { headers.set("Idempotency-Key", newValue) } else { headers.remove("Idempotency-Key") }
        }
    }

    /// The same request, reading its answer as another type.
    public func map<Other: Decodable & Sendable>(to type: Other.Type) -> Request<Other> {
        Request<Other>(
            method: method, path: path, query: query, headers: headers, body: body, decoder: .json,
            copying: self)
    }
}

extension Request {
    fileprivate init<Source>(
        method: HTTPMethod, path: String, query: [(name: String, value: String?)], headers: HTTPHeaders,
        body: RequestBody?, decoder: BodyDecoder<Response>, copying other: Request<Source>
    ) {
        self.init(method: method, path: path, query: query, headers: headers, body: body, decoder: decoder)
        timeout = other.timeout
        totalTimeout = other.totalTimeout
        cachePolicy = other.cachePolicy
        retryPolicy = other.retryPolicy
        acceptableStatuses = other.acceptableStatuses
    }
}

extension Request where Response: Decodable {
    /// A request whose JSON answer decodes into `Response`.
    public init(
        path: String, method: HTTPMethod = .get, query: [(name: String, value: String?)] = [],
        headers: HTTPHeaders = [:], body: RequestBody? = nil
    ) {
        self.init(method: method, path: path, query: query, headers: headers, body: body, decoder: .json)
    }
}

extension Request where Response == Data {
    /// A request whose answer is the raw body.
    public init(
        path: String, method: HTTPMethod = .get, query: [(name: String, value: String?)] = [],
        headers: HTTPHeaders = [:], body: RequestBody? = nil
    ) {
        self.init(method: method, path: path, query: query, headers: headers, body: body, decoder: .data)
    }
}

extension Request where Response == String {
    /// A request whose answer is the body as UTF-8 text (invalid UTF-8 is a decoding error).
    public init(
        path: String, method: HTTPMethod = .get, query: [(name: String, value: String?)] = [],
        headers: HTTPHeaders = [:], body: RequestBody? = nil
    ) {
        self.init(method: method, path: path, query: query, headers: headers, body: body, decoder: .text)
    }
}

extension Request where Response == Void {
    /// A request whose answer's body is ignored (DELETE, a POST whose result is not needed).
    public init(
        path: String, method: HTTPMethod = .get, query: [(name: String, value: String?)] = [],
        headers: HTTPHeaders = [:], body: RequestBody? = nil
    ) {
        self.init(method: method, path: path, query: query, headers: headers, body: body, decoder: .ignore)
    }
}

/// How a request's body becomes its `Response`.
struct BodyDecoder<Response: Sendable>: Sendable {
    /// Whether the body must be JSON (checked against `Content-Type`).
    let expectsJSON: Bool
    let decode: @Sendable (Data, TetherJSONDecoder) throws -> Response
}

extension BodyDecoder where Response: Decodable {
    static var json: BodyDecoder {
        BodyDecoder(expectsJSON: true) { data, decoder in try decoder.decode(Response.self, from: data) }
    }
}

extension BodyDecoder where Response == Data {
    static var data: BodyDecoder { BodyDecoder(expectsJSON: false) { data, _ in data } }
}

extension BodyDecoder where Response == String {
    static var text: BodyDecoder {
        BodyDecoder(expectsJSON: false) { data, _ in
            guard let text = String(validating: data, as: UTF8.self) else {
                throw DecodingError.dataCorrupted(.init(codingPath: [], debugDescription: "The body is not UTF-8."))
            }
            return text
        }
    }
}

extension BodyDecoder where Response == Void {
    static var ignore: BodyDecoder { BodyDecoder(expectsJSON: false) { _, _ in () } }
}
