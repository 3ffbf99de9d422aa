#if os(Linux)
    import CEpoll
    import Glibc

    /// An IPv4 or IPv6 address and port, as `connect` takes it.
    public struct SocketAddress: Sendable, CustomStringConvertible {
        var storage: sockaddr_storage
        var length: socklen_t

        /// `AF_INET` or `AF_INET6`.
        public var family: Int32 { Int32(storage.ss_family) }

        init(_ address: UnsafePointer<sockaddr>, length: socklen_t) {
            storage = sockaddr_storage()
            self.length = length
            withUnsafeMutableBytes(of: &storage) { target in
                target.copyMemory(from: UnsafeRawBufferPointer(start: address, count: Int(length)))
            }
        }

        /// A numeric address (`127.0.0.1`, `::1`), or `nil` when `host` is not one.
        public init?(numericHost host: String, port: Int) {
            var v4 = sockaddr_in()
            var v6 = sockaddr_in6()
            if inet_pton(AF_INET, host, &v4.sin_addr) == 1 {
                v4.sin_family = sa_family_t(AF_INET)
                v4.sin_port = in_port_t(UInt16(truncatingIfNeeded: port)).bigEndian
                let length = socklen_t(MemoryLayout<sockaddr_in>.size)
                self = withUnsafePointer(to: &v4) {
                    $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { SocketAddress($0, length: length) }
                }
            } else if inet_pton(AF_INET6, host, &v6.sin6_addr) == 1 {
                v6.sin6_family = sa_family_t(AF_INET6)
                v6.sin6_port = in_port_t(UInt16(truncatingIfNeeded: port)).bigEndian
                let length = socklen_t(MemoryLayout<sockaddr_in6>.size)
                self = withUnsafePointer(to: &v6) {
                    $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { SocketAddress($0, length: length) }
                }
            } else {
                return nil
            }
        }

        func withSockaddr<R>(_ body: (UnsafePointer<sockaddr>, socklen_t) -> R) -> R {
            withUnsafeBytes(of: storage) { raw in
                body(raw.baseAddress!.assumingMemoryBound(to: sockaddr.self), length)
            }
        }

        public var description: String {
            var text = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN) + 1)
            func string(_ text: [CChar]) -> String {
                String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            }
            return withUnsafeBytes(of: storage) { raw -> String in
                if family == AF_INET {
                    let address = raw.load(as: sockaddr_in.self)
                    var inAddr = address.sin_addr
                    inet_ntop(AF_INET, &inAddr, &text, socklen_t(text.count))
                    return "\(string(text)):\(UInt16(bigEndian: address.sin_port))"
                } else {
                    let address = raw.load(as: sockaddr_in6.self)
                    var inAddr = address.sin6_addr
                    inet_ntop(AF_INET6, &inAddr, &text, socklen_t(text.count))
                    return "[\(string(text))]:\(UInt16(bigEndian: address.sin6_port))"
                }
            }
        }
    }
#endif
