public import Dispatch

/// A request in flight, with its progress: what ``HTTPClient/task(for:)`` and the completion-handler calls
/// return.
///
/// ```swift
/// import Foundation
/// import TetherHTTP
///
/// let client = HTTPClient(baseURL: URL(string: "http://127.0.0.1:3000")!)
/// let task = client.task(for: Request<Data>(path: "/big.json"))
/// for await progress in task.progress { print(progress.fractionReceived ?? 0) }
/// let response = try await task.response
/// ```
///
/// The request starts at once and runs whether or not anyone awaits it; ``cancel()`` stops it. Thread safe.
public final class HTTPTask<Value: Sendable>: Sendable {
    private let task: Task<Response<Value>, any Error>

    /// Progress as bytes move: one element per change, finished when the request ends. Each task has one
    /// progress sequence; iterate it once.
    public let progress: AsyncStream<TransferProgress>

    init(client: HTTPClient, request: Request<Value>) {
        let (stream, continuation) = AsyncStream<TransferProgress>.makeStream(bufferingPolicy: .bufferingNewest(16))
        progress = stream
        task = Task {
            defer { continuation.finish() }
            return try await client.perform(request) { continuation.yield($0) }
        }
    }

    /// The response, once it is there.
    ///
    /// Awaiting it from a task that is then cancelled does not cancel the request; call ``cancel()``.
    /// - Throws: ``HTTPError``.
    public var response: Response<Value> {
        get async throws(HTTPError) {
            do {
                return try await task.value
            } catch let error as HTTPError {
                throw error
            } catch {
                throw HTTPError(.cancelled, request: RequestSummary(method: .get, url: ""))
            }
        }
    }

    /// Cancels the request; its response becomes ``HTTPError/Kind/cancelled``.
    public func cancel() { task.cancel() }
}

extension HTTPClient {
    /// Starts `request` and returns a handle with its progress and response.
    public func task<Value>(for request: Request<Value>) -> HTTPTask<Value> {
        HTTPTask(client: self, request: request)
    }

    /// Sends `request` and calls `completion` on `queue` with the result, exactly once (also when cancelled),
    /// for code that uses completion handlers.
    ///
    /// ```swift
    /// import Foundation
    /// import TetherHTTP
    ///
    /// struct Post: Codable, Sendable { var id: Int; var title: String }
    /// let client = HTTPClient(baseURL: URL(string: "http://127.0.0.1:3000")!)
    ///
    /// client.send(Request<[Post]>(path: "/posts"), on: .main) { result in
    ///     switch result {
    ///     case .success(let response): print(response.value.count, "posts")
    ///     case .failure(let error): print(error.message)
    ///     }
    /// }
    /// ```
    @discardableResult
    public func send<Value>(
        _ request: Request<Value>, on queue: DispatchQueue,
        completion: @escaping @Sendable (Result<Response<Value>, HTTPError>) -> Void
    ) -> HTTPTask<Value> {
        let task = HTTPTask(client: self, request: request)
        Task {
            let result: Result<Response<Value>, HTTPError>
            do throws(HTTPError) {
                result = .success(try await task.response)
            } catch {
                result = .failure(error)
            }
            queue.async { completion(result) }
        }
        return task
    }

    /// Sends all `requests` concurrently and returns every result, in the order of `requests`, once all are done;
    /// one failing does not stop the others. What `DispatchGroup` enter/leave/notify code does, in one call.
    ///
    /// Cancelling the calling task cancels the requests still running.
    @concurrent
    public func send<Value>(all requests: [Request<Value>]) async -> [Result<Response<Value>, HTTPError>] {
        await withTaskGroup(of: (Int, Result<Response<Value>, HTTPError>).self) { group in
            for (index, request) in requests.enumerated() {
                group.addTask {
                    do throws(HTTPError) {
                        return (index, .success(try await self.perform(request, progress: nil)))
                    } catch {
                        return (index, .failure(error))
                    }
                }
            }
            var results = [Result<Response<Value>, HTTPError>?](repeating: nil, count: requests.count)
            for await (index, result) in group { results[index] = result }
            return results.map { $0! }
        }
    }

    /// Sends all `requests` concurrently and calls `completion` on `queue` once, with every result in order.
    @discardableResult
    public func send<Value>(
        all requests: [Request<Value>], on queue: DispatchQueue,
        completion: @escaping @Sendable ([Result<Response<Value>, HTTPError>]) -> Void
    ) -> any BatchCancellable {
        let task = Task {
            let results = await send(all: requests)
            queue.async { completion(results) }
        }
        return BatchHandle(task: task)
    }

    /// The cached response (if any) at once, then the network's, for stale-while-revalidate screens.
    ///
    /// Yields the cached response first when the cache has one (fresh or stale), then the response of a request
    /// that revalidates it (``Response/Source-swift.enum/revalidated``) or replaces it; when the cached one is
    /// fresh, it is the only element. A network failure after a cached element finishes the sequence with that
    /// error.
    public func responses<Value>(for request: Request<Value>) -> AsyncThrowingStream<Response<Value>, any Error> {
        AsyncThrowingStream { continuation in
            let task = Task {
                var cached: Response<Value>?
                if configuration.cache != nil {
                    var fromCache = request
                    fromCache.cachePolicy = .cacheOnly
                    cached = try? await perform(fromCache, progress: nil)
                }
                if let cached {
                    continuation.yield(cached)
                    if cached.source == .cache, isFresh(cached, request) {
                        continuation.finish()
                        return
                    }
                }
                var fromNetwork = request
                fromNetwork.cachePolicy = .useProtocol
                do {
                    continuation.yield(try await perform(fromNetwork, progress: nil))
                    continuation.finish()
                } catch {
                    continuation.finish(throwing: error)
                }
            }
            continuation.onTermination = { _ in task.cancel() }
        }
    }

    private func isFresh<Value>(_ response: Response<Value>, _ request: Request<Value>) -> Bool {
        guard let cache = configuration.cache, let prepared = try? prepare(request) else { return false }
        if case .fresh = cache.lookup(
            method: prepared.method, url: prepared.url, requestHeaders: prepared.headers, now: .now)
        {
            return true
        }
        return false
    }
}

/// Cancels a batch started with a completion handler.
public protocol BatchCancellable: Sendable {
    func cancel()
}

private struct BatchHandle: BatchCancellable {
    let task: Task<Void, Never>
    func cancel() { task.cancel() }
}
