#if os(Linux)
    import TetherIO

    /// A connection's TLS session over its blocking socket (HTTPS): TetherIO's memory-buffer ``TLSSession``, whose
    /// output this moves to the socket and whose input it reads from there, so the connection's code reads and
    /// writes plain bytes through ``Socket/send(_:_:)`` and ``Socket/receive(into:)`` as before.
    ///
    /// - Thread safety: used by the connection's thread only (the registry only shuts the descriptor down).
    final class TLSStream: @unchecked Sendable {
        private let session: TLSSession

        init(session: TLSSession) {
            self.session = session
        }

        /// Runs the server side of the handshake; `false` when it failed, the client left or the socket's receive
        /// timeout passed.
        func handshake(over socket: Socket, buffer: UnsafeMutableRawBufferPointer) -> Bool {
            while true {
                let done: Bool
                do {
                    done = try session.handshake()
                } catch {
                    _ = flush(socket)  // The alert telling the client why.
                    return false
                }
                guard flush(socket) else { return false }
                if done { return true }
                guard case .bytes(let count) = socket.receiveRaw(into: buffer) else { return false }
                session.receive(UnsafeRawBufferPointer(rebasing: buffer[0..<count]))
            }
        }

        /// Encrypts and sends `first` then `second`; `false` when the peer is gone or the send timed out.
        func send(_ first: UnsafeRawBufferPointer, _ second: UnsafeRawBufferPointer, over socket: Socket) -> Bool {
            do {
                try session.write(first)
                try session.write(second)
            } catch {
                return false
            }
            return flush(socket)
        }

        /// Decrypted bytes into `buffer`, receiving from the socket as records need.
        func receive(into buffer: UnsafeMutableRawBufferPointer, over socket: Socket) -> Socket.ReceiveResult {
            while true {
                let result: TLSSession.ReadResult
                do {
                    result = try session.read(into: buffer)
                } catch {
                    return .failed
                }
                switch result {
                case .bytes(let count): return .bytes(count)
                case .closed: return .closed
                case .wantsMore:
                    guard flush(socket) else { return .failed }
                    let received = socket.receiveRaw(into: buffer)
                    guard case .bytes(let count) = received else { return received }
                    session.receive(UnsafeRawBufferPointer(rebasing: buffer[0..<count]))
                }
            }
        }

        /// Sends `close_notify`, before the connection shuts its sending side.
        func close(over socket: Socket) {
            session.close()
            _ = flush(socket)
        }

        private func flush(_ socket: Socket) -> Bool {
            guard session.hasOutput else { return true }
            let bytes = session.takeOutput()
            return bytes.withUnsafeBytes { socket.sendRaw($0, UnsafeRawBufferPointer(start: nil, count: 0)) }
        }
    }
#endif
