import TetherSync

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

// The one socket layer of the tests' peers on 127.0.0.1: a listener whose descriptor is never closed under a thread
// still in `accept`, a blocking connect, and free or refusing ports.

/// A listening TCP socket on 127.0.0.1, on a port the kernel picks.
///
/// Tests build their peers on it: a scripted server accepts in a loop, a silent one never accepts (connections
/// complete in the kernel and wait), a TLS test accepts once and closes.
///
/// - Thread safety: every method may be called from any thread. ``close()`` stops ``accept()`` at once, but the
///   descriptor is closed only when no thread is inside `accept`: closed earlier, its number could go to another
///   test's listener before that thread's `accept`, which would then take (and drop) that test's connection.
package final class LoopbackListener: Sendable {
    package struct Unavailable: Error {
        package let call: String
    }

    /// The port it listens on.
    package let port: Int
    private let descriptor: Int32
    /// Threads inside `accept`, and whether ``close()`` was called.
    private let state = Locked((accepting: 0, closed: false))

    /// Binds and listens, with room for `backlog` connections not yet accepted.
    package init(backlog: Int32 = 64) throws {
        let descriptor = try openLoopbackSocket()
        guard let port = bindLoopback(descriptor), listen(descriptor, backlog) == 0 else {
            closeDescriptor(descriptor)
            throw Unavailable(call: "bind or listen")
        }
        self.descriptor = descriptor
        self.port = port
    }

    deinit { close() }

    /// Waits for the next connection and returns its descriptor (the caller closes it), or `nil` once closed.
    package func accept() -> Int32? {
        let open = state.withLock { state -> Bool in
            guard !state.closed else { return false }
            state.accepting += 1
            return true
        }
        guard open else { return nil }
        let client = acceptConnection(descriptor)
        let (closed, closes) = state.withLock { state in
            state.accepting -= 1
            return (state.closed, state.closed && state.accepting == 0)
        }
        if closes { closeDescriptor(descriptor) }
        if client >= 0 && closed {
            closeDescriptor(client)
            return nil
        }
        return client >= 0 ? client : nil
    }

    /// Stops listening: connections are refused from now on and every ``accept()`` returns `nil`. Idempotent.
    package func close() {
        let (first, closes) = state.withLock { state -> (Bool, Bool) in
            defer { state.closed = true }
            return (!state.closed, !state.closed && state.accepting == 0)
        }
        guard first else { return }
        shutdown(descriptor, Int32(SHUT_RDWR))
        if closes { closeDescriptor(descriptor) }
    }
}

/// A blocking TCP connection to 127.0.0.1:`port`: its descriptor, or `nil` when refused.
package func connectToLoopback(port: Int) -> Int32? {
    guard let descriptor = try? openLoopbackSocket() else { return nil }
    var address = loopbackAddress(port: port)
    let connected = withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
            connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
        }
    }
    guard connected == 0 else {
        close(descriptor)
        return nil
    }
    return descriptor
}

/// A loopback port free at the time of the call, for a child process to listen on (another process may take it
/// first; a test that cannot afford that passes port 0 to the child and reads the port it got).
package func freeLoopbackPort() throws -> Int {
    let descriptor = try openLoopbackSocket()
    defer { close(descriptor) }
    guard let port = bindLoopback(descriptor) else { throw LoopbackListener.Unavailable(call: "bind") }
    return port
}

/// A loopback port that refuses connections for the rest of the test run: bound by a socket that never listens and
/// is never closed. (A port freed by a stopped server can be handed to another test's server at once.)
package func closedLoopbackPort() throws -> Int {
    let descriptor = try openLoopbackSocket()
    guard let port = bindLoopback(descriptor) else {
        close(descriptor)
        throw LoopbackListener.Unavailable(call: "bind")
    }
    return port
}

private func openLoopbackSocket() throws(LoopbackListener.Unavailable) -> Int32 {
    #if canImport(Glibc)
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
    #else
        let descriptor = socket(AF_INET, SOCK_STREAM, 0)
    #endif
    guard descriptor >= 0 else { throw LoopbackListener.Unavailable(call: "socket") }
    return descriptor
}

private func loopbackAddress(port: Int) -> sockaddr_in {
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    address.sin_port = UInt16(port).bigEndian
    return address
}

/// Binds `descriptor` to 127.0.0.1 on a port the kernel picks and returns that port, or `nil`.
private func bindLoopback(_ descriptor: Int32) -> Int? {
    var address = loopbackAddress(port: 0)
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let bound = withUnsafeMutablePointer(to: &address) { pointer in
        pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { generic in
            bind(descriptor, generic, length) == 0 && getsockname(descriptor, generic, &length) == 0
        }
    }
    return bound ? Int(UInt16(bigEndian: address.sin_port)) : nil
}

private func closeDescriptor(_ descriptor: Int32) { close(descriptor) }

private func acceptConnection(_ descriptor: Int32) -> Int32 { accept(descriptor, nil, nil) }
