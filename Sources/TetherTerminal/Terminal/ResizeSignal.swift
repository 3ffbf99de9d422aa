import Foundation
import Glibc
import TetherSync

/// Delivers SIGWINCH to the sessions that asked for resizes.
///
/// The first subscriber installs a SIGWINCH handler that writes one byte to a pipe (all a handler may safely do),
/// and starts a thread that reads the pipe and calls every subscriber. Subscribers are called on that thread.
enum ResizeSignal {
    private struct State {
        var subscribers: [Int: @Sendable () -> Void] = [:]
        var nextID = 0
        var started = false
    }

    private static let state = Locked(State())

    /// The pipe the handler writes to: read end, write end. Created before the handler is installed.
    nonisolated(unsafe) private static var pipeEnds: (read: Int32, write: Int32) = (-1, -1)

    /// Calls `handler` on every SIGWINCH until ``unsubscribe(_:)``; returns the subscription's id.
    static func subscribe(_ handler: @escaping @Sendable () -> Void) throws(TerminalError) -> Int {
        let result: Result<Int, TerminalError> = state.withLock { state in
            if !state.started {
                var ends: [Int32] = [0, 0]
                guard pipe(&ends) == 0 else {
                    return .failure(TerminalError(.systemCallFailed, "pipe() failed for SIGWINCH", systemError: errno))
                }
                _ = fcntl(ends[1], F_SETFL, fcntl(ends[1], F_GETFL) | O_NONBLOCK)
                _ = fcntl(ends[0], F_SETFD, FD_CLOEXEC)
                _ = fcntl(ends[1], F_SETFD, FD_CLOEXEC)
                pipeEnds = (ends[0], ends[1])
                let readEnd = ends[0]
                let thread = Thread { ResizeSignal.run(readingFrom: readEnd) }
                thread.name = "TetherTerminal.resize"
                thread.start()
                var action = sigaction()
                action.__sigaction_handler.sa_handler = { _ in
                    var byte: UInt8 = 1
                    let saved = errno
                    _ = Glibc.write(ResizeSignal.pipeEnds.write, &byte, 1)
                    errno = saved
                }
                sigemptyset(&action.sa_mask)
                action.sa_flags = SA_RESTART
                sigaction(SIGWINCH, &action, nil)
                state.started = true
            }
            let id = state.nextID
            state.nextID += 1
            state.subscribers[id] = handler
            return .success(id)
        }
        return try result.get()
    }

    /// Stops calling the handler of subscription `id`.
    static func unsubscribe(_ id: Int) {
        _ = state.withLock { $0.subscribers.removeValue(forKey: id) }
    }

    /// The thread's loop: one call of every subscriber per burst of signals.
    private static func run(readingFrom fd: Int32) {
        var buffer = [UInt8](repeating: 0, count: 64)
        while true {
            let count = read(fd, &buffer, buffer.count)
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { return }
            let handlers = state.withLock { Array($0.subscribers.values) }
            for handler in handlers { handler() }
        }
    }
}
