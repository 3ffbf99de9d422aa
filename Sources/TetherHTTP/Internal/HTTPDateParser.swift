import Foundation
import TetherHTTP1
import TetherSync

/// Parses and formats HTTP dates (RFC 9110 §5.6.7) by computing from the fields: no `DateFormatter`, no locale,
/// no time-zone database.
///
/// Accepted forms, with surrounding whitespace ignored:
/// - IMF-fixdate, the one to send: `Sun, 06 Nov 1994 08:49:37 GMT`
/// - obsolete RFC 850: `Sunday, 06-Nov-94 08:49:37 GMT` (a two-digit year more than 50 years ahead of `now` is
///   taken to be in the past century, as RFC 9110 asks)
/// - ANSI C `asctime()`: `Sun Nov  6 08:49:37 1994`
///
/// The two comma forms are exact: one space between fields, a two-digit day (`Thu, 18  Aug  2050 …` is not a date,
/// so an `Expires` written so means already expired); the `asctime()` form pads its day with spaces, and any run of
/// spaces separates its fields. Month and weekday names are matched case-insensitively; the weekday is checked to be a weekday name but not
/// against the date (RFC 9110 lets a recipient ignore it). Fields out of range (hour 24, 31 April, second 61) make
/// the text invalid. Anything else, including a number of seconds, parses as `nil`.
///
/// - Complexity: O(n) in the length of the text; no allocation beyond the UTF-8 view.
/// - Thread safety: pure functions, safe from any thread.
enum HTTPDateParser {
    /// The date `text` denotes, or `nil` when it is not an HTTP date.
    ///
    /// - Parameter now: the reference for RFC 850 two-digit years.
    static func parse(_ text: some StringProtocol, now: Date = Date()) -> Date? {
        var scanner = Scanner(Array(text.utf8))
        scanner.skipSpaces()
        guard let weekday = scanner.letters(), weekdayNames.contains(where: { matches(weekday, $0) }) else {
            return nil
        }
        let fields: Fields?
        if scanner.consume(UInt8(ascii: ",")) {
            guard scanner.consume(UInt8(ascii: " ")) else { return nil }
            fields = weekday.count == 3 ? imfFixdate(&scanner) : rfc850(&scanner, now: now)
        } else {
            fields = asctime(&scanner)
        }
        scanner.skipSpaces()
        guard let fields, scanner.isAtEnd else { return nil }
        return fields.date
    }

    /// `date` as an IMF-fixdate, `Sun, 06 Nov 1994 08:49:37 GMT`; fractions of a second are dropped, and dates
    /// outside the years 0001 to 9999 (which the four-digit year cannot hold) are clamped to them.
    static func format(_ date: Date) -> String {
        let interval = date.timeIntervalSince1970
        let seconds = interval.isNaN ? 0 : Int(min(max(interval, -62_135_596_800), 253_402_300_799).rounded(.down))
        return IMFFixdate.string(secondsSince1970: seconds)
    }

    // MARK: - The three forms

    /// `DD Mon YYYY HH:MM:SS GMT`, after the weekday and comma.
    private static func imfFixdate(_ scanner: inout Scanner) -> Fields? {
        let space = UInt8(ascii: " ")
        guard let day = scanner.number(digits: 2...2), scanner.consume(space),
            let month = scanner.month(), scanner.consume(space),
            let year = scanner.number(digits: 4...4), scanner.consume(space),
            let time = scanner.time(), scanner.consume(space), scanner.consumeGMT()
        else { return nil }
        return Fields(year: year, month: month, day: day, time: time)
    }

    /// `DD-Mon-YY HH:MM:SS GMT`, after the full weekday name and comma.
    private static func rfc850(_ scanner: inout Scanner, now: Date) -> Fields? {
        guard let day = scanner.number(digits: 1...2), scanner.consume(UInt8(ascii: "-")),
            let month = scanner.month(), scanner.consume(UInt8(ascii: "-")),
            let shortYear = scanner.number(digits: 2...2), scanner.consume(UInt8(ascii: " ")),
            let time = scanner.time(), scanner.consume(UInt8(ascii: " ")), scanner.consumeGMT()
        else { return nil }
        // RFC 9110 §5.6.7: a year that would be more than 50 years in the future is in the past century.
        let nowDays = Int((now.timeIntervalSince1970 / 86_400).rounded(.down))
        let currentYear = CivilDate.date(fromDays: nowDays).year
        var year = currentYear - currentYear % 100 + shortYear
        if year > currentYear + 50 { year -= 100 }
        return Fields(year: year, month: month, day: day, time: time)
    }

    /// `Mon DD HH:MM:SS YYYY` (day space-padded), after the weekday.
    private static func asctime(_ scanner: inout Scanner) -> Fields? {
        guard scanner.consumeSpaces(), let month = scanner.month(), scanner.consumeSpaces(),
            let day = scanner.number(digits: 1...2), scanner.consumeSpaces(),
            let time = scanner.time(), scanner.consumeSpaces(),
            let year = scanner.number(digits: 4...4)
        else { return nil }
        return Fields(year: year, month: month, day: day, time: time)
    }

    // MARK: - Calendar arithmetic (proleptic Gregorian, UTC)

    private struct Fields {
        var year: Int
        var month: Int
        var day: Int
        var time: (hour: Int, minute: Int, second: Int)

        var date: Date? {
            guard (1...12).contains(month), (1...CivilDate.daysInMonth(month, year: year)).contains(day),
                (0...23).contains(time.hour), (0...59).contains(time.minute), (0...60).contains(time.second)
            else { return nil }
            let days = CivilDate.days(year: year, month: month, day: day)
            let seconds = days * 86_400 + time.hour * 3600 + time.minute * 60 + time.second
            return Date(timeIntervalSince1970: TimeInterval(seconds))
        }
    }

    // MARK: - Names and scanning

    private static let weekdayNames = IMFFixdate.weekdays
    private static let longWeekdayNames = [
        "Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday",
    ]
    private static let monthNames = IMFFixdate.months

    /// Whether `bytes` spell `name` (ASCII letters, case-insensitively); a long weekday matches its short form only
    /// when spelled out in full.
    private static func matches(_ bytes: ArraySlice<UInt8>, _ name: String) -> Bool {
        if bytes.count == 3 { return equalsIgnoringCase(bytes, name) }
        guard let index = weekdayNames.firstIndex(of: name) else { return false }
        return equalsIgnoringCase(bytes, longWeekdayNames[index])
    }

    private static func equalsIgnoringCase(_ bytes: ArraySlice<UInt8>, _ name: String) -> Bool {
        bytes.count == name.utf8.count && zip(bytes, name.utf8).allSatisfy { $0 | 0x20 == $1 | 0x20 }
    }

    /// A cursor over the bytes of a date.
    private struct Scanner {
        let bytes: [UInt8]
        var position = 0

        init(_ bytes: [UInt8]) { self.bytes = bytes }

        var isAtEnd: Bool { position == bytes.count }

        mutating func skipSpaces() {
            while position < bytes.count, bytes[position] == UInt8(ascii: " ") || bytes[position] == 0x09 {
                position += 1
            }
        }

        /// Consumes one or more spaces; `false` when there is none.
        mutating func consumeSpaces() -> Bool {
            let start = position
            skipSpaces()
            return position > start
        }

        mutating func consume(_ byte: UInt8) -> Bool {
            guard position < bytes.count, bytes[position] == byte else { return false }
            position += 1
            return true
        }

        /// A run of ASCII letters, or `nil` when there is none.
        mutating func letters() -> ArraySlice<UInt8>? {
            let start = position
            while position < bytes.count, (bytes[position] | 0x20) >= UInt8(ascii: "a"),
                (bytes[position] | 0x20) <= UInt8(ascii: "z")
            {
                position += 1
            }
            return position > start ? bytes[start..<position] : nil
        }

        /// A run of decimal digits whose length is in `digits`.
        mutating func number(digits: ClosedRange<Int>) -> Int? {
            let start = position
            var value = 0
            while position < bytes.count, position - start < digits.upperBound,
                bytes[position] >= UInt8(ascii: "0"), bytes[position] <= UInt8(ascii: "9")
            {
                value = value * 10 + Int(bytes[position] - UInt8(ascii: "0"))
                position += 1
            }
            let count = position - start
            let followedByDigit =
                position < bytes.count && bytes[position] >= UInt8(ascii: "0") && bytes[position] <= UInt8(ascii: "9")
            return digits.contains(count) && !followedByDigit ? value : nil
        }

        /// A three-letter month name, as 1...12.
        mutating func month() -> Int? {
            guard let name = letters(), name.count == 3 else { return nil }
            return HTTPDateParser.monthNames.firstIndex { HTTPDateParser.equalsIgnoringCase(name, $0) }.map { $0 + 1 }
        }

        /// `HH:MM:SS`, two digits each.
        mutating func time() -> (hour: Int, minute: Int, second: Int)? {
            guard let hour = number(digits: 2...2), consume(UInt8(ascii: ":")),
                let minute = number(digits: 2...2), consume(UInt8(ascii: ":")),
                let second = number(digits: 2...2)
            else { return nil }
            return (hour, minute, second)
        }

        mutating func consumeGMT() -> Bool {
            guard let zone = letters() else { return false }
            return HTTPDateParser.equalsIgnoringCase(zone, "GMT")
        }
    }
}
