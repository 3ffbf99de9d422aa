#if canImport(TetherSync)
    import TetherSync  // not a module when the fuzz targets build the sources as one (Scripts/fuzz.sh)
#endif

/// The one IMF-fixdate formatter of the package (RFC 9110 §5.6.7): `Sun, 06 Nov 1994 08:49:37 GMT`, for the
/// server's `Date` fields and the client cache's dates.
///
/// Computed from the number alone (proleptic Gregorian calendar, UTC), so no time zone data is read.
package enum IMFFixdate {
    /// `secondsSince1970` (whole seconds since 1970-01-01T00:00:00Z) as an IMF-fixdate. Years outside 0001 to 9999
    /// do not fit the four-digit year; callers clamp.
    package static func string(secondsSince1970 seconds: Int) -> String {
        let days = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
        let secondOfDay = seconds - days * 86_400
        let (year, month, day) = CivilDate.date(fromDays: days)
        // 1970-01-01 was a Thursday.
        let weekday = ((days % 7) + 11) % 7

        func twoDigits(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
        var yearText = String(year)
        while yearText.utf8.count < 4 { yearText = "0" + yearText }
        return "\(weekdays[weekday]), \(twoDigits(day)) \(months[month - 1]) \(yearText) "
            + "\(twoDigits(secondOfDay / 3600)):\(twoDigits(secondOfDay / 60 % 60)):\(twoDigits(secondOfDay % 60)) GMT"
    }

    /// The weekday names of the format, Sunday first.
    package static let weekdays = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
    /// The month names of the format, January first.
    package static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
}
