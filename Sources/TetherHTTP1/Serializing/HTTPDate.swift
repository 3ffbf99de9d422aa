#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

extension HTTPResponseSerializer {
    /// The system clock's seconds since 1970-01-01T00:00:00Z.
    static func currentTime() -> Int {
        Int(time(nil))
    }

    /// `secondsSince1970` as an IMF-fixdate (``IMFFixdate``).
    static func imfFixdate(secondsSince1970 seconds: Int) -> String {
        IMFFixdate.string(secondsSince1970: seconds)
    }
}
