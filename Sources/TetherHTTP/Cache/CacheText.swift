/// The few text operations the cache needs on header fields, kept here so the cache adds no extensions to `String`.
///
/// - Thread safety: pure functions, safe from any thread.
enum CacheText {
    /// ASCII case-insensitive equality, as HTTP field names and directive names compare.
    static func equalsIgnoringCase(_ a: some StringProtocol, _ b: some StringProtocol) -> Bool {
        guard a.utf8.count == b.utf8.count else { return false }
        return zip(a.utf8, b.utf8).allSatisfy { x, y in x == y || (isLetter(x) && x | 0x20 == y | 0x20) }
    }

    /// `text` without leading and trailing spaces and tabs (optional whitespace, RFC 9110 §5.6.3).
    static func trimmed(_ text: some StringProtocol) -> String {
        let utf8 = Array(text.utf8)
        var start = 0
        var end = utf8.count
        while start < end, isSpace(utf8[start]) { start += 1 }
        while end > start, isSpace(utf8[end - 1]) { end -= 1 }
        return String(decoding: utf8[start..<end], as: UTF8.self)
    }

    /// `text` with ASCII letters lowercased.
    static func lowercased(_ text: some StringProtocol) -> String {
        String(decoding: text.utf8.map { isLetter($0) ? $0 | 0x20 : $0 }, as: UTF8.self)
    }

    /// The members of a comma-separated list value (RFC 9110 §5.6.1), trimmed, empty ones dropped; a comma inside
    /// a quoted string does not separate.
    static func listMembers(_ value: String) -> [String] {
        var members: [String] = []
        var current: [UInt8] = []
        var quoted = false
        for byte in value.utf8 {
            if byte == UInt8(ascii: "\"") { quoted.toggle() }
            if byte == UInt8(ascii: ","), !quoted {
                members.append(trimmed(String(decoding: current, as: UTF8.self)))
                current.removeAll()
            } else {
                current.append(byte)
            }
        }
        members.append(trimmed(String(decoding: current, as: UTF8.self)))
        return members.filter { !$0.isEmpty }
    }

    /// The comma-separated elements of every `name` field, trimmed, empty elements dropped.
    static func listElements(of name: String, in headers: HTTPHeaders) -> [String] {
        headers.values(for: name).flatMap { value in
            value.split(separator: ",", omittingEmptySubsequences: true).map { trimmed($0) }.filter { !$0.isEmpty }
        }
    }

    private static func isLetter(_ byte: UInt8) -> Bool {
        (byte | 0x20) >= UInt8(ascii: "a") && (byte | 0x20) <= UInt8(ascii: "z")
    }

    private static func isSpace(_ byte: UInt8) -> Bool { byte == UInt8(ascii: " ") || byte == 0x09 }
}
