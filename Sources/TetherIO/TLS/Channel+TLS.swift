#if os(Linux)
    extension Channel {
        /// Starts TLS on this connected channel: runs `session`'s handshake over the socket, then encrypts what
        /// ``write(_:)`` takes and decrypts what the handler receives.
        ///
        /// `completion` is called once on the loop: with `nil` when the handshake has finished (certificate and pins
        /// checked), else with the error, the channel closed: a certificate error, ``IOError/Code/tlsHandshakeFailed``
        /// (the peer does not speak TLS, refused the handshake, or closed or reset the connection during it),
        /// ``IOError/Code/tlsHandshakeTimeout`` after `timeout`, or the error the channel was closed with meanwhile.
        /// Write nothing before the completion. Loop thread only.
        public func startTLS(_ session: TLSSession, timeout: Duration?, _ completion: @escaping (IOError?) -> Void) {
            assert(eventLoop.inEventLoop)
            guard isActive, tls == nil else {
                completion(IOError(.closedLocally, "TLS cannot start on this channel."))
                return
            }
            tls = session
            onHandshake = completion
            if let timeout {
                handshakeTimer = eventLoop.schedule(in: timeout) { [self] in
                    handshakeTimer = nil
                    close(
                        IOError(
                            .tlsHandshakeTimeout,
                            "The TLS handshake with \(session.serverName ?? "\(remoteAddress)") took longer than \(timeout)."
                        ))
                }
            }
            advanceHandshake(session)
        }

        private func advanceHandshake(_ session: TLSSession) {
            do {
                let done = try session.handshake()
                flushTLS(session)
                guard done, let onHandshake else { return }
                self.onHandshake = nil
                if let handshakeTimer { eventLoop.cancel(handshakeTimer) }
                handshakeTimer = nil
                onHandshake(nil)
            } catch {
                flushTLS(session)  // The alert telling the peer why.
                close(error)
            }
        }

        /// Called by ``close(_:)``: a handshake still running fails with `error`, or with
        /// ``IOError/Code/tlsHandshakeFailed`` when the peer closed or reset the connection.
        func endHandshake(_ error: IOError?) {
            guard let onHandshake else { return }
            self.onHandshake = nil
            if let handshakeTimer { eventLoop.cancel(handshakeTimer) }
            handshakeTimer = nil
            let name = tls?.serverName ?? "\(remoteAddress)"
            switch error?.code {
            case nil, .connectionClosed:
                onHandshake(IOError(.tlsHandshakeFailed, "\(name) closed the connection during the TLS handshake."))
            case .connectionReset:
                onHandshake(IOError(.tlsHandshakeFailed, "\(name) reset the connection during the TLS handshake."))
            default:
                onHandshake(error)
            }
        }

        /// Bytes read from the socket on a TLS channel: the handshake goes on, or application bytes go to the
        /// handler.
        func readEncrypted(_ bytes: UnsafeRawBufferPointer, _ session: TLSSession) {
            session.receive(bytes)  // Copied: the loop's read buffer is free again.
            if !session.isHandshakeComplete {
                advanceHandshake(session)
                guard !closed, session.isHandshakeComplete else { return }
            }
            let buffer = eventLoop.readBuffer
            while !closed {
                let result: TLSSession.ReadResult
                do {
                    result = try session.read(into: buffer)
                } catch {
                    flushTLS(session)
                    close(error)
                    return
                }
                switch result {
                case .bytes(let count):
                    handler?.channelRead(self, UnsafeRawBufferPointer(rebasing: buffer[0..<count]))
                case .wantsMore:
                    flushTLS(session)  // Whatever reading produced (a key update's answer).
                    return
                case .closed:
                    close(nil)
                    return
                }
            }
        }

        func writeEncrypted(_ bytes: [UInt8], _ session: TLSSession) {
            guard session.isHandshakeComplete else {
                close(IOError(.tlsFailure, "Bytes were written before the TLS handshake finished."))
                return
            }
            do {
                try bytes.withUnsafeBytes { raw in try session.write(raw) }
            } catch {
                close(error as? IOError ?? IOError(.tlsFailure, "TLS failed: \(error)."))
                return
            }
            flushTLS(session)
        }

        private func flushTLS(_ session: TLSSession) {
            if session.hasOutput { writeToSocket(session.takeOutput()) }
        }
    }
#endif
