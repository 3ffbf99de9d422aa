import Dispatch
import Foundation

/// The rows of a large page, made in parts by worker threads and taken in order by the transaction that writes
/// them, so that encoding and writing overlap.
///
/// - Thread safety: `Sendable`; the parts are behind a condition lock. Each worker runs on a serial dispatch queue
///   of its own, which gets a thread of its own even when every thread of the concurrency pool and of the global
///   queues is blocked (say on the database's lock, which the writer waiting in ``take(_:)`` holds): the workers
///   can always finish, so the writer never waits for ever.
final class EncodedParts: @unchecked Sendable {
    /// The number of parts.
    let count: Int
    private let condition = NSCondition()
    private var parts: [[EntityRow]?]
    private var nextToMake = 0

    init(count: Int) {
        self.count = count
        parts = Array(repeating: nil, count: count)
    }

    /// Starts `workers` threads that make the parts in order, each with `make`; every part is made exactly once.
    func start(workers: Int, make: @escaping @Sendable (Int) -> [EntityRow]) {
        for worker in 0..<max(1, min(workers, count)) {
            DispatchQueue(label: "tether.store.encoding.\(worker)", qos: .userInitiated).async {
                while let index = self.claim() {
                    let rows = make(index)
                    self.condition.lock()
                    self.parts[index] = rows
                    self.condition.broadcast()
                    self.condition.unlock()
                }
            }
        }
    }

    private func claim() -> Int? {
        condition.lock()
        defer { condition.unlock() }
        guard nextToMake < count else { return nil }
        defer { nextToMake += 1 }
        return nextToMake
    }

    /// Part `index`, once made (waiting for it); each part is handed over once and then let go.
    func take(_ index: Int) -> [EntityRow] {
        condition.lock()
        defer { condition.unlock() }
        while parts[index] == nil { condition.wait() }
        defer { parts[index] = [] }
        return parts[index] ?? []
    }
}
