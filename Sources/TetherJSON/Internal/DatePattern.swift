import Foundation

/// A small fixed date format such as Rakuten's `yyyy-MM-dd HH:mm`, parsed and formatted without
/// `DateFormatter` (which is slow and not `Sendable`).
///
/// The fields are `yyyy` (four-digit year), `MM` (month), `dd` (day), `HH` (hour, 00 to 23), `mm` (minute),
/// `ss` (second) and `SSS` (milliseconds), each exactly that many digits. Text in single quotes is literal
/// (`'T'`, and `''` for a quote itself), and so is every other character, letters included: unlike
/// `DateFormatter`, `yy`, `M` or `a` are not fields.
///
/// Times are read and written in ``timeZone``, using its offset at the instant concerned, so named zones
/// with daylight saving work as well as fixed offsets. Fields the pattern lacks read as 1970-01-01 00:00:00.
struct DatePattern: Sendable, Hashable {
    enum Token: Sendable, Hashable {
        case year, month, day, hour, minute, second, millisecond
        case literal([UInt8])
    }

    /// The fields and literals, in order.
    let tokens: [Token]
    /// The zone the text's times are in.
    let timeZone: TimeZone

    /// Creates a pattern; see the type's documentation for the fields.
    init(_ pattern: String, timeZone: TimeZone) {
        self.tokens = Self.tokens(of: Array(pattern.utf8))
        self.timeZone = timeZone
    }

    /// The date in `text`, or `nil` unless the whole text matches the pattern and names a real date and time.
    func parse(_ text: String) -> Date? {
        var text = text
        return text.withUTF8 { utf8 -> Date? in
            var scanner = DigitScanner(utf8)
            var civil = CivilDateTime()
            for token in tokens {
                switch token {
                case .year:
                    guard let v = scanner.number(digits: 4) else { return nil }
                    civil.year = v
                case .month:
                    guard let v = scanner.number(digits: 2) else { return nil }
                    civil.month = v
                case .day:
                    guard let v = scanner.number(digits: 2) else { return nil }
                    civil.day = v
                case .hour:
                    guard let v = scanner.number(digits: 2) else { return nil }
                    civil.hour = v
                case .minute:
                    guard let v = scanner.number(digits: 2) else { return nil }
                    civil.minute = v
                case .second:
                    guard let v = scanner.number(digits: 2) else { return nil }
                    civil.second = v
                case .millisecond:
                    guard let v = scanner.number(digits: 3) else { return nil }
                    civil.nanosecond = v * 1_000_000
                case .literal(let bytes):
                    guard scanner.skip(bytes) else { return nil }
                }
            }
            guard scanner.isAtEnd, civil.isValid else { return nil }
            return civil.date(in: timeZone)
        }
    }

    /// The text for `date` in ``timeZone``, rounded to the nearest millisecond.
    func format(_ date: Date) -> String {
        let civil = CivilDateTime(date, offsetFromGMT: timeZone.secondsFromGMT(for: date))
        var bytes: [UInt8] = []
        bytes.reserveCapacity(24)
        for token in tokens {
            switch token {
            case .year: civil.appendYear(to: &bytes)
            case .month: CivilDateTime.append(civil.month, digits: 2, to: &bytes)
            case .day: CivilDateTime.append(civil.day, digits: 2, to: &bytes)
            case .hour: CivilDateTime.append(civil.hour, digits: 2, to: &bytes)
            case .minute: CivilDateTime.append(civil.minute, digits: 2, to: &bytes)
            case .second: CivilDateTime.append(civil.second, digits: 2, to: &bytes)
            case .millisecond: CivilDateTime.append(civil.nanosecond / 1_000_000, digits: 3, to: &bytes)
            case .literal(let literal): bytes.append(contentsOf: literal)
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    private static let fields: [(text: [UInt8], token: Token)] = [
        (Array("yyyy".utf8), .year), (Array("MM".utf8), .month), (Array("dd".utf8), .day),
        (Array("HH".utf8), .hour), (Array("mm".utf8), .minute), (Array("ss".utf8), .second),
        (Array("SSS".utf8), .millisecond),
    ]

    /// Splits a pattern into fields and literals, merging adjacent literal characters.
    private static func tokens(of pattern: [UInt8]) -> [Token] {
        var tokens: [Token] = []
        var literal: [UInt8] = []
        var i = 0
        func flush() {
            if !literal.isEmpty { tokens.append(.literal(literal)) }
            literal = []
        }
        scanning: while i < pattern.count {
            if pattern[i] == UInt8(ascii: "'") {
                i += 1
                if i < pattern.count, pattern[i] == UInt8(ascii: "'") {  // '' is a quote
                    literal.append(pattern[i])
                    i += 1
                    continue
                }
                while i < pattern.count {
                    if pattern[i] == UInt8(ascii: "'") {
                        if i + 1 < pattern.count, pattern[i + 1] == UInt8(ascii: "'") {
                            literal.append(pattern[i])
                            i += 2
                            continue
                        }
                        i += 1
                        continue scanning
                    }
                    literal.append(pattern[i])
                    i += 1
                }
                continue
            }
            for field in fields where pattern[i...].starts(with: field.text) {
                flush()
                tokens.append(field.token)
                i += field.text.count
                continue scanning
            }
            literal.append(pattern[i])
            i += 1
        }
        flush()
        return tokens
    }
}
