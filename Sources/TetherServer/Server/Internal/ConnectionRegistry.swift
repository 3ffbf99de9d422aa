import TetherSync

/// The open connections of one server, for the connection limit and for shutdown.
///
/// Owns the descriptors: a connection's socket is closed by ``remove(_:)`` under the lock, so `drain` and
/// `forceClose` never touch a descriptor number that was closed and reused.
///
/// - Thread safety: every method may be called from any thread.
final class ConnectionRegistry: Sendable {
    private struct Entry {
        let socket: Socket
        var isIdle = false
        var abandonWork: (@Sendable () -> Void)?
    }

    private struct State {
        var entries: [Int: Entry] = [:]
        var nextID = 0
        var isDraining = false
        var isForced = false
    }

    private let state = Locked(State())

    /// The number of open connections.
    var count: Int { state.withLock { $0.entries.count } }

    var isDraining: Bool { state.withLock { $0.isDraining } }

    /// Registers an accepted socket; `nil` (and the socket closed) when the server is shutting down.
    func add(_ socket: Socket) -> Int? {
        let id: Int? = state.withLock { state in
            guard !state.isDraining else { return nil }
            state.nextID += 1
            state.entries[state.nextID] = Entry(socket: socket)
            return state.nextID
        }
        if id == nil { socket.close() }
        return id
    }

    /// Records that connection `id` waits for a new request; `false` when the server is draining and the
    /// connection should close instead.
    func markIdle(_ id: Int) -> Bool {
        state.withLock { state in
            if state.isDraining { return false }
            state.entries[id]?.isIdle = true
            return true
        }
    }

    /// Records that connection `id` has started reading a request.
    func markBusy(_ id: Int) {
        state.withLock { $0.entries[id]?.isIdle = false }
    }

    /// Records work (a responder task) that a forced close must abandon; `false` when the close already happened,
    /// in which case `abandon` has been called.
    func beginWork(_ id: Int, abandon: @escaping @Sendable () -> Void) -> Bool {
        let accepted = state.withLock { state in
            guard !state.isForced, state.entries[id] != nil else { return false }
            state.entries[id]?.abandonWork = abandon
            return true
        }
        if !accepted { abandon() }
        return accepted
    }

    func endWork(_ id: Int) {
        state.withLock { $0.entries[id]?.abandonWork = nil }
    }

    /// Forgets connection `id` and closes its socket.
    func remove(_ id: Int) {
        state.withLock { state in
            if let entry = state.entries.removeValue(forKey: id) { entry.socket.close() }
        }
    }

    /// Starts a graceful shutdown: new connections are refused, idle ones are woken to close, busy ones close
    /// after their current response.
    func drain() {
        state.withLock { state in
            state.isDraining = true
            for entry in state.entries.values where entry.isIdle { entry.socket.shutdown(.both) }
        }
    }

    /// Ends every connection now: sockets are shut down and waiting connection threads are released.
    func forceClose() {
        let work: [@Sendable () -> Void] = state.withLock { state in
            state.isDraining = true
            state.isForced = true
            for entry in state.entries.values { entry.socket.shutdown(.both) }
            return state.entries.values.compactMap(\.abandonWork)
        }
        for abandon in work { abandon() }
    }
}
