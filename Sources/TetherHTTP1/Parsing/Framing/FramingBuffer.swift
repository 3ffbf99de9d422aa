/// The bytes an HTTP/1.1 parser has received and not yet consumed, and the line scanning over them: the part of
/// the framing that ``HTTPRequestParser`` and ``HTTPResponseParser`` share.
///
/// Bytes before ``readIndex`` are consumed; they are dropped when that is cheap relative to what was consumed
/// (amortized linear), at the next ``append(_:)``. A search for a line end resumes where the last one stopped, so a
/// line that arrives a byte at a time is scanned once.
struct FramingBuffer {
    private var bytes: [UInt8] = []
    /// The first byte not yet consumed.
    private(set) var readIndex = 0
    /// Where the search for the next line end resumes (every byte from `readIndex` to here holds no LF).
    private var scanIndex = 0

    /// The bytes received and kept, consumed or not (indices run from 0 to this).
    var count: Int { bytes.count }

    /// The bytes received and not yet consumed.
    var unconsumedCount: Int { bytes.count - readIndex }

    /// Whether every byte received has been consumed.
    var isFullyConsumed: Bool { readIndex == bytes.count }

    subscript(index: Int) -> UInt8 { bytes[index] }

    subscript(range: Range<Int>) -> ArraySlice<UInt8> { bytes[range] }

    subscript(range: PartialRangeFrom<Int>) -> ArraySlice<UInt8> { bytes[range] }

    /// Adds received bytes (after dropping consumed ones when cheap); whether any were added.
    @discardableResult
    mutating func append(_ newBytes: some Sequence<UInt8>) -> Bool {
        compact()
        let before = bytes.count
        bytes.append(contentsOf: newBytes)
        return bytes.count > before
    }

    /// Forgets every byte.
    mutating func reset() {
        bytes = []
        readIndex = 0
        scanIndex = 0
    }

    /// Gives the memory back when every byte has been consumed; the next ``append(_:)`` allocates again.
    mutating func releaseIfConsumed() {
        guard isFullyConsumed, bytes.capacity > 0 else { return }
        reset()
    }

    /// Marks the bytes before `index` consumed.
    mutating func consume(to index: Int) {
        readIndex = index
        if scanIndex < index { scanIndex = index }
    }

    /// The next complete line from ``readIndex``: its content without the line end (LF or CRLF), and the index
    /// after the LF; `nil` when no LF has arrived yet.
    mutating func nextLine() -> (content: Range<Int>, next: Int)? {
        let from = scanIndex
        let found = bytes.withUnsafeBufferPointer { bytes -> Int? in
            var index = from
            while index < bytes.count {
                if bytes[index] == ASCII.lf { return index }
                index += 1
            }
            return nil
        }
        guard let lf = found else {
            scanIndex = bytes.count
            return nil
        }
        var end = lf
        if end > readIndex && bytes[end - 1] == ASCII.cr { end -= 1 }
        scanIndex = lf + 1
        return (readIndex..<end, lf + 1)
    }

    /// The bytes of the unfinished line at ``readIndex``, less a last CR that may start its line end: a line's
    /// complete length (with its line end) will be more, so a limit it exceeds now it will exceed then.
    var pendingLineLength: Int {
        let pending = bytes.count - readIndex
        return pending > 0 && bytes[bytes.count - 1] == ASCII.cr ? pending - 1 : pending
    }

    /// Runs `body` on the bytes in `range`.
    func withBytes<R>(
        _ range: Range<Int>, _ body: (UnsafeBufferPointer<UInt8>) throws(HTTP1Error) -> R
    ) throws(HTTP1Error) -> R {
        try bytes.withUnsafeBufferPointer { bytes throws(HTTP1Error) in
            try body(UnsafeBufferPointer(rebasing: bytes[range]))
        }
    }

    /// Consumes up to `limit` bytes and returns them; `nil` when none is buffered.
    mutating func take(upTo limit: Int) -> [UInt8]? {
        let count = min(unconsumedCount, limit)
        if count == 0 { return nil }
        let taken = Array(bytes[readIndex..<readIndex + count])
        consume(to: readIndex + count)
        return taken
    }

    /// Consumes up to `limit` bytes, appending them to `target`; how many.
    mutating func move(upTo limit: Int, into target: inout [UInt8]) -> Int {
        let count = min(unconsumedCount, limit)
        target.append(contentsOf: bytes[readIndex..<readIndex + count])
        consume(to: readIndex + count)
        return count
    }

    /// Drops consumed bytes when that is cheap relative to what was consumed (amortized linear).
    private mutating func compact() {
        if readIndex == 0 { return }
        if readIndex == bytes.count {
            bytes.removeAll(keepingCapacity: bytes.capacity <= 64 * 1024)
            readIndex = 0
            scanIndex = 0
        } else if readIndex >= 4096 && readIndex >= bytes.count / 2 {
            bytes.removeSubrange(0..<readIndex)
            scanIndex -= readIndex
            readIndex = 0
        }
    }
}
