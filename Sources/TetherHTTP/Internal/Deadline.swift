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
func withDeadline<Value: Sendable>(
    _ limit: Duration, operation: @escaping @Sendable () async throws -> Value
) async throws -> Value {
    try await withThrowingTaskGroup(of: Value?.self) { group in
        group.addTask { try await operation() }
        group.addTask {
            try await Task.sleep(for: limit)
            return nil
        }
        defer { group.cancelAll() }
        guard let first = try await group.next(), let value = first else { throw DeadlineExceeded() }
        return value
    }
}
