import Dispatch
import TetherSync

/// Carries values from an async task to a connection thread that waits for them: a response, or the chunks of a
/// streamed body.
///
/// The producer (`push`, `send`, `finish`) runs as a task and never blocks a thread; the consumer (`next`,
/// `poll`) runs on its own OS thread. `abandon` wakes a waiting consumer for good, which is how a forced shutdown
/// frees a connection thread whose responder is still running.
///
/// Backpressure: a handoff made with a `capacity` counts the cost of the values not yet taken (for body chunks,
/// their bytes), and ``send(_:)`` suspends the producer while that exceeds the capacity, until the consumer takes
/// enough. So at most `capacity` plus one value wait here, however slowly the consumer (a socket to a slow
/// client) drains them.
final class Handoff<Value: Sendable>: @unchecked Sendable {
    private struct State {
        var values: [Value] = []
        var head = 0
        var finished = false
        var abandoned = false
        /// The summed cost of `values[head...]`.
        var pendingCost = 0
        /// A producer suspended in ``send(_:)`` until the pending cost falls to the capacity.
        var waitingProducer: CheckedContinuation<Void, Never>?
    }

    private let state = Locked(State())
    private let signal: DispatchSemaphore
    private let capacity: Int
    private let cost: @Sendable (Value) -> Int

    /// A handoff that signals `signal` (by default its own) when a value arrives, it finishes or is abandoned.
    ///
    /// - Parameters:
    ///   - capacity: the pending cost above which ``send(_:)`` waits; unbounded by default.
    ///   - cost: the cost of one value; 1 by default.
    init(
        signal: DispatchSemaphore = DispatchSemaphore(value: 0), capacity: Int = .max,
        cost: @escaping @Sendable (Value) -> Int = { _ in 1 }
    ) {
        self.signal = signal
        self.capacity = capacity
        self.cost = cost
    }

    /// Adds a value for the consumer, whatever is pending; ignored once finished or abandoned.
    func push(_ value: Value) {
        let cost = capacity == .max ? 0 : cost(value)
        let accepted = state.withLock { state in
            guard !state.abandoned, !state.finished else { return false }
            state.values.append(value)
            state.pendingCost += cost
            return true
        }
        if accepted { signal.signal() }
    }

    /// Adds a value, then waits while the pending cost exceeds the capacity (returns at once when the handoff is
    /// abandoned, so an abandoned producer is never left suspended).
    func send(_ value: Value) async {
        push(value)
        guard state.withLock({ !$0.abandoned && $0.pendingCost > capacity }) else { return }
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let resumeNow = state.withLock { state in
                guard !state.abandoned, state.pendingCost > capacity else { return true }
                state.waitingProducer = continuation
                return false
            }
            if resumeNow { continuation.resume() }
        }
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

    /// Drops everything and makes `next()` return `nil` from now on; a producer waiting in ``send(_:)`` resumes.
    func abandon() {
        let producer = state.withLock { state in
            state.abandoned = true
            state.values = []
            state.head = 0
            state.pendingCost = 0
            defer { state.waitingProducer = nil }
            return state.waitingProducer
        }
        signal.signal()
        producer?.resume()
    }

    /// Whether ``abandon()`` was called.
    var wasAbandoned: Bool { state.withLock { $0.abandoned } }

    /// The summed cost of the values pushed and not yet taken.
    var pendingCost: Int { state.withLock { $0.pendingCost } }

    /// The next value, blocking until one is pushed; `nil` when finished or abandoned.
    func next() -> Value? {
        while true {
            if let outcome = poll() { return outcome }
            signal.wait()
        }
    }

    /// The next value without waiting: `.some(value)`, `.some(nil)` when finished or abandoned, `nil` when the
    /// consumer has to wait. Taking a value may resume a producer waiting in ``send(_:)``.
    func poll() -> Value?? {
        let (outcome, producer) = state.withLock { state -> (Value??, CheckedContinuation<Void, Never>?) in
            if state.abandoned { return (.some(nil), nil) }
            if state.head < state.values.count {
                let value = state.values[state.head]
                state.head += 1
                if state.head == state.values.count {
                    state.values.removeAll(keepingCapacity: true)
                    state.head = 0
                }
                if capacity != .max { state.pendingCost -= cost(value) }
                var producer: CheckedContinuation<Void, Never>?
                if state.pendingCost <= capacity {
                    producer = state.waitingProducer
                    state.waitingProducer = nil
                }
                return (.some(value), producer)
            }
            if state.finished { return (.some(nil), nil) }
            return (.none, nil)
        }
        producer?.resume()
        return outcome
    }
}
