#if os(Linux)
    import CEpoll
    import Glibc
    import Synchronization
    import TetherSync

    /// A thread that waits on `epoll` for its sockets and timers and runs their callbacks, one at a time.
    ///
    /// Shaped like SwiftNIO's `EventLoop`: work from other threads is handed over with ``execute(_:)``; everything
    /// a loop owns (its ``Channel``s, timers and their handlers) is touched on its thread only, so none of it needs
    /// a lock. Callbacks must not block: they run between two `epoll_wait`s and hold up every other socket.
    ///
    /// ```swift
    /// import TetherIO
    ///
    /// let loop = EventLoop.shared
    /// loop.execute {
    ///     loop.schedule(in: .milliseconds(250)) { print("a quarter second later, on the loop") }
    /// }
    /// ```
    ///
    /// Thread safety: ``execute(_:)`` and ``inEventLoop`` may be used from any thread; the other members only on
    /// the loop's thread (checked by `precondition` in debug builds).
    public final class EventLoop: @unchecked Sendable {
        /// One loop for the whole process, started on first use. Never stops.
        public static let shared = EventLoop(name: "tether-io")

        private let epoll: Int32
        /// Written to wake `epoll_wait` when work is handed over from another thread.
        private let wakeup: Int32
        private let inbox = Locked<[@Sendable () -> Void]>([])
        private let threadID = Atomic<UInt>(0)

        // Loop-confined state.
        private var timers = TimerHeap()
        private var registrations: [UInt64: any EventSource] = [:]
        private var nextRegistration: UInt64 = 1
        /// Whether the loop is running the hand-over queue's tasks now.
        private var runningInbox = false
        /// The loop's read buffer, shared by its channels (one read at a time).
        let readBuffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 64 * 1024, alignment: 16)

        /// Starts a loop on a new thread named `name`.
        public init(name: String) {
            epoll = epoll_create1(Int32(EPOLL_CLOEXEC))
            wakeup = eventfd(0, Int32(EFD_CLOEXEC) | Int32(EFD_NONBLOCK))
            precondition(epoll >= 0 && wakeup >= 0, "epoll_create1/eventfd failed: errno \(Glibc.errno)")
            var event = epoll_event()
            event.events = EPOLLIN.rawValue
            event.data.u64 = 0
            epoll_ctl(epoll, EPOLL_CTL_ADD, wakeup, &event)
            let started = LoopThread.start(name: name) { [self] in run() }
            precondition(started, "cannot start the event loop's thread")
        }

        /// Whether the caller runs on this loop's thread.
        public var inEventLoop: Bool {
            threadID.load(ordering: .relaxed) == UInt(pthread_self())
        }

        /// Runs `task` on the loop's thread, after the callbacks already queued, and before the socket callbacks of
        /// any readiness the loop has not yet seen when `execute` returns. Called on the loop from a socket or timer
        /// callback, the task runs at the end of the same turn.
        public func execute(_ task: @escaping @Sendable () -> Void) {
            let wasEmpty = inbox.withLock { inbox in
                inbox.append(task)
                return inbox.count == 1
            }
            // On the loop, outside the hand-over queue's run, the turn's last step runs the queue: no wake-up needed.
            if wasEmpty && !(inEventLoop && !runningInbox) {
                var one: UInt64 = 1
                _ = write(wakeup, &one, 8)
            }
        }

        /// Runs `action` on the loop at `due` (at once on the next turn when it has passed). Loop thread only.
        @discardableResult
        public func schedule(at due: ContinuousClock.Instant, _ action: @escaping () -> Void) -> Scheduled {
            assert(inEventLoop)
            return Scheduled(id: timers.insert(due, action))
        }

        /// ``schedule(at:_:)`` after `delay`.
        @discardableResult
        public func schedule(in delay: Duration, _ action: @escaping () -> Void) -> Scheduled {
            schedule(at: .now + delay, action)
        }

        /// Cancels a timer that has not run. Loop thread only.
        public func cancel(_ scheduled: Scheduled) {
            assert(inEventLoop)
            timers.cancel(scheduled.id)
        }

        /// A timer's handle.
        public struct Scheduled: Sendable, Hashable {
            let id: UInt64
        }

        // MARK: - Registration (for channels)

        /// Watches `fd` for `events` (`EPOLLIN`, `EPOLLOUT`), calling `source` when they happen.
        func register(_ source: any EventSource, fd: Int32, events: UInt32) -> UInt64? {
            assert(inEventLoop)
            let id = nextRegistration
            nextRegistration += 1
            var event = epoll_event()
            event.events = events
            event.data.u64 = id
            guard epoll_ctl(epoll, EPOLL_CTL_ADD, fd, &event) == 0 else { return nil }
            registrations[id] = source
            return id
        }

        func modify(_ id: UInt64, fd: Int32, events: UInt32) {
            var event = epoll_event()
            event.events = events
            event.data.u64 = id
            epoll_ctl(epoll, EPOLL_CTL_MOD, fd, &event)
        }

        /// Stops watching `fd`; call before closing it.
        func deregister(_ id: UInt64, fd: Int32) {
            registrations[id] = nil
            epoll_ctl(epoll, EPOLL_CTL_DEL, fd, nil)
        }

        // MARK: - The loop

        private func run() {
            threadID.store(UInt(pthread_self()), ordering: .relaxed)
            let capacity = 64
            let events = UnsafeMutablePointer<epoll_event>.allocate(capacity: capacity)
            while true {
                var timeout: Int32 = -1
                if let due = timers.earliest() {
                    let left = due - .now
                    if left <= .zero {
                        timeout = 0
                    } else {
                        // Rounded up to the millisecond, so a timer never fires early.
                        let (seconds, attoseconds) = left.components
                        let milliseconds = seconds * 1000 + (attoseconds + 999_999_999_999_999) / 1_000_000_000_000_000
                        timeout = Int32(clamping: milliseconds)
                    }
                }
                let count = max(0, Int(epoll_wait(epoll, events, Int32(capacity), timeout)))
                // The wake-up is read before the inbox is taken, so a task handed over after the read wakes the
                // next turn. Tasks handed over before this turn's readiness was seen run before its callbacks: a
                // request cancelled from another thread leaves its queue before a response that arrived meanwhile
                // frees a connection for it.
                for index in 0..<count where events[index].data.u64 == 0 {
                    var value: UInt64 = 0
                    _ = read(wakeup, &value, 8)
                }
                runInbox()
                for index in 0..<count where events[index].data.u64 != 0 {
                    let event = events[index]
                    // A source deregistered by an earlier callback of this turn is skipped.
                    registrations[event.data.u64]?.handle(events: event.events)
                }
                for action in timers.popDue(.now) { action() }
                // What the callbacks handed over runs in this turn too.
                runInbox()
            }
        }

        private func runInbox() {
            let tasks = inbox.withLock { inbox -> [@Sendable () -> Void] in
                defer { inbox.removeAll(keepingCapacity: true) }
                return inbox
            }
            runningInbox = true
            for task in tasks { task() }
            runningInbox = false
        }
    }

    /// Something registered with an ``EventLoop`` for readiness events.
    protocol EventSource: AnyObject {
        func handle(events: UInt32)
    }
#endif
