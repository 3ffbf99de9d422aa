#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The process's limit of open files (`RLIMIT_NOFILE`), which bounds a server's connections.
package enum OpenFileLimit {
    /// Descriptors kept for everything but connections: the database and its journal, images, the listener, the
    /// loops, the standard streams, and connections being closed.
    static let reserve = 256

    /// Raises the soft limit to the hard limit (once per process; later calls only read it) and returns it.
    package static func raiseToHardLimit() -> Int { raised }

    private static let raised: Int = {
        var limit = rlimit()
        guard getrlimit(resource, &limit) == 0 else { return 1024 }
        if limit.rlim_cur < limit.rlim_max {
            var wanted = limit
            wanted.rlim_cur = limit.rlim_max
            if setrlimit(resource, &wanted) == 0 { limit = wanted }
        }
        return Int(clamping: min(limit.rlim_cur, rlim_t(Int32.max)))
    }()

    #if canImport(Glibc)
        private static let resource = __rlimit_resource_t(RLIMIT_NOFILE.rawValue)
    #else
        private static let resource = RLIMIT_NOFILE
    #endif

    /// The connection limit the open-file limit allows: the limit less ``reserve``, at least 64.
    static func connectionLimit(openFiles: Int) -> Int {
        max(64, openFiles - reserve)
    }
}
