/// The open connections of the event-loop server, in the order they became idle, with no I/O: what the connection
/// limit and shutdown need.
///
/// A connection is idle when it has no request in progress (it has sent nothing yet, or waits between kept-alive
/// requests). At the limit ``admit(_:maximum:)`` takes the connection that has been idle the longest out of the
/// table so that its owner can close it, and admits the new one in its place; only when every connection has a
/// request in progress is the new one refused.
///
/// `Handle` is whatever reaches a connection (its handler, in the server; a number, in tests). Amortized O(1) per
/// operation: idle connections sit in a queue in the order they became idle, and entries made stale by a later
/// change are skipped and dropped when reached (the queue is compacted when it is mostly stale).
struct ConnectionTable<Handle> {
    private struct Entry {
        let handle: Handle
        /// The idle stamp the connection's live queue entry carries, or `nil` when it is busy.
        var idleStamp: UInt64?
    }

    /// The outcome of ``admit(_:maximum:)``.
    enum Admission {
        /// Admitted with this id; `evicted` is the connection taken out to make room, which its owner closes.
        case admitted(id: Int, evicted: Handle?)
        /// Refused: the table is full of connections with a request in progress, or draining.
        case refused
    }

    private var entries: [Int: Entry] = [:]
    private var idleQueue: [(id: Int, stamp: UInt64)] = []
    private var idleHead = 0
    private var nextID = 0
    private var nextStamp: UInt64 = 0
    /// Set by ``drain()``: nothing is admitted any more.
    private(set) var isDraining = false

    /// The number of connections in the table.
    var count: Int { entries.count }

    /// Adds a connection, idle (it has sent nothing yet); at `maximum`, first takes out the longest-idle one.
    mutating func admit(_ handle: Handle, maximum: Int) -> Admission {
        guard !isDraining else { return .refused }
        var evicted: Handle?
        if entries.count >= maximum {
            guard let oldest = takeOldestIdle() else { return .refused }
            evicted = oldest
        }
        nextID += 1
        entries[nextID] = Entry(handle: handle, idleStamp: nil)
        markIdle(nextID)
        return .admitted(id: nextID, evicted: evicted)
    }

    /// Adds a connection without a limit (the old policy's caller checks ``count`` itself).
    mutating func add(_ handle: Handle) -> Int? {
        guard !isDraining else { return nil }
        nextID += 1
        entries[nextID] = Entry(handle: handle, idleStamp: nil)
        markIdle(nextID)
        return nextID
    }

    /// Connection `id` has no request in progress from now on.
    mutating func markIdle(_ id: Int) {
        guard entries[id] != nil, entries[id]?.idleStamp == nil else { return }
        nextStamp += 1
        entries[id]?.idleStamp = nextStamp
        idleQueue.append((id, nextStamp))
        compactIfMostlyStale()
    }

    /// Connection `id` has a request in progress from now on.
    mutating func markBusy(_ id: Int) {
        entries[id]?.idleStamp = nil
    }

    /// Removes connection `id` (it closed).
    mutating func remove(_ id: Int) {
        entries[id] = nil
    }

    /// Stops admitting; returns every connection's handle, for the owner to tell each to drain.
    mutating func drain() -> [Handle] {
        isDraining = true
        return entries.values.map(\.handle)
    }

    /// Every connection's handle.
    var handles: [Handle] { entries.values.map(\.handle) }

    /// Takes the connection idle the longest out of the table; `nil` when none is idle.
    mutating func takeOldestIdle() -> Handle? {
        while idleHead < idleQueue.count {
            let (id, stamp) = idleQueue[idleHead]
            idleHead += 1
            if let entry = entries[id], entry.idleStamp == stamp {
                entries[id] = nil
                return entry.handle
            }
        }
        idleQueue.removeAll(keepingCapacity: true)
        idleHead = 0
        return nil
    }

    private mutating func compactIfMostlyStale() {
        if idleHead > 4096 && idleHead * 2 > idleQueue.count {
            idleQueue.removeFirst(idleHead)
            idleHead = 0
        }
        let live = idleQueue.count - idleHead
        guard live > 1024, live > 2 * entries.count else { return }
        idleQueue = idleQueue[idleHead...].filter { entries[$0.id]?.idleStamp == $0.stamp }
        idleHead = 0
    }
}
