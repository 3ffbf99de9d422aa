import Dispatch

/// Runs the tasks of responders that may block (those that do not declare ``HTTPResponder/runsOnEventLoop``),
/// of streamed bodies' producers, and the heavy parts of the built-in responders (a search, drawing an image): on
/// a concurrent dispatch queue that starts another thread when all of its
/// threads are busy or blocked (an overcommitting queue), so neither a blocking responder nor a busy Swift
/// concurrency pool holds up other requests.
///
/// - Thread safety: `enqueue` may be called from any thread.
final class ResponderTaskExecutor: TaskExecutor, @unchecked Sendable {
    /// One for the process.
    static let shared = ResponderTaskExecutor()

    private let queue = DispatchQueue(label: "tether.server.responders", attributes: .concurrent)

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        queue.async { [self] in job.runSynchronously(on: asUnownedTaskExecutor()) }
    }
}
