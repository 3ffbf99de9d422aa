import Foundation
import Glibc
import TetherSync

/// Reads a terminal's input on a thread of its own and yields decoded keys.
///
/// The thread blocks in `poll` on the input and on a wake-up pipe. After 30 ms with no new bytes while the
/// ``KeyDecoder`` holds an incomplete sequence, it flushes the decoder, so a lone Escape arrives as
/// ``Key/escape``. It ends, finishing the stream, on end of file, on a read error (the other end of a
/// pseudo-terminal closed) or when ``stop()`` is called.
final class KeyReader: Sendable {
    /// How long the reader waits for the rest of a sequence before flushing.
    static let escapeDelayMilliseconds: Int32 = 30

    private let input: Int32
    private let continuation: AsyncStream<Key>.Continuation
    /// The wake-up pipe; both ends are closed by the thread when it ends.
    private let wake: (read: Int32, write: Int32)
    /// Whether the thread has ended (and closed the pipe), or was asked to.
    private let lifecycle = Locked((stopping: false, ended: false))

    init(input: Int32, continuation: AsyncStream<Key>.Continuation) throws(TerminalError) {
        var ends: [Int32] = [0, 0]
        guard pipe(&ends) == 0 else {
            throw TerminalError(.systemCallFailed, "pipe() failed for the key reader", systemError: errno)
        }
        _ = fcntl(ends[0], F_SETFD, FD_CLOEXEC)
        _ = fcntl(ends[1], F_SETFD, FD_CLOEXEC)
        self.input = input
        self.continuation = continuation
        self.wake = (ends[0], ends[1])
    }

    /// Starts the reading thread.
    func start() {
        let thread = Thread { [self] in run() }
        thread.name = "TetherTerminal.keys"
        thread.start()
    }

    /// Asks the thread to end; it finishes the stream. Idempotent.
    func stop() {
        lifecycle.withLock { state in
            guard !state.stopping, !state.ended else { return }
            state.stopping = true
            var byte: UInt8 = 1
            _ = Glibc.write(wake.write, &byte, 1)
        }
    }

    private func run() {
        var decoder = KeyDecoder()
        var buffer = [UInt8](repeating: 0, count: 4096)
        var descriptors = [
            pollfd(fd: input, events: Int16(POLLIN), revents: 0),
            pollfd(fd: wake.read, events: Int16(POLLIN), revents: 0),
        ]
        reading: while true {
            descriptors[0].revents = 0
            descriptors[1].revents = 0
            let timeout = decoder.hasIncompleteInput ? Self.escapeDelayMilliseconds : -1
            let ready = poll(&descriptors, 2, timeout)
            if ready < 0 {
                if errno == EINTR { continue }
                break
            }
            if ready == 0 {
                yield(decoder.flush())
                continue
            }
            if descriptors[1].revents != 0 { break }
            let events = descriptors[0].revents
            if events & Int16(POLLNVAL) != 0 { break }
            guard events & Int16(POLLIN | POLLHUP | POLLERR) != 0 else { continue }
            let count = read(input, &buffer, buffer.count)
            switch count {
            case 1...:
                yield(decoder.decode(buffer[0..<count]))
            case 0:
                break reading
            default:
                if errno == EINTR || errno == EAGAIN { continue }
                break reading
            }
        }
        yield(decoder.flush())
        continuation.finish()
        lifecycle.withLock { state in
            state.ended = true
            close(wake.read)
            close(wake.write)
        }
    }

    private func yield(_ keys: [Key]) {
        for key in keys { continuation.yield(key) }
    }
}
