#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#else
    import Darwin
#endif

extension JSONWriter {
    /// The chunk size of the streaming writes when none is given: 64 KiB.
    public static let defaultChunkSize = 65_536

    /// Writes the JSON text of `json` to `output` in chunks, so the memory it takes is bounded by the chunk size,
    /// not by the size of the text.
    ///
    /// The text is the same as ``bytes(_:)``'s, handed to `output` in order, in chunks of at least `chunkSize`
    /// bytes (the last one may be shorter), each a little over `chunkSize`: the writer hands on what it has once
    /// a value brings it to `chunkSize` or more, so a chunk is at most `chunkSize` plus the text of one scalar
    /// value (a string's text is at most six times its UTF-8 bytes, plus two). The buffer behind a chunk is
    /// reused: `output` must copy the bytes it keeps. Nothing is written after `output` throws. Besides the
    /// buffer, the writer keeps the texts of keys that many objects share, at most 1 MB of them, for the length of
    /// the call.
    ///
    /// ```swift
    /// import TetherJSON
    ///
    /// var text: [UInt8] = []
    /// try JSONWriter().write(["a": [1, 2, 3]], chunkSize: 4) { chunk in text.append(contentsOf: chunk) }
    /// // text is the bytes of {"a":[1,2,3]}
    /// ```
    ///
    /// - Parameters:
    ///   - json: The value to write.
    ///   - chunkSize: The size from which the text written so far is handed on; at least 1.
    ///   - output: Takes each chunk, on the caller's thread, before the next one is written.
    /// - Throws: ``JSONError`` with code ``JSONError/Code/invalidValue`` if `json` holds a NaN or infinite number
    ///   (the chunks before it have been written), or the error `output` threw.
    public func write(
        _ json: JSON, chunkSize: Int = JSONWriter.defaultChunkSize,
        to output: (UnsafeRawBufferPointer) throws -> Void
    ) throws {
        let threshold = max(1, chunkSize)
        // Room for a chunk and the scalar that ends it, most of the time; a long string grows it.
        var buffer = ByteBuffer(capacity: min(threshold, 1 << 24) + 1024)
        defer { buffer.deallocate() }
        var failure: (any Error)?
        try withoutActuallyEscaping(output) { output in
            let flush = Flush(threshold: threshold) { buffer in
                do {
                    try output(UnsafeRawBufferPointer(start: buffer.base, count: buffer.count))
                    buffer.truncate(to: 0)
                    return true
                } catch {
                    failure = error
                    return false
                }
            }
            do {
                try write(json, into: &buffer, flush: flush)
            } catch {
                throw failure ?? error
            }
            if buffer.count > 0 {
                try output(UnsafeRawBufferPointer(start: buffer.base, count: buffer.count))
            }
        }
    }

    /// Writes the JSON text of `json` to an open file descriptor (a file, a pipe, a socket) in chunks of about
    /// `chunkSize` bytes, with memory bounded by the chunk size (see ``write(_:chunkSize:to:)``).
    ///
    /// Each chunk is written whole before the next is made (`write(2)` again after a partial write or an
    /// interruption). The descriptor is neither closed nor flushed to disk; on a non-blocking descriptor that is
    /// not ready, the write fails.
    ///
    /// - Throws: ``JSONError`` with code ``JSONError/Code/invalidValue`` if `json` holds a NaN or infinite number,
    ///   or ``JSONError/Code/outputFailed`` if `write(2)` fails (the message has the `errno` text). The chunks
    ///   before the failure have been written.
    public func write(
        _ json: JSON, toFileDescriptor descriptor: Int32, chunkSize: Int = JSONWriter.defaultChunkSize
    ) throws(JSONError) {
        do {
            try write(json, chunkSize: chunkSize) { chunk in
                guard var next = chunk.baseAddress else { return }
                var left = chunk.count
                while left > 0 {
                    #if canImport(Glibc)
                        let written = Glibc.write(descriptor, next, left)
                    #elseif canImport(Musl)
                        let written = Musl.write(descriptor, next, left)
                    #else
                        let written = Darwin.write(descriptor, next, left)
                    #endif
                    if written < 0 {
                        let code = errno
                        if code == EINTR { continue }
                        throw JSONError(
                            .outputFailed, "write(2) failed: \(String(cString: strerror(code))) (errno \(code))")
                    }
                    // Bounds: write(2) wrote `written` ≤ `left` bytes from `next`.
                    next += written
                    left -= written
                }
            }
        } catch let error as JSONError {
            throw error
        } catch {
            throw JSONError(.outputFailed, "\(error)")
        }
    }
}
