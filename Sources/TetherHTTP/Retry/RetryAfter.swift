import Foundation

/// The `Retry-After` header (RFC 9110 §10.2.3): delay-seconds or an HTTP date.
enum RetryAfter {
    /// The wait the header asks for, measured from `now`; `nil` when absent or malformed. A date in the past is a
    /// wait of zero.
    static func delay(in headers: HTTPHeaders, now: Date = Date()) -> Duration? {
        guard let text = headers["Retry-After"]?.trimmingCharacters(in: .whitespaces), !text.isEmpty else {
            return nil
        }
        if text.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) {
            guard let seconds = Int(text) else { return .seconds(Int64.max / 2) }
            return .seconds(seconds)
        }
        guard let date = HTTPDateParser.parse(text) else { return nil }
        let seconds = max(0, date.timeIntervalSince(now))
        return .milliseconds(Int64(seconds * 1000))
    }
}
