import Foundation
import Synchronization

/// The deadlines of one `send`: one per attempt, and optionally one for all attempts together.
struct Deadlines: Sendable {
    let perAttempt: Duration
    let total: Duration?
    let start: ContinuousClock.Instant

    /// Time left before the total deadline; `nil` without one.
    var remaining: Duration? {
        total.map { $0 - (ContinuousClock.now - start) }
    }

    /// The limit for the next attempt and the timeout it stands for.
    func nextAttempt() -> (limit: Duration, timeout: HTTPError.Timeout) {
        if let total, let remaining, remaining < perAttempt { return (max(.zero, remaining), .total(total)) }
        return (perAttempt, .request(perAttempt))
    }
}

/// Thrown by ``withDeadline(_:operation:)`` when the limit passes first.
struct DeadlineExceeded: Error {}

/// Runs `operation`, cancelling it and throwing ``DeadlineExceeded`` if it has not finished within `limit`.
///
/// For transports other than ``URLSessionTransport`` (which cancels its own data task at the deadline, see
/// ``HTTPClient/followRedirects(_:_:deadline:)``): the operation runs in a task of its own, started at once on the
/// calling thread (`Task.immediate`), which the shared ``DeadlineMonitor`` cancels when the limit passes; cancelling
/// the caller cancels it too. One monitor thread watches every request in flight, so a request costs a heap
/// insertion and removal rather than a timer of its own.
func withDeadline<Value: Sendable>(
    _ limit: Duration, operation: @escaping @Sendable () async throws -> Value
) async throws -> Value {
    let expired = Atomic<Bool>(false)
    let task = Task.immediate { try await operation() }
    let token = DeadlineMonitor.shared.schedule(at: ContinuousClock.now + limit) {
        expired.store(true, ordering: .sequentiallyConsistent)
        task.cancel()
    }
    defer { DeadlineMonitor.shared.cancel(token) }
    do {
        return try await withTaskCancellationHandler {
            try await task.value
        } onCancel: {
            task.cancel()
        }
    } catch {
        if expired.load(ordering: .sequentiallyConsistent) { throw DeadlineExceeded() }
        throw error
    }
}

/// One thread that fires deadlines: a min-heap of (instant, action), slept on until the earliest is due.
///
/// Thread safety: `schedule` and `cancel` may be called from any thread. Due actions (they cancel a task or a data
/// task) are handed to Dispatch's global queue rather than run on the monitor's thread: cancelling runs cancellation
/// handlers, and URLSession's on Linux wait for its work queue, which must not hold up the other deadlines.
final class DeadlineMonitor: Sendable {
    static let shared = DeadlineMonitor()

    private struct Entry {
        let instant: ContinuousClock.Instant
        let id: UInt64
    }

    private struct State {
        var heap: [Entry] = []
        var actions: [UInt64: @Sendable () -> Void] = [:]
        var nextID: UInt64 = 0
        /// When the thread is set to wake; `nil` while it waits without a limit.
        var wake: ContinuousClock.Instant?
    }

    /// Guards `state` and wakes the thread; one lock for both, so no wake-up is lost.
    private let condition = NSCondition()
    nonisolated(unsafe) private var state = State()

    private init() {
        let thread = Thread { [unowned self] in self.run() }
        thread.name = "tether.deadlines"
        thread.start()
    }

    /// Runs `action` at `instant` unless cancelled first; returns the token for ``cancel(_:)``.
    ///
    /// - Complexity: O(log n) in the deadlines pending.
    func schedule(at instant: ContinuousClock.Instant, action: @escaping @Sendable () -> Void) -> UInt64 {
        condition.lock()
        defer { condition.unlock() }
        state.nextID += 1
        let id = state.nextID
        state.actions[id] = action
        Self.push(Entry(instant: instant, id: id), onto: &state.heap)
        // Cancelled deadlines stay in the heap until they come up; drop them when they outnumber the live ones.
        if state.heap.count > 64 && state.heap.count > 2 * state.actions.count {
            let live = state.heap.filter { state.actions[$0.id] != nil }
            state.heap = []
            for entry in live { Self.push(entry, onto: &state.heap) }
        }
        if state.wake.map({ instant < $0 }) ?? true { condition.signal() }
        return id
    }

    /// Forgets a deadline (its heap entry is dropped lazily).
    func cancel(_ id: UInt64) {
        condition.lock()
        state.actions.removeValue(forKey: id)
        condition.unlock()
    }

    private func run() {
        condition.lock()
        while true {
            var due: [@Sendable () -> Void] = []
            let now = ContinuousClock.now
            while let first = state.heap.first, first.instant <= now || state.actions[first.id] == nil {
                let entry = Self.pop(&state.heap)
                if let action = state.actions.removeValue(forKey: entry.id) { due.append(action) }
            }
            if !due.isEmpty {
                condition.unlock()
                for action in due { DispatchQueue.global().async(execute: action) }
                condition.lock()
                continue
            }
            state.wake = state.heap.first?.instant
            if let next = state.wake {
                _ = condition.wait(until: Date(timeIntervalSinceNow: max(0, (next - now).seconds)))
            } else {
                condition.wait()
            }
        }
    }

    private static func push(_ entry: Entry, onto heap: inout [Entry]) {
        heap.append(entry)
        var child = heap.count - 1
        while child > 0 {
            let parent = (child - 1) / 2
            guard heap[child].instant < heap[parent].instant else { break }
            heap.swapAt(child, parent)
            child = parent
        }
    }

    private static func pop(_ heap: inout [Entry]) -> Entry {
        let top = heap[0]
        let last = heap.removeLast()
        if !heap.isEmpty {
            heap[0] = last
            var parent = 0
            while true {
                let left = 2 * parent + 1
                let right = left + 1
                var smallest = parent
                if left < heap.count && heap[left].instant < heap[smallest].instant { smallest = left }
                if right < heap.count && heap[right].instant < heap[smallest].instant { smallest = right }
                if smallest == parent { break }
                heap.swapAt(parent, smallest)
                parent = smallest
            }
        }
        return top
    }
}
