#if os(Linux)
    import CEpoll
    import Glibc

    /// A non-blocking TCP connection registered with an ``EventLoop``: bytes written go out as the socket takes
    /// them, bytes read go to the ``handler``.
    ///
    /// Made by ``ClientBootstrap`` (connecting) or by a ``ServerChannel`` (accepted). Confined to its loop: every
    /// member is used on ``eventLoop``'s thread only.
    /// Writes never raise `SIGPIPE` (`MSG_NOSIGNAL`). After ``startTLS(_:timeout:_:)`` the channel speaks TLS:
    /// ``write(_:)`` takes and the handler receives application bytes, encrypted and decrypted on the way.
    public final class Channel: @unchecked Sendable, EventSource {
        public let eventLoop: EventLoop
        /// The peer's address: the one connected to, or the client's for an accepted connection.
        public let remoteAddress: SocketAddress
        /// Receives reads and the close; released once the channel is inactive.
        public var handler: (any ChannelHandler)?
        /// Whether the socket is connected and not closed.
        public private(set) var isActive = false
        /// Bytes read and written on the socket so far (with TLS: records, handshake included).
        public internal(set) var bytesRead = 0
        public internal(set) var bytesWritten = 0

        let fd: Int32
        private var registration: UInt64?
        private var pending: [UInt8] = []
        private var pendingOffset = 0
        private var watchingWrites = false
        /// The events the loop watches for now.
        private var watchedEvents: UInt32 = 0
        private(set) var closed = false

        // TLS (see Channel+TLS.swift).
        var tls: TLSSession?
        /// While the TLS handshake runs: called once with the outcome.
        var onHandshake: ((IOError?) -> Void)?
        var handshakeTimer: EventLoop.Scheduled?
        /// While connecting: called once with the outcome.
        private var onConnect: ((IOError?) -> Void)?

        private init(eventLoop: EventLoop, fd: Int32, address: SocketAddress) {
            self.eventLoop = eventLoop
            self.fd = fd
            self.remoteAddress = address
        }

        /// Starts a non-blocking connection to `address`; `completion` gets `nil` once it is made, or the error.
        static func connect(
            to address: SocketAddress, on loop: EventLoop, _ completion: @escaping (IOError?) -> Void
        ) -> Channel? {
            let type = Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue)
            let fd = socket(address.family, type, 0)
            if fd < 0 {
                completion(IOError(.systemCall, errno: errno, "socket() failed: \(Channel.describe(errno))"))
                return nil
            }
            var one: Int32 = 1
            setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
            let channel = Channel(eventLoop: loop, fd: fd, address: address)
            let result = address.withSockaddr { Glibc.connect(fd, $0, $1) }
            if result != 0 && errno != EINPROGRESS {
                let code = errno
                Glibc.close(fd)
                completion(Channel.connectError(code, address))
                return nil
            }
            guard let id = loop.register(channel, fd: fd, events: EPOLLOUT.rawValue) else {
                let code = errno
                Glibc.close(fd)
                completion(IOError(.systemCall, errno: code, "epoll_ctl failed: \(Channel.describe(code))"))
                return nil
            }
            channel.registration = id
            channel.onConnect = completion
            return channel
        }

        /// Wraps a connection accepted by a ``ServerChannel`` (non-blocking, close-on-exec) and registers it with
        /// `loop` for reads; `nil` (the descriptor closed) when the loop refuses it. Loop thread only.
        static func accepted(fd: Int32, address: SocketAddress, on loop: EventLoop) -> Channel? {
            var one: Int32 = 1
            setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
            let channel = Channel(eventLoop: loop, fd: fd, address: address)
            guard let id = loop.register(channel, fd: fd, events: EPOLLIN.rawValue) else {
                Glibc.close(fd)
                return nil
            }
            channel.registration = id
            channel.watchedEvents = EPOLLIN.rawValue
            channel.isActive = true
            return channel
        }

        /// The bytes written and not yet taken by the socket (with TLS: encrypted bytes). A writer that respects
        /// backpressure writes more only while this is small, and otherwise waits for
        /// ``ChannelHandler/channelWritable(_:)``.
        public var pendingWriteBytes: Int { pending.count - pendingOffset }

        /// While `true` the channel reads nothing from its socket (the bytes wait in the kernel, and the peer is
        /// eventually slowed down by TCP); a close by the peer is noticed only once reading resumes. `false` by
        /// default.
        public var isReadingPaused = false {
            didSet { if oldValue != isReadingPaused { updateInterest() } }
        }

        /// Ends the sending side (`shutdown(SHUT_WR)`): the peer reads an end of stream once the bytes queued
        /// before have gone out, while this side can still read. Call it once ``isFlushed`` is true. Not for TLS
        /// channels, whose end is ``close(_:)`` (it sends `close_notify`).
        public func shutdownOutput() {
            assert(eventLoop.inEventLoop)
            guard isActive else { return }
            _ = Glibc.shutdown(fd, Int32(SHUT_WR))
        }

        /// Makes the next ``close(_:)`` reset the connection (`SO_LINGER` with a zero timeout): the peer gets
        /// `ECONNRESET` instead of an end of stream, and unsent bytes are dropped.
        public func setResetOnClose() {
            assert(eventLoop.inEventLoop)
            guard isActive else { return }
            var linger = Glibc.linger(l_onoff: 1, l_linger: 0)
            setsockopt(fd, SOL_SOCKET, SO_LINGER, &linger, socklen_t(MemoryLayout<Glibc.linger>.size))
        }

        /// Queues `bytes` and writes as much as the socket takes now; the rest goes when it is writable again.
        /// Ignored once the channel is closed.
        public func write(_ bytes: [UInt8]) {
            assert(eventLoop.inEventLoop)
            guard isActive, !bytes.isEmpty else { return }
            if let tls {
                writeEncrypted(bytes, tls)
                return
            }
            writeToSocket(bytes)
        }

        /// Queues `bytes` as they are (with TLS: records already encrypted) and writes what the socket takes now.
        func writeToSocket(_ bytes: [UInt8]) {
            guard isActive, !bytes.isEmpty else { return }
            if pendingOffset == pending.count {
                pending = bytes
                pendingOffset = 0
            } else {
                pending.append(contentsOf: bytes)
            }
            flush()
        }

        /// Whether every byte written has gone to the socket.
        public var isFlushed: Bool { pendingOffset == pending.count }

        /// Closes the socket now and tells the handler (once) with `error`. A channel still connecting reports
        /// `error` (or ``IOError/Code/closedLocally``) to its connect completion instead, and one in its TLS
        /// handshake to the handshake's completion (``IOError/Code/tlsHandshakeFailed`` when `error` is `nil`).
        /// A TLS channel closed by this side sends `close_notify` first, as far as the socket takes it at once.
        public func close(_ error: IOError? = nil) {
            assert(eventLoop.inEventLoop)
            guard !closed else { return }
            if isActive, error == nil || error?.code == .closedLocally { sendCloseNotify() }
            closed = true
            isActive = false
            if let registration { eventLoop.deregister(registration, fd: fd) }
            registration = nil
            Glibc.close(fd)
            pending = []
            pendingOffset = 0
            if let onConnect {
                self.onConnect = nil
                onConnect(error ?? IOError(.closedLocally, "The connection attempt was abandoned."))
            }
            endHandshake(error)
            let handler = self.handler
            self.handler = nil
            handler?.channelInactive(self, error: error)
        }

        // MARK: - Events

        func handle(events: UInt32) {
            if onConnect != nil {
                finishConnect()
                return
            }
            if events & (EPOLLIN.rawValue | EPOLLHUP.rawValue | EPOLLERR.rawValue) != 0 { readOnce() }
            if !closed && events & EPOLLOUT.rawValue != 0 { flush() }
        }

        private func finishConnect() {
            var error: Int32 = 0
            var length = socklen_t(MemoryLayout<Int32>.size)
            getsockopt(fd, SOL_SOCKET, SO_ERROR, &error, &length)
            guard let onConnect else { return }
            if error != 0 {
                self.onConnect = nil
                close()
                onConnect(Channel.connectError(error, remoteAddress))
                return
            }
            self.onConnect = nil
            isActive = true
            if let registration { eventLoop.modify(registration, fd: fd, events: EPOLLIN.rawValue) }
            watchedEvents = EPOLLIN.rawValue
            onConnect(nil)
        }

        private func readOnce() {
            let buffer = eventLoop.readBuffer
            let count = read(fd, buffer.baseAddress, buffer.count)
            if count > 0 {
                bytesRead += count
                if let tls {
                    readEncrypted(UnsafeRawBufferPointer(rebasing: buffer[0..<count]), tls)
                } else {
                    handler?.channelRead(self, UnsafeRawBufferPointer(rebasing: buffer[0..<count]))
                }
            } else if count == 0 {
                close(nil)
            } else if errno != EAGAIN && errno != EINTR {
                let code = errno
                close(
                    code == ECONNRESET
                        ? IOError(.connectionReset, errno: code, "The server reset the connection.")
                        : IOError(.systemCall, errno: code, "read() failed: \(Channel.describe(code))"))
            }
        }

        private func flush() {
            while pendingOffset < pending.count {
                let count = pending.withUnsafeBytes { bytes in
                    send(fd, bytes.baseAddress! + pendingOffset, bytes.count - pendingOffset, Int32(MSG_NOSIGNAL))
                }
                if count > 0 {
                    pendingOffset += count
                    bytesWritten += count
                } else if count < 0 && errno == EINTR {
                    continue
                } else if count < 0 && errno == EAGAIN {
                    break
                } else {
                    let code = errno
                    close(
                        code == ECONNRESET || code == EPIPE
                            ? IOError(.connectionReset, errno: code, "The server closed the connection.")
                            : IOError(.systemCall, errno: code, "send() failed: \(Channel.describe(code))"))
                    return
                }
            }
            let wantsWrites = pendingOffset < pending.count
            let wasWaiting = watchingWrites
            if wantsWrites != watchingWrites {
                watchingWrites = wantsWrites
                updateInterest()
            }
            if !wantsWrites {
                pending.removeAll(keepingCapacity: pending.capacity <= 64 * 1024)
                pendingOffset = 0
                if wasWaiting { handler?.channelWritable(self) }
            }
        }

        /// Tells the loop what to watch for: reads unless paused, writes while bytes wait.
        private func updateInterest() {
            guard let registration else { return }
            let events = (isReadingPaused ? 0 : EPOLLIN.rawValue) | (watchingWrites ? EPOLLOUT.rawValue : 0)
            guard events != watchedEvents else { return }
            watchedEvents = events
            eventLoop.modify(registration, fd: fd, events: events)
        }

        /// Sends a TLS channel's `close_notify` with one non-blocking send, when nothing else waits to go out.
        private func sendCloseNotify() {
            guard let tls, tls.isHandshakeComplete, pendingOffset == pending.count else { return }
            tls.close()
            let alert = tls.takeOutput()
            guard !alert.isEmpty else { return }
            _ = alert.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        }

        static func connectError(_ code: Int32, _ address: SocketAddress) -> IOError {
            IOError(.connectionFailed, errno: code, "Cannot connect to \(address): \(describe(code)).")
        }

        static func describe(_ code: Int32) -> String {
            String(cString: strerror(code))
        }
    }
#endif
