import TetherSync

/// A one-shot signal between a test and the code it drives: ``wait()`` suspends until ``open()``, and returns at
/// once after it.
///
/// - Thread safety: both methods may be called from any thread or task.
package final class Gate: Sendable {
    private let state = Locked<(isOpen: Bool, waiters: [CheckedContinuation<Void, Never>])>((false, []))

    package init() {}

    /// Opens the gate: every waiter resumes, and later waits return at once.
    package func open() {
        let waiters = state.withLock { state in
            state.isOpen = true
            defer { state.waiters = [] }
            return state.waiters
        }
        for waiter in waiters { waiter.resume() }
    }

    /// Suspends until the gate is open.
    package func wait() async {
        await withCheckedContinuation { continuation in
            let now = state.withLock { state -> Bool in
                if state.isOpen { return true }
                state.waiters.append(continuation)
                return false
            }
            if now { continuation.resume() }
        }
    }
}
