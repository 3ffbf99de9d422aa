import Dispatch

/// Carries values from an async task to a connection thread that waits for them: a response, or the chunks of a
/// streamed body.
///
/// The producer (`push`, `finish`) runs on the Swift concurrency pool and never blocks; the consumer (`next`)
/// blocks its own OS thread. `abandon` wakes a waiting consumer for good, which is how a forced shutdown frees a
/// connection thread whose responder is still running.
final class Handoff<Value: Sendable>: @unchecked Sendable {
    private struct State {
        var values: [Value] = []
        var head = 0
        var finished = false
        var abandoned = false
    }

    private let state = Locked(State())
    private let signal: DispatchSemaphore

    /// A handoff that signals `signal` (by default its own) when a value arrives, it finishes or is abandoned.
    init(signal: DispatchSemaphore = DispatchSemaphore(value: 0)) {
        self.signal = signal
    }

    /// Adds a value for the consumer; ignored once abandoned.
    func push(_ value: Value) {
        let accepted = state.withLock { state in
            guard !state.abandoned, !state.finished else { return false }
            state.values.append(value)
            return true
        }
        if accepted { signal.signal() }
    }

    /// Ends the sequence: `next()` returns `nil` after the values already pushed.
    func finish() {
        let changed = state.withLock { state in
            guard !state.finished else { return false }
            state.finished = true
            return true
        }
        if changed { signal.signal() }
    }

    /// Drops everything and makes `next()` return `nil` from now on.
    func abandon() {
        state.withLock { state in
            state.abandoned = true
            state.values = []
            state.head = 0
        }
        signal.signal()
    }

    /// Whether ``abandon()`` was called.
    var wasAbandoned: Bool { state.withLock { $0.abandoned } }

    /// The next value, blocking until one is pushed; `nil` when finished or abandoned.
    func next() -> Value? {
        while true {
            if let outcome = poll() { return outcome }
            signal.wait()
        }
    }

    /// The next value without waiting: `.some(value)`, `.some(nil)` when finished or abandoned, `nil` when the
    /// consumer has to wait.
    func poll() -> Value?? {
        state.withLock { state in
            if state.abandoned { return .some(nil) }
            if state.head < state.values.count {
                let value = state.values[state.head]
                state.head += 1
                if state.head == state.values.count {
                    state.values.removeAll(keepingCapacity: true)
                    state.head = 0
                }
                return .some(value)
            }
            if state.finished { return .some(nil) }
            return .none
        }
    }
}
