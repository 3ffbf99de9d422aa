#if os(Linux)
    /// Receives what happens on a ``Channel``; called on the channel's event loop only.
    ///
    /// Shaped like SwiftNIO's inbound handler, reduced to what a connection needs: bytes in, the end, and room to
    /// write again.
    public protocol ChannelHandler: AnyObject {
        /// Bytes arrived. `bytes` is valid only during the call (it is the loop's shared read buffer).
        func channelRead(_ channel: Channel, _ bytes: UnsafeRawBufferPointer)

        /// The channel closed: by the peer (`error` is `nil` for an orderly close, ``IOError/Code/connectionReset``
        /// for a reset) or by ``Channel/close(_:)`` (the error given there). Called once; the handler is released
        /// afterwards.
        func channelInactive(_ channel: Channel, error: IOError?)

        /// Every byte written has gone to the socket after some had to wait for it (``Channel/pendingWriteBytes``
        /// fell to zero): a writer holding more can write it now. Not called for writes the socket took at once.
        /// Does nothing by default.
        func channelWritable(_ channel: Channel)
    }

    extension ChannelHandler {
        public func channelWritable(_ channel: Channel) {}
    }
#endif
