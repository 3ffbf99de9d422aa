#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A loopback port that refuses connections for the rest of the test run: bound by a socket that never listens and
/// is never closed. (A port freed by a stopped server can be handed to another test's server at once.)
package func closedLoopbackPort() throws -> Int {
    struct Unavailable: Error { let call: String }
    #if canImport(Glibc)
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    #else
        let descriptor = socket(AF_INET, SOCK_STREAM, 0)
    #endif
    guard descriptor >= 0 else { throw Unavailable(call: "socket") }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let bound = withUnsafeMutablePointer(to: &address) { pointer in
        pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { generic in
            bind(descriptor, generic, length) == 0 && getsockname(descriptor, generic, &length) == 0
        }
    }
    guard bound else {
        close(descriptor)
        throw Unavailable(call: "bind")
    }
    return Int(UInt16(bigEndian: address.sin_port))
}
