import Dispatch

/// Runs `body` as a detached task and blocks the calling thread until it ends: returns what `body` returned, or
/// throws what it threw.
///
/// The one bridge from a synchronous entry point into async code: a command's `run`, a benchmark's driver. Call it
/// only from the process's main thread or a thread of your own. A thread of Swift's concurrency pool must never
/// block on a task, which could need that very thread to finish.
package func runBlocking<Value: Sendable, Failure: Error>(
    _ body: @escaping @Sendable () async throws(Failure) -> Value
) throws(Failure) -> Value {
    let outcome = BlockingOutcome<Value, Failure>()
    let done = DispatchSemaphore(value: 0)
    Task.detached {
        do throws(Failure) {
            outcome.result = .success(try await body())
        } catch {
            outcome.result = .failure(error)
        }
        done.signal()
    }
    done.wait()
    // Set before `signal()`, read after `wait()`: the semaphore orders the two accesses.
    return try outcome.result!.get()
}

/// The task's result, handed to the blocked thread.
private final class BlockingOutcome<Value: Sendable, Failure: Error>: @unchecked Sendable {
    var result: Result<Value, Failure>?
}
