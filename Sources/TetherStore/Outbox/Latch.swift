import TetherSync

/// A one-time signal that a step of a write is over (saved in the outbox: `EntityState.saveGate`; its outcome
/// applied: `saveChain`), so that the entity's next write can take that step after it: ``wait()`` returns once
/// ``open()`` has been called, at once if it has already been.
///
/// - Thread safety: `Sendable`; `open()` may be called from any thread (the database's, right after the commit).
final class SaveGate: Sendable {
    private let state = Locked<(isOpen: Bool, waiters: [CheckedContinuation<Void, Never>])>((false, []))

    /// Opens the gate and wakes every waiter; later calls do nothing.
    func open() {
        let waiters = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            guard !state.isOpen else { return [] }
            state.isOpen = true
            defer { state.waiters = [] }
            return state.waiters
        }
        for waiter in waiters { waiter.resume() }
    }

    /// Whether the gate is open.
    var isOpen: Bool { state.withLock { $0.isOpen } }

    /// Returns once the gate is open. Runs on the caller's executor: an open gate costs no hop (a caller on the main
    /// actor stays there).
    nonisolated(nonsending) func wait() async {
        if isOpen { return }
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let isOpen = state.withLock { state -> Bool in
                if state.isOpen { return true }
                state.waiters.append(continuation)
                return false
            }
            if isOpen { continuation.resume() }
        }
    }
}
