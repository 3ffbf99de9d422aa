import Foundation

extension HTTPClient {
    /// The transport of a client whose configuration names none: ``URLSessionTransport``, or on Linux
    /// ``NativeTransport`` when the environment variable `TETHER_TRANSPORT` is `native` (how the test suite runs
    /// the client's tests over both transports).
    static func defaultTransport(maximumConnectionsPerHost: Int) -> any HTTPTransport {
        #if os(Linux)
            if ProcessInfo.processInfo.environment["TETHER_TRANSPORT"] == "native" {
                return NativeTransport(maximumConnectionsPerHost: maximumConnectionsPerHost)
            }
        #endif
        return URLSessionTransport(maximumConnectionsPerHost: maximumConnectionsPerHost)
    }
}
