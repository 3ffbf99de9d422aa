/// The value of a request header field a response varies on, normalised as far as RFC 9110 allows, so that
/// equivalent requests match one stored response (RFC 9111 §4.1: a cache may normalise by the field's
/// semantics).
///
/// - Field lines are combined as a list (RFC 9110 §5.3): `Foo: 1` and `Foo: 2` equal `Foo: 1, 2`.
/// - Whitespace around list members is dropped (optional whitespace, §5.6.1): `" 1, 2 "` equals `1,2`. A comma
///   inside a quoted string is not a separator.
/// - Letter case is folded only for fields whose values are case-insensitive: `Accept-Language` (language tags,
///   RFC 5646 §2.1.1), `Accept-Encoding` and `Accept-Charset` (content codings and charsets, RFC 9110 §8.4.1,
///   §12.5.2).
/// - Member order is kept: in `Accept-Language` and the other `Accept` fields, the order of members of equal
///   weight can express the user's preference, so `en, de` and `de, en` are different requests.
enum VaryValue {
    static let caseInsensitiveFields: Set<String> = ["accept-language", "accept-encoding", "accept-charset"]

    /// The normalised value of field `name` (lowercased) in `headers`; `nil` when the field is absent.
    static func of(_ name: String, in headers: HTTPHeaders) -> String? {
        let lines = headers.values(for: name)
        guard !lines.isEmpty else { return nil }
        return normalized(lines.joined(separator: ","), name: name)
    }

    /// `value` (a field's lines combined) normalised for field `name` (lowercased).
    static func normalized(_ value: String, name: String) -> String {
        let joined = CacheText.listMembers(value).joined(separator: ", ")
        return caseInsensitiveFields.contains(name) ? CacheText.lowercased(joined) : joined
    }
}
