import Foundation
import Testing
import TetherTestSupport

@testable import TetherJSON

@Suite struct DateCodingTests {
    /// 2024-05-01T12:34:56Z.
    static let may1 = Date(timeIntervalSince1970: 1_714_566_896)

    /// The instant of the given UTC fields, computed by Foundation's Gregorian calendar as an oracle.
    private static func utc(_ y: Int, _ mo: Int, _ d: Int, _ h: Int = 0, _ mi: Int = 0, _ s: Int = 0) -> Date {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(secondsFromGMT: 0)!
        return calendar.date(from: DateComponents(year: y, month: mo, day: d, hour: h, minute: mi, second: s))!
    }

    // MARK: ISO 8601 parsing

    @Test func parsesUTCDateTimes() {
        #expect(ISO8601.parse("2024-05-01T12:34:56Z") == Self.may1)
        #expect(ISO8601.parse("2024-05-01t12:34:56z") == Self.may1)
        #expect(ISO8601.parse("1970-01-01T00:00:00Z") == Date(timeIntervalSince1970: 0))
        #expect(ISO8601.parse("2001-01-01T00:00:00Z") == Date(timeIntervalSinceReferenceDate: 0))
        #expect(ISO8601.parse("1969-12-31T23:59:59Z") == Date(timeIntervalSince1970: -1))
        // Proleptic Gregorian, as ISO 8601 says (Foundation's calendar switches to Julian before 1582).
        #expect(ISO8601.parse("0001-01-01T00:00:00Z") == Date(timeIntervalSince1970: -62_135_596_800))
        #expect(ISO8601.parse("9999-12-31T23:59:59Z") == Self.utc(9999, 12, 31, 23, 59, 59))
    }

    @Test(arguments: [
        "2024-05-01T21:34:56+09:00", "2024-05-01T21:34:56+0900", "2024-05-01T21:34:56+09",
        "2024-05-01T07:04:56-05:30", "2024-05-01T12:34:56-00:00", "2024-05-02T00:34:56+12:00",
    ])
    func parsesOffsets(text: String) {
        #expect(ISO8601.parse(text) == Self.may1)
    }

    @Test func parsesFractionalSecondsOfAnyLength() throws {
        let base = Self.may1.timeIntervalSinceReferenceDate
        for (text, fraction) in [
            ("2024-05-01T12:34:56.5Z", 0.5), ("2024-05-01T12:34:56.123Z", 0.123),
            ("2024-05-01T12:34:56.123456Z", 0.123456), ("2024-05-01T12:34:56.123456789123Z", 0.123456789),
            ("2024-05-01T21:34:56.000+09:00", 0.0),
        ] {
            let date = try #require(ISO8601.parse(text), "\(text)")
            #expect(abs(date.timeIntervalSinceReferenceDate - (base + fraction)) < 1e-6, "\(text)")
        }
    }

    @Test(arguments: [
        "2024-13-01T00:00:00Z", "2024-00-01T00:00:00Z", "2023-02-29T00:00:00Z", "2024-02-30T00:00:00Z",
        "2024-04-31T00:00:00Z", "2024-05-01T24:00:00Z", "2024-05-01T12:60:00Z", "2024-05-01T12:34:60Z",
        "2024-05-01T12:34:56", "2024-05-01 12:34:56Z", "2024-05-01T12:34:56Z ", "2024-05-01T12:34:56.Z",
        "2024-05-01T12:34:56+24:00", "2024-05-01T12:34:56+09:60", "2024-05-01T12:34:56+9:00",
        "2024-05-01T12:34:56+09:0", "24-05-01T12:34:56Z", "2024-5-01T12:34:56Z", "", "Z", "2024-05-01",
        "2024-05-01T12:34:56ZZ", "２０２４-05-01T12:34:56Z",
    ])
    func rejectsInvalidText(text: String) {
        #expect(ISO8601.parse(text) == nil)
    }

    @Test func acceptsLeapDays() {
        #expect(ISO8601.parse("2024-02-29T00:00:00Z") == Self.utc(2024, 2, 29))
        #expect(ISO8601.parse("2000-02-29T00:00:00Z") == Self.utc(2000, 2, 29))
        #expect(ISO8601.parse("1900-02-29T00:00:00Z") == nil)
    }

    // MARK: ISO 8601 formatting

    @Test func formatsInUTC() {
        #expect(ISO8601.format(Self.may1, fractionalSeconds: false) == "2024-05-01T12:34:56Z")
        #expect(ISO8601.format(Self.may1, fractionalSeconds: true) == "2024-05-01T12:34:56.000Z")
        #expect(ISO8601.format(Date(timeIntervalSince1970: -1), fractionalSeconds: false) == "1969-12-31T23:59:59Z")
        #expect(
            ISO8601.format(Date(timeIntervalSince1970: -0.25), fractionalSeconds: true) == "1969-12-31T23:59:59.750Z")
        #expect(
            ISO8601.format(Date(timeIntervalSince1970: 0.1234), fractionalSeconds: true) == "1970-01-01T00:00:00.123Z")
        // Rounded to the millisecond first, so 0.9996 s carries into the next second.
        #expect(
            ISO8601.format(Date(timeIntervalSince1970: 0.9996), fractionalSeconds: true) == "1970-01-01T00:00:01.000Z")
        #expect(
            ISO8601.format(Date(timeIntervalSince1970: -62_135_596_800), fractionalSeconds: false)
                == "0001-01-01T00:00:00Z")
    }

    @Test func formatsTheSameFieldsAsFoundationsCalendar() {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(secondsFromGMT: 0)!
        var random = SeededRandom(seed: 2024)
        for _ in 0..<500 {
            // Whole seconds from 1583 (Foundation's calendar is Julian before the 1582 reform) to 9999.
            let seconds = Double(Int64.random(in: -12_212_553_600...253_402_300_799, using: &random))
            let date = Date(timeIntervalSince1970: seconds)
            let c = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: date)
            let expected = String(
                format: "%04d-%02d-%02dT%02d:%02d:%02dZ", c.year!, c.month!, c.day!, c.hour!, c.minute!, c.second!)
            #expect(ISO8601.format(date, fractionalSeconds: false) == expected)
            #expect(ISO8601.parse(expected) == date)
        }
    }

    @Test func millisecondTextRoundTrips() {
        var random = SeededRandom(seed: 7)
        for _ in 0..<500 {
            let milliseconds = Int64.random(in: -2_000_000_000_000...4_000_000_000_000, using: &random)
            let date = Date(timeIntervalSince1970: Double(milliseconds) / 1000)
            let text = ISO8601.format(date, fractionalSeconds: true)
            let parsed = ISO8601.parse(text)
            #expect(parsed.map { ISO8601.format($0, fractionalSeconds: true) } == text)
            #expect(parsed.map { abs($0.timeIntervalSince(date)) < 1e-6 } == true, "\(text)")
        }
    }

    // MARK: Patterns

    @Test func patternInTokyo() throws {
        let tokyo = try #require(TimeZone(identifier: "Asia/Tokyo"))
        let pattern = DatePattern("yyyy-MM-dd HH:mm", timeZone: tokyo)
        #expect(pattern.parse("2024-05-01 21:34") == Self.utc(2024, 5, 1, 12, 34))
        #expect(pattern.format(Self.may1) == "2024-05-01 21:34")
        #expect(pattern.format(Self.utc(2024, 12, 31, 15, 0)) == "2025-01-01 00:00")
    }

    @Test func patternRequiresAnExactMatch() throws {
        let pattern = DatePattern("yyyy-MM-dd HH:mm", timeZone: TimeZone(secondsFromGMT: 0)!)
        for text in [
            "2024-05-01 21:34:00", "2024-5-01 21:34", "2024-05-01T21:34", "2024-05-01 21:3", "", "2024-02-30 00:00",
            "2024-05-01 24:00", " 2024-05-01 21:34",
        ] {
            #expect(pattern.parse(text) == nil, "\(text)")
        }
    }

    @Test func patternWithSecondsMillisecondsAndQuotedLiterals() throws {
        let offset = try #require(TimeZone(secondsFromGMT: -5 * 3600))
        let pattern = DatePattern("yyyy-MM-dd'T'HH:mm:ss.SSS 'o''clock' Z", timeZone: offset)
        let text = "2024-05-01T07:34:56.789 o'clock Z"
        let date = try #require(pattern.parse(text))
        #expect(abs(date.timeIntervalSince1970 - (Self.may1.timeIntervalSince1970 + 0.789)) < 1e-6)
        #expect(pattern.format(date) == text)
        // Missing fields read as the start of 1970.
        #expect(
            DatePattern("HH:mm", timeZone: TimeZone(secondsFromGMT: 0)!).parse("01:02")
                == Date(timeIntervalSince1970: 3720))
    }

    @Test func patternFollowsDaylightSaving() throws {
        let newYork = try #require(TimeZone(identifier: "America/New_York"))
        let pattern = DatePattern("yyyy-MM-dd HH:mm", timeZone: newYork)
        #expect(pattern.parse("2024-07-01 12:00") == Self.utc(2024, 7, 1, 16))
        #expect(pattern.parse("2024-01-01 12:00") == Self.utc(2024, 1, 1, 17))
        #expect(pattern.format(Self.utc(2024, 7, 1, 16)) == "2024-07-01 12:00")
        #expect(pattern.format(Self.utc(2024, 1, 1, 17)) == "2024-01-01 12:00")
        // A repeated hour reads as its first instant; a skipped one with the offset before the change.
        #expect(pattern.parse("2024-11-03 01:30") == Self.utc(2024, 11, 3, 5, 30))
        #expect(pattern.parse("2024-03-10 02:30") == Self.utc(2024, 3, 10, 7, 30))
        let london = DatePattern("yyyy-MM-dd HH:mm", timeZone: try #require(TimeZone(identifier: "Europe/London")))
        #expect(london.parse("2024-10-27 01:30") == Self.utc(2024, 10, 27, 0, 30))
        #expect(london.parse("2024-03-31 01:30") == Self.utc(2024, 3, 31, 1, 30))
    }

    @Test func patternMatchesDateFormatter() throws {
        for identifier in ["Asia/Tokyo", "America/New_York", "Europe/London"] {
            let zone = try #require(TimeZone(identifier: identifier))
            let formatter = DateFormatter()
            formatter.locale = Locale(identifier: "en_US_POSIX")
            formatter.timeZone = zone
            formatter.dateFormat = "yyyy-MM-dd HH:mm:ss"
            let pattern = DatePattern("yyyy-MM-dd HH:mm:ss", timeZone: zone)
            var random = SeededRandom(seed: 99)
            for _ in 0..<200 {
                let date = Date(timeIntervalSince1970: Double(Int64.random(in: 0...2_000_000_000, using: &random)))
                let text = formatter.string(from: date)
                #expect(pattern.format(date) == text, "\(identifier) \(date)")
                #expect(pattern.parse(text) == formatter.date(from: text), "\(identifier) \(text)")
            }
        }
    }

    // MARK: Encoder strategies

    struct Event: Encodable {
        var at: Date
    }

    private func encoded(_ date: Date, _ strategy: TetherJSONEncoder.DateEncodingStrategy) throws -> String {
        var encoder = TetherJSONEncoder()
        encoder.dateEncodingStrategy = strategy
        return String(decoding: try encoder.encode(Event(at: date)), as: UTF8.self)
    }

    @Test func encoderDateStrategies() throws {
        let date = Self.may1.addingTimeInterval(0.25)
        #expect(try encoded(date, .iso8601) == #"{"at":"2024-05-01T12:34:56Z"}"#)
        #expect(try encoded(date, .iso8601WithFractionalSeconds) == #"{"at":"2024-05-01T12:34:56.250Z"}"#)
        #expect(try encoded(date, .secondsSince1970) == #"{"at":1714566896.25}"#)
        #expect(try encoded(Self.may1, .secondsSince1970) == #"{"at":1714566896}"#)
        #expect(try encoded(date, .millisecondsSince1970) == #"{"at":1714566896250}"#)
        #expect(try encoded(date, .deferredToDate) == #"{"at":736259696.25}"#)
        let tokyo = try #require(TimeZone(identifier: "Asia/Tokyo"))
        #expect(
            try encoded(date, .formatted(pattern: "yyyy/MM/dd HH:mm", timeZone: tokyo))
                == #"{"at":"2024\/05\/01 21:34"}"#)
        let custom = try encoded(date) {
            .custom { date, encoder in
                var container = encoder.unkeyedContainer()
                try container.encode(Int(date.timeIntervalSince1970))
            }
        }
        #expect(custom == #"{"at":[1714566896]}"#)
    }

    private func encoded(_ date: Date, _ strategy: () -> TetherJSONEncoder.DateEncodingStrategy) throws -> String {
        try encoded(date, strategy())
    }

    @Test func encoderDateStrategiesMatchFoundation() throws {
        let dates = [Event(at: Self.may1), Event(at: Self.may1.addingTimeInterval(0.5))]
        let pairs: [(TetherJSONEncoder.DateEncodingStrategy, JSONEncoder.DateEncodingStrategy)] = [
            (.iso8601, .iso8601), (.secondsSince1970, .secondsSince1970),
            (.millisecondsSince1970, .millisecondsSince1970),
        ]
        for (ours, theirs) in pairs {
            var tether = TetherJSONEncoder()
            tether.dateEncodingStrategy = ours
            let foundation = JSONEncoder()
            foundation.dateEncodingStrategy = theirs
            #expect(try tether.encode(dates) == foundation.encode(dates), "\(theirs)")
        }
    }
}
