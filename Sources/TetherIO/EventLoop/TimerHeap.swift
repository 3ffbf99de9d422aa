/// The pending timers of an ``EventLoop``: a binary min-heap of (due time, id), with the actions in a table so a
/// cancelled timer is simply forgotten (its heap entry is skipped when it comes up).
///
/// Confined to the loop's thread.
struct TimerHeap {
    private var heap: [(due: ContinuousClock.Instant, id: UInt64)] = []
    private var actions: [UInt64: () -> Void] = [:]
    private var nextID: UInt64 = 1

    /// Adds `action`, due at `due`; returns its id.
    mutating func insert(_ due: ContinuousClock.Instant, _ action: @escaping () -> Void) -> UInt64 {
        let id = nextID
        nextID += 1
        actions[id] = action
        heap.append((due, id))
        var child = heap.count - 1
        while child > 0 {
            let parent = (child - 1) / 2
            if heap[parent].due <= heap[child].due { break }
            heap.swapAt(parent, child)
            child = parent
        }
        return id
    }

    /// Forgets the timer `id` (nothing happens when it already ran).
    mutating func cancel(_ id: UInt64) {
        actions[id] = nil
    }

    /// When the earliest live timer is due, or `nil` when there is none.
    mutating func earliest() -> ContinuousClock.Instant? {
        while let top = heap.first {
            if actions[top.id] != nil { return top.due }
            removeTop()
        }
        return nil
    }

    /// Removes and returns the actions due at or before `now`, earliest first.
    mutating func popDue(_ now: ContinuousClock.Instant) -> [() -> Void] {
        var due: [() -> Void] = []
        while let top = heap.first, top.due <= now {
            removeTop()
            if let action = actions.removeValue(forKey: top.id) { due.append(action) }
        }
        return due
    }

    private mutating func removeTop() {
        let last = heap.removeLast()
        if heap.isEmpty { return }
        heap[0] = last
        var parent = 0
        while true {
            let left = 2 * parent + 1
            let right = left + 1
            var smallest = parent
            if left < heap.count && heap[left].due < heap[smallest].due { smallest = left }
            if right < heap.count && heap[right].due < heap[smallest].due { smallest = right }
            if smallest == parent { return }
            heap.swapAt(parent, smallest)
            parent = smallest
        }
    }
}
