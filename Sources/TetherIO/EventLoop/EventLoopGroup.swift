#if os(Linux)
    import Glibc
    import Synchronization

    /// A fixed set of ``EventLoop``s, one thread each, handed out in turn.
    ///
    /// A server spreads its connections over the group's loops with ``next()``: each connection then lives on one
    /// loop for its whole life, so its state needs no lock, and the loops run in parallel.
    ///
    /// ```swift
    /// import TetherIO
    ///
    /// let group = EventLoopGroup.shared
    /// let loop = group.next()
    /// loop.execute { print("on one of \(group.loops.count) loops") }
    /// ```
    ///
    /// Thread safety: every member may be used from any thread. Loops never stop, so a group is made once and kept
    /// (``shared`` suits most servers).
    public final class EventLoopGroup: Sendable {
        /// One loop per online processor, started on first use. Never stops.
        public static let shared = EventLoopGroup(loopCount: EventLoopGroup.processorCount, name: "tether-server")

        /// The group's loops, in the order ``next()`` hands them out.
        public let loops: [EventLoop]
        private let cursor = Atomic<Int>(0)

        /// Starts `loopCount` loops (at least one), each on a new thread named after `name`.
        public init(loopCount: Int, name: String) {
            loops = (0..<max(1, loopCount)).map { EventLoop(name: "\(name)-\($0)") }
        }

        /// The next loop in turn (round robin).
        public func next() -> EventLoop {
            let index = cursor.wrappingAdd(1, ordering: .relaxed).oldValue & Int.max
            return loops[index % loops.count]
        }

        /// The number of processors online (`sysconf(_SC_NPROCESSORS_ONLN)`), at least 1.
        public static var processorCount: Int {
            max(1, sysconf(Int32(_SC_NPROCESSORS_ONLN)))
        }
    }
#endif
