#if os(Linux)
    import Dispatch
    import CEpoll
    import Glibc

    /// Host names to addresses with `getaddrinfo`, which blocks: it runs on a Dispatch thread, never on a loop.
    /// Numeric addresses are read at once without it.
    enum Resolver {
        /// The addresses of `host`, in the order to try them (RFC 8305 §4: the first family's first address, then
        /// alternating families), passed to `completion` on `loop`.
        static func resolve(
            host: String, port: Int, on loop: EventLoop,
            _ completion: @escaping (Result<[SocketAddress], IOError>) -> Void
        ) {
            if let address = SocketAddress(numericHost: host, port: port) {
                completion(.success([address]))
                return
            }
            let box = UncheckedBox(completion)
            DispatchQueue.global().async {
                let result = lookup(host: host, port: port)
                loop.execute { box.value(result) }
            }
        }

        /// The blocking look-up.
        static func lookup(host: String, port: Int) -> Result<[SocketAddress], IOError> {
            var hints = addrinfo()
            hints.ai_family = AF_UNSPEC
            hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
            hints.ai_flags = AI_ADDRCONFIG | AI_NUMERICSERV
            var list: UnsafeMutablePointer<addrinfo>?
            let status = getaddrinfo(host, String(port), &hints, &list)
            guard status == 0 else {
                return .failure(
                    IOError(.unknownHost, "Cannot resolve \(host): \(String(cString: gai_strerror(status)))."))
            }
            defer { freeaddrinfo(list) }
            var addresses: [SocketAddress] = []
            var node = list
            while let info = node?.pointee {
                if let address = info.ai_addr, info.ai_family == AF_INET || info.ai_family == AF_INET6 {
                    addresses.append(SocketAddress(address, length: info.ai_addrlen))
                }
                node = info.ai_next
            }
            if addresses.isEmpty { return .failure(IOError(.unknownHost, "\(host) has no IPv4 or IPv6 address.")) }
            return .success(interleave(addresses))
        }

        /// The first address's family first, then alternating with the other family, each in its own order.
        static func interleave(_ addresses: [SocketAddress]) -> [SocketAddress] {
            guard let first = addresses.first else { return [] }
            let primary = addresses.filter { $0.family == first.family }
            let secondary = addresses.filter { $0.family != first.family }
            var ordered: [SocketAddress] = []
            for index in 0..<max(primary.count, secondary.count) {
                if index < primary.count { ordered.append(primary[index]) }
                if index < secondary.count { ordered.append(secondary[index]) }
            }
            return ordered
        }
    }

    /// Carries a loop-confined value through a Dispatch hop back to its loop.
    struct UncheckedBox<Value>: @unchecked Sendable {
        let value: Value
        init(_ value: Value) { self.value = value }
    }
#endif
