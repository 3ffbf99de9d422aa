import TetherSync

/// The store's one waiting primitive: a value set once and awaited by any number of tasks. The first ``set(_:)``
/// wins and wakes every waiter; later calls do nothing; a waiter that comes after the value is set gets it at once.
///
/// What the store waits for, each its own latch:
/// - a write's entry is saved (``EntityState/saveGate``), so the entity's next write is saved after it;
/// - a write's outcome is applied (``EntityState/saveChain``), so the entity's next outcome is applied after it;
/// - a chained entry's transaction ended and its send's outcome (``ChainLink``);
/// - the first screen was read from disk (``EntityStore/firstScreenShown``), which the outbox's first turn waits for
///   (at most ``EntityStore/outboxStartDelay``);
/// - the background loop's next turn (``EntityStore/outboxWake``): a new latch for each pass, installed before the
///   pass starts, so a wake-up during the pass is kept for the wait after it.
///
/// - Thread safety: `Sendable`; ``set(_:)`` may be called from any thread (the database's, right after a commit).
final class Latch<Value: Sendable>: Sendable {
    private enum Waiter {
        /// Waits until the value is set.
        case plain(CheckedContinuation<Value, Never>)
        /// Waits until the value is set, its time runs out or its task is cancelled (then gets `nil`).
        case bounded(CheckedContinuation<Value?, Never>)
    }

    /// The value once set, the waiters by number, and the numbers of bounded waiters whose time ran out (or whose task
    /// was cancelled) before they were in place.
    private let state = Locked<
        (value: Value?, isSet: Bool, waiters: [Int: Waiter], nextWaiter: Int, expired: Set<Int>)
    >((nil, false, [:], 0, []))

    init() {}

    /// Sets the value and wakes every waiter; later calls do nothing.
    func set(_ value: Value) {
        let waiters = state.withLock { state -> [Waiter] in
            guard !state.isSet else { return [] }
            state.isSet = true
            state.value = value
            defer { state.waiters = [:] }
            return Array(state.waiters.values)
        }
        for waiter in waiters {
            switch waiter {
            case .plain(let continuation): continuation.resume(returning: value)
            case .bounded(let continuation): continuation.resume(returning: value)
            }
        }
    }

    /// Whether the value is set.
    var isSet: Bool { state.withLock { $0.isSet } }

    /// The value, at once when it is set, else once ``set(_:)`` is called. Runs on the caller's executor: a latch
    /// already set costs no hop (a caller on the main actor stays there). Not ended by cancellation.
    nonisolated(nonsending) func value() async -> Value {
        if let value = current() { return value }
        return await withCheckedContinuation { (continuation: CheckedContinuation<Value, Never>) in
            let value = state.withLock { state -> Value? in
                if state.isSet { return state.value }
                state.waiters[state.nextWaiter] = .plain(continuation)
                state.nextWaiter += 1
                return nil
            }
            if let value { continuation.resume(returning: value) }
        }
    }

    /// The value, once set; `nil` when `timeout` passes first (`nil`: no limit) or the calling task is cancelled.
    nonisolated(nonsending) func value(within timeout: Duration?) async -> Value? {
        if let value = current() { return value }
        let id = state.withLock { state -> Int in
            defer { state.nextWaiter += 1 }
            return state.nextWaiter
        }
        let timer = timeout.map { timeout in
            Task { [weak self] in
                try? await Task.sleep(for: timeout)
                self?.expire(id)
            }
        }
        defer { timer?.cancel() }
        return await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Value?, Never>) in
                let outcome = state.withLock { state -> Value?? in
                    if state.isSet { return .some(state.value) }
                    // Its time ran out, or its task was cancelled, before it was in place.
                    if state.expired.remove(id) != nil { return .some(nil) }
                    state.waiters[id] = .bounded(continuation)
                    return .none
                }
                if let outcome { continuation.resume(returning: outcome) }
            }
        } onCancel: {
            expire(id)
        }
    }

    /// The value when set.
    private func current() -> Value? {
        state.withLock { $0.isSet ? $0.value : nil }
    }

    /// Ends waiter `id` with `nil`, unless the value woke it already; a waiter not yet in place ends as it comes.
    private func expire(_ id: Int) {
        let waiter = state.withLock { state -> Waiter? in
            if let waiter = state.waiters.removeValue(forKey: id) { return waiter }
            if !state.isSet { state.expired.insert(id) }
            return nil
        }
        if case .bounded(let continuation)? = waiter { continuation.resume(returning: nil) }
    }
}
