import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A response as read off the wire by ``RawHTTPClient``.
struct RawResponse: Sendable {
    var status: Int
    var headers: [(name: String, value: String)]
    var body: [UInt8]

    /// The first value of header `name`, compared case-insensitively.
    func header(_ name: String) -> String? {
        headers.first { $0.name.lowercased() == name.lowercased() }?.value
    }

    var text: String { String(decoding: body, as: UTF8.self) }
}

/// What went wrong reading from the server.
enum RawClientError: Error, Equatable {
    /// The deadline passed.
    case timedOut
    /// The server closed the connection (EOF) before the message was complete; the bytes received so far.
    case closed(received: [UInt8])
    /// The connection was reset or another socket error happened.
    case failed(errno: Int32)
    /// The bytes are not an HTTP response.
    case malformed(String)
}

/// A small blocking TCP client for tests: sends any bytes (malformed, partial, pipelined) and reads responses,
/// with a deadline on every call so no test hangs. Used by one thread at a time (hence unchecked).
final class RawHTTPClient: @unchecked Sendable {
    private let fd: Int32
    private var buffer: [UInt8] = []
    let timeout: Duration

    /// Connects to `host:port`.
    init(port: Int, host: String = "127.0.0.1", timeout: Duration = .seconds(5)) throws {
        self.timeout = timeout
        var hints = addrinfo()
        hints.ai_flags = AI_NUMERICHOST | AI_NUMERICSERV
        #if canImport(Darwin)
            hints.ai_socktype = SOCK_STREAM
        #else
            hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        #endif
        var list: UnsafeMutablePointer<addrinfo>?
        guard getaddrinfo(host, String(port), &hints, &list) == 0, let info = list?.pointee else {
            throw RawClientError.malformed("cannot resolve \(host)")
        }
        defer { freeaddrinfo(list) }
        fd = socket(info.ai_family, info.ai_socktype, 0)
        guard fd >= 0 else { throw RawClientError.failed(errno: errno) }
        // On failure `deinit` closes the descriptor (it runs for a class whose init throws once every property is set).
        guard connect(fd, info.ai_addr, info.ai_addrlen) == 0 else { throw RawClientError.failed(errno: errno) }
        var one: Int32 = 1
        setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
        #if canImport(Darwin)
            setsockopt(fd, SOL_SOCKET, SO_NOSIGPIPE, &one, socklen_t(MemoryLayout<Int32>.size))
        #endif
    }

    deinit { systemClose(fd) }

    /// Sends `text` as UTF-8.
    func send(_ text: String) throws { try send(Array(text.utf8)) }

    /// Sends all of `bytes`.
    func send(_ bytes: [UInt8]) throws {
        var offset = 0
        while offset < bytes.count {
            #if canImport(Darwin)
                let flags: Int32 = 0
            #else
                let flags = Int32(MSG_NOSIGNAL)
            #endif
            let sent = bytes[offset...].withUnsafeBytes { systemSend(fd, $0.baseAddress, $0.count, flags) }
            if sent < 0 { throw RawClientError.failed(errno: errno) }
            offset += sent
        }
    }

    /// Reads more bytes into the buffer before `deadline`; `false` at EOF.
    private func fill(before deadline: ContinuousClock.Instant) throws -> Bool {
        let remaining = deadline - .now
        guard remaining > .zero else { throw RawClientError.timedOut }
        var descriptor = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        let milliseconds = Int32(
            remaining.components.seconds * 1000 + remaining.components.attoseconds / 1_000_000_000_000_000 + 1)
        let ready = poll(&descriptor, 1, milliseconds)
        if ready == 0 { throw RawClientError.timedOut }
        if ready < 0 { throw RawClientError.failed(errno: errno) }
        var chunk = [UInt8](repeating: 0, count: 65536)
        let count = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
        if count < 0 { throw RawClientError.failed(errno: errno) }
        if count == 0 { return false }
        buffer += chunk[0..<count]
        return true
    }

    /// Reads one line (without CRLF).
    private func readLine(before deadline: ContinuousClock.Instant, consumed: inout [UInt8]) throws -> String {
        while true {
            if let newline = buffer.firstIndex(of: UInt8(ascii: "\n")) {
                var line = Array(buffer[..<newline])
                consumed += buffer[...newline]
                buffer.removeFirst(newline + 1)
                if line.last == UInt8(ascii: "\r") { line.removeLast() }
                return String(decoding: line, as: UTF8.self)
            }
            guard try fill(before: deadline) else { throw RawClientError.closed(received: consumed + buffer) }
        }
    }

    private func readExactly(_ count: Int, before deadline: ContinuousClock.Instant, consumed: inout [UInt8]) throws
        -> [UInt8]
    {
        while buffer.count < count {
            guard try fill(before: deadline) else { throw RawClientError.closed(received: consumed + buffer) }
        }
        let bytes = Array(buffer[..<count])
        buffer.removeFirst(count)
        consumed += bytes
        return bytes
    }

    /// Reads one whole response: the head, then the body by `Content-Length`, chunked coding, or until close.
    ///
    /// - Parameter isHead: the response answers a HEAD request, so it has no body whatever its fields say.
    /// - Throws: ``RawClientError``; `closed(received:)` carries every byte of this response received.
    func readResponse(isHead: Bool = false) throws -> RawResponse {
        let deadline = ContinuousClock.now + timeout
        var consumed: [UInt8] = []
        let statusLine = try readLine(before: deadline, consumed: &consumed)
        let parts = statusLine.split(separator: " ", maxSplits: 2)
        guard parts.count >= 2, parts[0].hasPrefix("HTTP/1."), let status = Int(parts[1]) else {
            throw RawClientError.malformed("status line \(statusLine)")
        }
        var headers: [(name: String, value: String)] = []
        while true {
            let line = try readLine(before: deadline, consumed: &consumed)
            if line.isEmpty { break }
            guard let colon = line.firstIndex(of: ":") else { throw RawClientError.malformed("field \(line)") }
            headers.append(
                (String(line[..<colon]), String(line[line.index(after: colon)...]).trimmingCharacters(in: .whitespaces))
            )
        }
        var response = RawResponse(status: status, headers: headers, body: [])
        if isHead || status < 200 || status == 204 || status == 304 { return response }
        if let length = response.header("Content-Length").flatMap(Int.init) {
            response.body = try readExactly(length, before: deadline, consumed: &consumed)
        } else if response.header("Transfer-Encoding")?.lowercased() == "chunked" {
            while true {
                let sizeLine = try readLine(before: deadline, consumed: &consumed)
                guard let size = Int(sizeLine.split(separator: ";")[0], radix: 16) else {
                    throw RawClientError.malformed("chunk size \(sizeLine)")
                }
                if size == 0 {
                    while try !readLine(before: deadline, consumed: &consumed).isEmpty {}
                    break
                }
                response.body += try readExactly(size, before: deadline, consumed: &consumed)
                _ = try readLine(before: deadline, consumed: &consumed)
            }
        } else {
            while try fill(before: deadline) {}
            response.body = buffer
            buffer = []
        }
        return response
    }

    /// Sends `text` and reads the response.
    func exchange(_ text: String, isHead: Bool = false) throws -> RawResponse {
        try send(text)
        return try readResponse(isHead: isHead)
    }

    /// Waits for the server to close the connection; returns the bytes that came before the close (none for a
    /// silent close). A reset counts as a close.
    func readUntilClosed() throws -> [UInt8] {
        let deadline = ContinuousClock.now + timeout
        do {
            while try fill(before: deadline) {}
        } catch RawClientError.failed(let code) where code == ECONNRESET {
        }
        defer { buffer = [] }
        return buffer
    }

    /// A GET request's text for `path`, with a Host field and any extra fields.
    static func get(_ path: String, _ fields: String...) -> String {
        "GET \(path) HTTP/1.1\r\nHost: localhost\r\n" + fields.map { $0 + "\r\n" }.joined() + "\r\n"
    }
}

private func systemClose(_ fd: Int32) { _ = close(fd) }
private func systemSend(_ fd: Int32, _ bytes: UnsafeRawPointer?, _ count: Int, _ flags: Int32) -> Int {
    send(fd, bytes, count, flags)
}

/// Whether a socket can bind `::1` here (IPv6 tests are skipped otherwise).
let isIPv6LoopbackAvailable: Bool = {
    #if canImport(Darwin)
        let fd = socket(AF_INET6, SOCK_STREAM, 0)
    #else
        let fd = socket(AF_INET6, Int32(SOCK_STREAM.rawValue), 0)
    #endif
    guard fd >= 0 else { return false }
    defer { systemClose(fd) }
    var address = sockaddr_in6()
    address.sin6_family = sa_family_t(AF_INET6)
    address.sin6_addr = in6addr_loopback
    let bound = withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
            bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in6>.size))
        }
    }
    return bound == 0
}()
