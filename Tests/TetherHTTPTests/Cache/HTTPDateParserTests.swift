import Foundation
import Testing
import TetherSync

@testable import TetherHTTP

@Suite struct HTTPDateParserTests {
    /// RFC 9110 §5.6.7's example instant, 1994-11-06T08:49:37Z.
    let example = Date(timeIntervalSince1970: 784_111_777)

    @Test func parsesIMFFixdate() {
        #expect(HTTPDateParser.parse("Sun, 06 Nov 1994 08:49:37 GMT") == example)
    }

    @Test func parsesRFC850() {
        #expect(HTTPDateParser.parse("Sunday, 06-Nov-94 08:49:37 GMT", now: cacheTime(0)) == example)
    }

    @Test func parsesAsctimeWithPaddedAndUnpaddedDay() {
        #expect(HTTPDateParser.parse("Sun Nov  6 08:49:37 1994") == example)
        #expect(HTTPDateParser.parse("Sun Nov 6 08:49:37 1994") == example)
        #expect(HTTPDateParser.parse("Sun Nov 16 08:49:37 1994") == example.addingTimeInterval(10 * 86_400))
    }

    @Test func rfc850TwoDigitYearsMoreThanFiftyYearsAheadAreInThePastCentury() {
        // From 2023: 94 would be 2094 (71 years ahead), so 1994; 30 is 2030 (7 years ahead).
        let now = cacheTime(0)
        #expect(HTTPDateParser.parse("Sunday, 06-Nov-94 08:49:37 GMT", now: now) == example)
        let year2030 = HTTPDateParser.parse("Friday, 01-Jan-30 00:00:00 GMT", now: now)
        #expect(year2030 == Date(timeIntervalSince1970: 1_893_456_000))
    }

    @Test func namesAreCaseInsensitiveAndWhitespaceAroundIsIgnored() {
        #expect(HTTPDateParser.parse("  sun, 06 NOV 1994 08:49:37 gmt \t") == example)
    }

    @Test func formatsIMFFixdate() {
        #expect(HTTPDateParser.format(example) == "Sun, 06 Nov 1994 08:49:37 GMT")
        #expect(HTTPDateParser.format(Date(timeIntervalSince1970: 0)) == "Thu, 01 Jan 1970 00:00:00 GMT")
        #expect(HTTPDateParser.format(example.addingTimeInterval(0.9)) == "Sun, 06 Nov 1994 08:49:37 GMT")
        #expect(HTTPDateParser.format(Date(timeIntervalSince1970: -1)) == "Wed, 31 Dec 1969 23:59:59 GMT")
    }

    @Test func formatClampsToFourDigitYears() {
        #expect(HTTPDateParser.format(.distantFuture) == "Mon, 01 Jan 4001 00:00:00 GMT")
        #expect(HTTPDateParser.format(Date(timeIntervalSince1970: .infinity)) == "Fri, 31 Dec 9999 23:59:59 GMT")
        #expect(HTTPDateParser.format(Date(timeIntervalSince1970: -.infinity)) == "Mon, 01 Jan 0001 00:00:00 GMT")
    }

    @Test(arguments: [0, 951_782_400, 951_868_799, 1_700_000_000, 4_107_542_399, -2_208_988_800])
    func formatThenParseRoundTrips(seconds: Int) {
        let date = Date(timeIntervalSince1970: TimeInterval(seconds))
        #expect(HTTPDateParser.parse(HTTPDateParser.format(date)) == date)
    }

    @Test func leapDaysAreValidOnlyInLeapYears() {
        #expect(HTTPDateParser.parse("Tue, 29 Feb 2000 00:00:00 GMT") == Date(timeIntervalSince1970: 951_782_400))
        #expect(HTTPDateParser.parse("Thu, 29 Feb 2024 12:00:00 GMT") != nil)
        #expect(HTTPDateParser.parse("Thu, 29 Feb 1900 00:00:00 GMT") == nil)
        #expect(HTTPDateParser.parse("Sat, 29 Feb 2023 00:00:00 GMT") == nil)
    }

    @Test(arguments: [
        "", "0", "-1", "3600", "garbage", "Sun, 06 Nov 1994", "Sun, 06 Nov 1994 08:49:37",
        "Sun, 06 Nov 1994 08:49:37 PST",
        "Sun, 06 Nov 1994 08:49:37 +0000", "Sun, 06 Foo 1994 08:49:37 GMT", "Sun, 32 Nov 1994 08:49:37 GMT",
        "Sun, 31 Nov 1994 08:49:37 GMT", "Sun, 06 Nov 1994 24:00:00 GMT", "Sun, 06 Nov 1994 08:60:00 GMT",
        "Sun, 06 Nov 1994 08:49:61 GMT", "Sun, 06 Nov 94 08:49:37 GMT", "Sun, 06 Nov 19945 08:49:37 GMT",
        "Sun, 006 Nov 1994 08:49:37 GMT", "Sun, 06 Nov 1994 8:49:37 GMT", "Xyz, 06 Nov 1994 08:49:37 GMT",
        "Sun 06 Nov 1994 08:49:37 GMT", "Sunday, 06 Nov 1994 08:49:37 GMT", "Sun, 06-Nov-94 08:49:37 GMT",
        "Sunday, 06-Nov-1994 08:49:37 GMT", "Sun Nov  6 08:49:37 94", "Sun Nov  6 08:49:37 1994 GMT",
        "Sun, 06 Nov 1994 08:49:37 GMT trailing", "Sun,06 Nov 1994 08:49:37 GMT x", "Sun, 06 Nov 1994 08:49:37 GMTX",
        "Sun, 06 Nov 1994 08:49 GMT", "Sunday, 06-Nov-94 08:49:37", "日, 06 Nov 1994 08:49:37 GMT",
    ])
    func rejectsGarbageAndMalformedDates(text: String) {
        #expect(HTTPDateParser.parse(text) == nil)
    }

    @Test func mutatedDatesNeverCrashAndWhatParsesRoundTrips() {
        var generator = SplitMix64(seed: 9111)
        let seeds = Array("Sun, 06 Nov 1994 08:49:37 GMT".utf8) + Array("Sunday, 06-Nov-94 08:49:37 GMT".utf8)
        let alphabet = Array("0123456789 ,:-GMTSunNovFebWed\t\u{0}é".utf8)
        var parsed = 0
        for _ in 0..<5_000 {
            var bytes = Array(seeds.prefix(Int.random(in: 0...seeds.count, using: &generator)))
            for _ in 0..<Int.random(in: 0...3, using: &generator) where !bytes.isEmpty {
                bytes[Int.random(in: 0..<bytes.count, using: &generator)] = alphabet.randomElement(using: &generator)!
            }
            let text = String(decoding: bytes, as: UTF8.self)
            guard let date = HTTPDateParser.parse(text, now: cacheEpoch) else { continue }
            parsed += 1
            #expect(HTTPDateParser.parse(HTTPDateParser.format(date)) == date, "\(text)")
        }
        #expect(parsed > 0)
    }

    @Test func parsesSubstrings() {
        let header = "date=Sun, 06 Nov 1994 08:49:37 GMT"
        #expect(HTTPDateParser.parse(header.dropFirst(5)) == example)
    }
}

@Suite struct HTTPDateStrictnessTests {
    // freshness-expires-invalid-multiple-spaces and the other invalid forms of the suite: the comma forms are exact.
    @Test(arguments: [
        "Thu, 18  Aug  2050 02:01:18 GMT", "Thu,  18 Aug 2050 02:01:18 GMT", "Thu, 18 Aug 2050 02:01:18  GMT",
        "Thu, 8 Aug 2050 02:01:18 GMT", "Thu, 18-Aug-2050 02:01:18 GMT", "Thu, 18 Aug 2050 02.01.18 GMT",
        "Thu, 18 Aug 2050 2:01:18 GMT", "Thu, 18 Aug 50 02:01:18 GMT", "Thu 18 Aug 2050 02:01:18 GMT",
        "Thu, 18 Aug 2050 02:01:18 UTC", "Thursday,  18-Aug-50 02:01:18 GMT",
    ])
    func malformedDatesAreNotDates(text: String) {
        #expect(HTTPDateParser.parse(text) == nil)
    }

    @Test func theAsctimeFormPadsItsDayWithSpaces() {
        #expect(HTTPDateParser.parse("Thu Aug  8 02:01:18 2050") != nil)
        #expect(HTTPDateParser.parse("THU, 18 AUG 2050 02:01:18 gMT") != nil)
    }
}
