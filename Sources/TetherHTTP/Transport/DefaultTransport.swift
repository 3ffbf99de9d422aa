import Foundation

extension HTTPClient {
    /// The transport of a client whose configuration names none: on Linux ``NativeTransport`` (its own HTTP/1.1
    /// and TLS on epoll, several times faster than FoundationNetworking's URLSession there), or
    /// ``URLSessionTransport`` when the environment variable `TETHER_TRANSPORT` is `urlsession` (how the test suite
    /// runs the client's tests over both transports); elsewhere ``URLSessionTransport``.
    static func defaultTransport(maximumConnectionsPerHost: Int) -> any HTTPTransport {
        #if os(Linux)
            if ProcessInfo.processInfo.environment["TETHER_TRANSPORT"] != "urlsession" {
                return NativeTransport(maximumConnectionsPerHost: maximumConnectionsPerHost)
            }
        #endif
        return URLSessionTransport(maximumConnectionsPerHost: maximumConnectionsPerHost)
    }
}
