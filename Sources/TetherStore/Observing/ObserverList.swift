/// Closures to call on every change of a state, keyed by token.
@MainActor
struct ObserverList<Value> {
    private var observers: [(id: UInt64, call: @MainActor (Value) -> Void)] = []

    var isEmpty: Bool { observers.isEmpty }
    var count: Int { observers.count }

    mutating func add(id: UInt64, _ call: @escaping @MainActor (Value) -> Void) {
        observers.append((id, call))
    }

    mutating func remove(id: UInt64) {
        observers.removeAll { $0.id == id }
    }

    /// Calls every observer in the order they were added.
    ///
    /// - Complexity: O(n) in the number of observers.
    func notify(_ value: Value) {
        for observer in observers { observer.call(value) }
    }
}

/// Keeps an observation alive; ``cancel()`` (or releasing the token) ends it.
///
/// Returned by `observe` on ``QueryState`` and ``EntityState``. Tokens are not Sendable: use and release them on the
/// main actor.
@MainActor
public final class ObservationToken {
    private var onCancel: (@MainActor () -> Void)?

    init(onCancel: @escaping @MainActor () -> Void) {
        self.onCancel = onCancel
    }

    /// Ends the observation; further changes are not reported. Calling it again does nothing.
    public func cancel() {
        onCancel?()
        onCancel = nil
    }

    isolated deinit {
        onCancel?()
    }
}

@MainActor
var nextObserverID: UInt64 = 0

@MainActor
func makeObserverID() -> UInt64 {
    nextObserverID += 1
    return nextObserverID
}
