import Foundation

#if canImport(TetherSync)
    import TetherSync  // not a module when the fuzz targets build the sources as one (Scripts/fuzz.sh)
#endif

/// ISO 8601 (RFC 3339) internet date-times such as `2024-05-01T12:34:56Z`, parsed and formatted by hand.
///
/// `DateFormatter` and `ISO8601DateFormatter` are slow and not `Sendable`; this is plain arithmetic on the
/// proleptic Gregorian calendar (see ``CivilDateTime``), safe to call from any thread.
enum ISO8601 {
    /// The date in `text`, or `nil` unless the whole text is one ISO 8601 date-time.
    ///
    /// Accepts `YYYY-MM-DDTHH:MM:SS`, then optional fractional seconds of any length (`.5`, `.123456789012`;
    /// digits past nanoseconds are ignored), then a zone: `Z`, or an offset `+HH:MM`, `+HHMM` or `+HH` (or `-`).
    /// `t` and `z` may be lowercase. Rejects impossible dates and times (month 13, February 30 outside leap
    /// years, hour 24, second 60) and offsets beyond ±23:59.
    static func parse(_ text: String) -> Date? {
        var text = text
        return text.withUTF8 { parse(utf8: $0) }
    }

    /// The date in the UTF-8 bytes `utf8` (see ``parse(_:)``).
    static func parse(utf8: UnsafeBufferPointer<UInt8>) -> Date? {
        var scanner = DigitScanner(utf8)
        var civil = CivilDateTime()
        guard let year = scanner.number(digits: 4), scanner.skip("-"),
            let month = scanner.number(digits: 2), scanner.skip("-"),
            let day = scanner.number(digits: 2), scanner.skip("T") || scanner.skip("t"),
            let hour = scanner.number(digits: 2), scanner.skip(":"),
            let minute = scanner.number(digits: 2), scanner.skip(":"),
            let second = scanner.number(digits: 2)
        else { return nil }
        civil.year = year
        civil.month = month
        civil.day = day
        civil.hour = hour
        civil.minute = minute
        civil.second = second
        if scanner.skip(".") {
            guard let nanoseconds = scanner.fraction() else { return nil }
            civil.nanosecond = nanoseconds
        }
        var offset = 0
        if scanner.skip("Z") || scanner.skip("z") {
            offset = 0
        } else if let sign = scanner.sign() {
            guard let hours = scanner.number(digits: 2), hours <= 23 else { return nil }
            var minutes = 0
            if !scanner.isAtEnd {
                _ = scanner.skip(":")  // `+09:00` and `+0900` alike
                guard let m = scanner.number(digits: 2), m <= 59 else { return nil }
                minutes = m
            }
            offset = sign * (hours * 3600 + minutes * 60)
        } else {
            return nil
        }
        guard scanner.isAtEnd, civil.isValid else { return nil }
        return civil.date(offsetFromGMT: offset)
    }

    /// The date as `YYYY-MM-DDTHH:MM:SSZ` in UTC, or `YYYY-MM-DDTHH:MM:SS.sssZ` with `fractionalSeconds`.
    ///
    /// The date is first rounded to the nearest millisecond, so a date parsed from millisecond text formats
    /// back to the same text; without fractional seconds the milliseconds are then dropped.
    static func format(_ date: Date, fractionalSeconds: Bool) -> String {
        let civil = CivilDateTime(date, offsetFromGMT: 0)
        var bytes: [UInt8] = []
        bytes.reserveCapacity(24)
        civil.appendYear(to: &bytes)
        bytes.append(UInt8(ascii: "-"))
        CivilDateTime.append(civil.month, digits: 2, to: &bytes)
        bytes.append(UInt8(ascii: "-"))
        CivilDateTime.append(civil.day, digits: 2, to: &bytes)
        bytes.append(UInt8(ascii: "T"))
        CivilDateTime.append(civil.hour, digits: 2, to: &bytes)
        bytes.append(UInt8(ascii: ":"))
        CivilDateTime.append(civil.minute, digits: 2, to: &bytes)
        bytes.append(UInt8(ascii: ":"))
        CivilDateTime.append(civil.second, digits: 2, to: &bytes)
        if fractionalSeconds {
            bytes.append(UInt8(ascii: "."))
            CivilDateTime.append(civil.nanosecond / 1_000_000, digits: 3, to: &bytes)
        }
        bytes.append(UInt8(ascii: "Z"))
        return String(decoding: bytes, as: UTF8.self)
    }
}

/// A calendar date and time of day in the proleptic Gregorian calendar, with no time zone.
///
/// Converts to and from `Date` given an offset from GMT, with Howard Hinnant's days-from-civil arithmetic,
/// which is exact for every year. Fields default to 1970-01-01 00:00:00.
struct CivilDateTime: Hashable {
    var year = 1970
    var month = 1
    var day = 1
    var hour = 0
    var minute = 0
    var second = 0
    var nanosecond = 0

    /// Seconds between 1970-01-01 and 2001-01-01, the reference date of `Date`.
    static let secondsFrom1970To2001 = 978_307_200

    init() {}

    /// The civil fields of `date` at `offset` seconds east of GMT, rounded to the nearest millisecond.
    init(_ date: Date, offsetFromGMT offset: Int) {
        // Milliseconds since 2001, where `Date` keeps its time, lose the least precision; clamp absurd values
        // (and NaN) so the conversion to an integer cannot trap.
        let raw = (date.timeIntervalSinceReferenceDate * 1000).rounded()
        let milliseconds2001 = raw.isNaN ? 0 : Int(max(-1e17, min(1e17, raw)))
        let milliseconds = milliseconds2001 + (Self.secondsFrom1970To2001 + offset) * 1000
        let (seconds, millisecond) = Self.floorDivide(milliseconds, 1000)
        let (days, secondOfDay) = Self.floorDivide(seconds, 86_400)
        (year, month, day) = CivilDate.date(fromDays: days)
        hour = secondOfDay / 3600
        minute = secondOfDay % 3600 / 60
        second = secondOfDay % 60
        nanosecond = millisecond * 1_000_000
    }

    /// Whether every field is in range and the day exists in its month.
    var isValid: Bool {
        (1...12).contains(month) && day >= 1 && day <= CivilDate.daysInMonth(month, year: year)
            && (0...23).contains(hour) && (0...59).contains(minute) && (0...59).contains(second)
            && (0..<1_000_000_000).contains(nanosecond)
    }

    /// The seconds since 1970-01-01 00:00:00 of these fields read as UTC, ignoring nanoseconds.
    var secondsSince1970: Int {
        CivilDate.days(year: year, month: month, day: day) * 86_400 + hour * 3600 + minute * 60 + second
    }

    /// The instant these fields name at `offset` seconds east of GMT.
    func date(offsetFromGMT offset: Int) -> Date {
        let seconds2001 = secondsSince1970 - offset - Self.secondsFrom1970To2001
        return Date(timeIntervalSinceReferenceDate: Double(seconds2001) + Double(nanosecond) / 1e9)
    }

    /// The instant these fields name in `timeZone`, whose offset may depend on the date (daylight saving).
    ///
    /// A local time repeated by a backward transition resolves to its earlier instant; a local time skipped
    /// by a forward transition is read with the offset before it (so 02:30 in a gap from 02:00 to 03:00 is
    /// 03:30), as `DateFormatter` does. Assumes at most one transition within a day of the time.
    func date(in timeZone: TimeZone) -> Date {
        let local = secondsSince1970 - Self.secondsFrom1970To2001  // the fields read as UTC, since 2001
        func offset(at seconds2001: Int) -> Int {
            timeZone.secondsFromGMT(for: Date(timeIntervalSinceReferenceDate: Double(seconds2001)))
        }
        let before = offset(at: local - 86_400)
        let after = offset(at: local + 86_400)
        var chosen = before
        if before != after {
            let beforeFits = offset(at: local - before) == before
            let afterFits = offset(at: local - after) == after
            if beforeFits && afterFits {
                chosen = max(before, after)  // the larger offset is the earlier instant
            } else if afterFits {
                chosen = after
            }
        }
        return date(offsetFromGMT: chosen)
    }

    /// Appends the year as at least four digits, with a `-` before negative years.
    func appendYear(to bytes: inout [UInt8]) {
        if year < 0 { bytes.append(UInt8(ascii: "-")) }
        let magnitude = abs(year)
        if magnitude > 9999 {
            bytes.append(contentsOf: String(magnitude).utf8)
        } else {
            Self.append(magnitude, digits: 4, to: &bytes)
        }
    }

    /// Appends `value` (non-negative, below 10^digits) as exactly `digits` decimal digits.
    static func append(_ value: Int, digits: Int, to bytes: inout [UInt8]) {
        var divisor = 1
        for _ in 1..<digits { divisor *= 10 }
        var rest = value
        while divisor > 0 {
            bytes.append(UInt8(ascii: "0") + UInt8(rest / divisor % 10))
            rest %= divisor
            divisor /= 10
        }
    }

    /// `a` divided by a positive `b`, rounding toward negative infinity, with the non-negative remainder.
    static func floorDivide(_ a: Int, _ b: Int) -> (quotient: Int, remainder: Int) {
        let (q, r) = a.quotientAndRemainder(dividingBy: b)
        return r < 0 ? (q - 1, r + b) : (q, r)
    }
}

/// Reads ASCII digits and punctuation from UTF-8 bytes, front to back.
struct DigitScanner {
    private let bytes: UnsafeBufferPointer<UInt8>
    private(set) var position = 0

    init(_ bytes: UnsafeBufferPointer<UInt8>) { self.bytes = bytes }

    var isAtEnd: Bool { position == bytes.count }

    /// Skips `character` if it is next.
    mutating func skip(_ character: Unicode.Scalar) -> Bool {
        guard position < bytes.count, bytes[position] == UInt8(ascii: character) else { return false }
        position += 1
        return true
    }

    /// Skips the bytes of `literal` if they are next.
    mutating func skip(_ literal: [UInt8]) -> Bool {
        guard bytes.count - position >= literal.count else { return false }
        for (offset, byte) in literal.enumerated() where bytes[position + offset] != byte { return false }
        position += literal.count
        return true
    }

    /// Reads exactly `digits` decimal digits.
    mutating func number(digits: Int) -> Int? {
        guard bytes.count - position >= digits else { return nil }
        var value = 0
        for offset in 0..<digits {
            let d = bytes[position + offset] &- UInt8(ascii: "0")
            guard d < 10 else { return nil }
            value = value * 10 + Int(d)
        }
        position += digits
        return value
    }

    /// Reads one or more digits after a decimal point as nanoseconds, ignoring digits past the ninth.
    mutating func fraction() -> Int? {
        var value = 0
        var count = 0
        while position < bytes.count {
            let d = bytes[position] &- UInt8(ascii: "0")
            guard d < 10 else { break }
            if count < 9 { value = value * 10 + Int(d) }
            count += 1
            position += 1
        }
        guard count > 0 else { return nil }
        for _ in count..<max(count, 9) { value *= 10 }
        return value
    }

    /// Reads `+` as 1 or `-` as -1.
    mutating func sign() -> Int? {
        if skip("+") { return 1 }
        if skip("-") { return -1 }
        return nil
    }
}
