#if os(Linux)
    import CEpoll
    import Glibc

    /// Starts the OS thread an ``EventLoop`` runs on.
    enum LoopThread {
        private final class Box {
            let body: () -> Void
            init(_ body: @escaping () -> Void) { self.body = body }
        }

        /// Runs `body` on a new detached thread; false when the system refuses a thread. (`name` is for debuggers once
        /// the thread can be named: `pthread_setname_np` is not exported by Glibc's module.)
        static func start(name: String, _ body: @escaping () -> Void) -> Bool {
            let context = Unmanaged.passRetained(Box(body)).toOpaque()
            var attributes = pthread_attr_t()
            pthread_attr_init(&attributes)
            defer { pthread_attr_destroy(&attributes) }
            pthread_attr_setdetachstate(&attributes, Int32(PTHREAD_CREATE_DETACHED))
            var thread = pthread_t()
            let result = pthread_create(
                &thread, &attributes,
                { raw in
                    let box = Unmanaged<Box>.fromOpaque(raw!).takeRetainedValue()
                    box.body()
                    return nil
                }, context)
            if result != 0 {
                Unmanaged<Box>.fromOpaque(context).release()
                return false
            }
            return true
        }
    }
#endif
