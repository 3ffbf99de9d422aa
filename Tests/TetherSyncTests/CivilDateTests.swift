import Testing
import TetherSync

@Suite struct CivilDateTests {
    @Test(arguments: [
        (1970, 1, 1, 0), (1969, 12, 31, -1), (2000, 2, 29, 11_016), (2000, 3, 1, 11_017), (1900, 3, 1, -25_508),
        (1, 1, 1, -719_162), (9999, 12, 31, 2_932_896), (2026, 12, 7, 20_794),
    ])
    func knownDates(year: Int, month: Int, day: Int, days: Int) {
        #expect(CivilDate.days(year: year, month: month, day: day) == days)
        let date = CivilDate.date(fromDays: days)
        #expect(date.year == year && date.month == month && date.day == day)
    }

    /// Every day from year -400 to about 2400 maps to the next date, and back: a day is never skipped or repeated.
    @Test func consecutiveDaysAreConsecutiveDates() {
        var (year, month, day) = (-400, 1, 1)
        let first = CivilDate.days(year: year, month: month, day: day)
        for days in first..<(first + 2_800 * 366) {
            let date = CivilDate.date(fromDays: days)
            guard date.year == year, date.month == month, date.day == day,
                CivilDate.days(year: year, month: month, day: day) == days
            else {
                Issue.record("day \(days) is \(date), expected \(year)-\(month)-\(day)")
                return
            }
            day += 1
            if day > CivilDate.daysInMonth(month, year: year) {
                (month, day) = (month + 1, 1)
                if month > 12 { (year, month) = (year + 1, 1) }
            }
        }
    }

    @Test func leapYears() {
        #expect(CivilDate.isLeapYear(2000) && CivilDate.isLeapYear(2024) && CivilDate.isLeapYear(-4))
        #expect(!CivilDate.isLeapYear(1900) && !CivilDate.isLeapYear(2023) && !CivilDate.isLeapYear(2100))
        #expect(CivilDate.daysInMonth(2, year: 2000) == 29 && CivilDate.daysInMonth(2, year: 1900) == 28)
    }
}
