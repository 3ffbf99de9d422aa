import TetherSync

#if canImport(FoundationNetworking)
    import Foundation
    public import FoundationNetworking
#else
    public import Foundation
#endif

/// The default transport: Foundation's `URLSession`, with its cache, cookies and redirects turned off (the client
/// does those itself, the same way on every platform).
///
/// Every transfer is a data task whose callbacks run inline on the session's own work queue (an
/// `InlineOperationQueue` is the session's delegate queue), where they resume the waiting task directly: one hand-off
/// between threads per request, as few as URLSession's own `data(for:)`. Without progress to report, the task's
/// completion handler gets the whole body and the size limit is checked on it. With progress, responses stream
/// through the session delegate, so a body larger than the request's maximum size is stopped as soon as the limit is
/// crossed (or at once when `Content-Length` says so) and progress is reported as bytes arrive.
///
/// Cancelling the calling task, or the deadline the client passes, cancels the data task from a Dispatch thread.
/// Never from inside a cancellation handler: FoundationNetworking's `URLSessionTask.cancel()` waits for the session's
/// work queue, and a handler runs under the Swift task's status lock, which the work queue needs when it resumes that
/// task (both would wait forever). That is also why `data(for:)` is not used: its own cancellation handler does just
/// that.
///
/// On Linux, a 3xx response that is not redirected (no `Location`) arrives with an empty body.
///
/// Thread safety: one transport serves any number of concurrent requests.
public final class URLSessionTransport: HTTPTransport {
    private let session: URLSession
    private let delegate: SessionDelegate

    /// A transport over a new session.
    ///
    /// - Parameters:
    ///   - maximumConnectionsPerHost: the session's connection limit per host.
    ///   - configure: a chance to change the session configuration (proxies, TLS); cache, cookies and redirects
    ///     stay off whatever it sets.
    public init(
        maximumConnectionsPerHost: Int = 6, configure: (URLSessionConfiguration) -> Void = { _ in }
    ) {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.httpMaximumConnectionsPerHost = maximumConnectionsPerHost
        configure(configuration)
        configuration.urlCache = nil
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        configuration.httpShouldSetCookies = false
        configuration.httpCookieAcceptPolicy = .never
        configuration.httpCookieStorage = nil
        let delegate = SessionDelegate()
        self.delegate = delegate
        session = URLSession(configuration: configuration, delegate: delegate, delegateQueue: InlineOperationQueue())
    }

    deinit {
        session.finishTasksAndInvalidate()
    }

    public func send(
        _ request: TransportRequest, progress: (@Sendable (TransferProgress) -> Void)?
    ) async throws -> TransportResponse {
        if let progress { return try await sendStreaming(request, progress: progress, deadline: nil) }
        return try await sendBuffered(request, deadline: nil)
    }

    /// The whole response through the data task's completion handler, which resumes the calling task from the
    /// session's queue; the size limit is checked on the whole body. When `deadline` passes first the data task is
    /// cancelled and ``DeadlineExceeded`` thrown: the client's deadline without a task of its own.
    ///
    /// With `sharing` (a coalesced request), a cancelled caller leaves the transfer running when others wait for it
    /// (``TransferSharing/park(_:for:)``), and a transfer parked for the same request is taken over instead of sending
    /// it again.
    ///
    /// - Throws: `CancellationError` when the calling task is cancelled (before the transfer, or when it is parked);
    ///   `URLError` from the session (`.cancelled` once the calling task is cancelled); ``DeadlineExceeded``;
    ///   ``HTTPError`` for a body over the size limit.
    func sendBuffered(
        _ request: TransportRequest, deadline: ContinuousClock.Instant?, sharing: (any TransferSharing)? = nil
    ) async throws -> TransportResponse {
        try Task.checkCancellation()
        let parked = sharing?.takeParked(for: request)
        let transfer = parked ?? PendingTransfer()
        let (body, response) = try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation {
                (continuation: CheckedContinuation<(Data, URLResponse), any Error>) in
                transfer.wait(continuation)
                guard parked == nil else { return }
                let taskID = TaskIdentifier()
                let task = session.dataTask(with: Self.urlRequest(for: request)) { [delegate] data, response, error in
                    // A challenge the delegate answered ends as a cancellation: it is the challenge's response.
                    if error != nil, let challenged = delegate.takeChallenge(taskID.value) {
                        transfer.complete(data: data ?? Data(), response: challenged, error: nil)
                    } else {
                        transfer.complete(data: data, response: response, error: error)
                    }
                }
                taskID.value = task.taskIdentifier
                transfer.start(task, deadline: deadline)
            }
        } onCancel: {
            if let sharing, sharing.park(transfer, for: request) {
                transfer.detach()
            } else {
                transfer.cancel()
            }
        }
        guard let http = response as? HTTPURLResponse else { throw URLError(.badServerResponse) }
        if body.count > request.maximumResponseSize {
            throw HTTPError(
                .responseTooLarge(limit: request.maximumResponseSize), request: RequestSummary(method: .get, url: ""))
        }
        return TransportResponse(
            status: HTTPStatus(code: http.statusCode), headers: HTTPHeaders(http), body: body,
            url: http.url ?? request.url)
    }

    /// Streams the response through the session delegate, reporting `progress`, and cancels the data task itself
    /// when `deadline` passes first, then throwing ``DeadlineExceeded``: the client's deadline without a task of its
    /// own per attempt.
    ///
    /// The deadline is watched by the shared ``DeadlineMonitor``; cancelling the calling task cancels the data task
    /// too (from a Dispatch thread).
    func sendStreaming(
        _ request: TransportRequest, progress: @escaping @Sendable (TransferProgress) -> Void,
        deadline: ContinuousClock.Instant?
    ) async throws -> TransportResponse {
        try Task.checkCancellation()
        let transfer = Transfer(request: request, progress: progress)
        let task = session.dataTask(with: Self.urlRequest(for: request))
        delegate.register(transfer, for: task)
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation {
                (continuation: CheckedContinuation<TransportResponse, any Error>) in
                transfer.start(continuation)
                if let deadline {
                    transfer.watch(
                        DeadlineMonitor.shared.schedule(at: deadline) {
                            transfer.expire()
                            task.cancel()
                        })
                }
                task.resume()
            }
        } onCancel: {
            // Not here, under the Swift task's status lock: `cancel()` waits for the session's work queue.
            DispatchQueue.global().async { task.cancel() }
        }
    }

    private static func urlRequest(for request: TransportRequest) -> URLRequest {
        var urlRequest = URLRequest(url: request.url)
        urlRequest.httpMethod = request.method.rawValue
        urlRequest.cachePolicy = .reloadIgnoringLocalCacheData
        urlRequest.httpShouldHandleCookies = false
        // The client enforces the real deadline; this is a backstop in whole seconds (all Linux supports).
        let seconds = Double(request.timeout.components.seconds) + Double(request.timeout.components.attoseconds) / 1e18
        urlRequest.timeoutInterval = max(1, seconds.rounded(.up) + 1)
        for (name, value) in request.headers { urlRequest.addValue(value, forHTTPHeaderField: name) }
        urlRequest.httpBody = request.body
        return urlRequest
    }
}

extension HTTPHeaders {
    /// The fields of a Foundation response (their order is Foundation's: it keeps them in a dictionary).
    fileprivate init(_ response: HTTPURLResponse) {
        self.init()
        for (name, value) in response.allHeaderFields {
            guard let name = name as? String, let value = value as? String else { continue }
            add(name, value)
        }
    }
}

/// A data task's identifier, known only after the task is made, for its completion handler.
private final class TaskIdentifier: @unchecked Sendable {
    /// Set once, before the task is resumed (so before its completion handler runs).
    var value = -1
}

/// The state of one data task, filled in by delegate callbacks.
private final class Transfer: Sendable {
    struct State {
        var continuation: CheckedContinuation<TransportResponse, any Error>?
        var response: HTTPURLResponse?
        var body = Data()
        var progress = TransferProgress()
        var tooLarge = false
        /// The deadline passed and cancelled the data task.
        var expired = false
        var deadlineToken: UInt64?
    }

    let limit: Int
    let url: URL
    let progressHandler: (@Sendable (TransferProgress) -> Void)?
    let state: Locked<State>

    init(request: TransportRequest, progress: (@Sendable (TransferProgress) -> Void)?) {
        limit = request.maximumResponseSize
        url = request.url
        progressHandler = progress
        var initial = State()
        initial.progress.totalBytesToSend = request.body?.count
        state = Locked(initial)
    }

    func start(_ continuation: CheckedContinuation<TransportResponse, any Error>) {
        state.withLock { $0.continuation = continuation }
    }

    /// Keeps the deadline's token, to cancel it once the transfer completes; a transfer already complete cancels
    /// it at once.
    func watch(_ token: UInt64) {
        let done = state.withLock { state -> Bool in
            if state.continuation == nil { return true }
            state.deadlineToken = token
            return false
        }
        if done { DeadlineMonitor.shared.cancel(token) }
    }

    func expire() {
        state.withLock { $0.expired = true }
    }

    /// Returns false when the announced length is already over the limit.
    func received(_ response: HTTPURLResponse) -> Bool {
        let expected = response.expectedContentLength >= 0 ? Int(response.expectedContentLength) : nil
        return state.withLock { state in
            state.response = response
            state.progress.totalBytesExpected = expected
            // A gzip-encoded body is decoded by URLSession, so its announced length is not the decoded size.
            if let expected, expected > limit, response.value(forHTTPHeaderField: "Content-Encoding") == nil {
                state.tooLarge = true
                return false
            }
            return true
        }
    }

    /// Returns false when the body went over the limit.
    func received(_ data: Data) -> Bool {
        let (within, progress) = state.withLock { state -> (Bool, TransferProgress) in
            if state.tooLarge || state.body.count + data.count > limit {
                state.tooLarge = true
                return (false, state.progress)
            }
            state.body.append(data)
            state.progress.bytesReceived = state.body.count
            return (true, state.progress)
        }
        if within { progressHandler?(progress) }
        return within
    }

    func sent(_ total: Int64, expected: Int64) {
        let progress = state.withLock { state -> TransferProgress in
            state.progress.bytesSent = Int(total)
            if expected > 0 { state.progress.totalBytesToSend = Int(expected) }
            return state.progress
        }
        progressHandler?(progress)
    }

    /// The delegate's completion. `taskResponse` is the task's own response: on Linux a redirect status whose
    /// redirect is not followed (no `Location`, say) never reaches the delegate's response callback.
    func complete(error: (any Error)?, taskResponse: HTTPURLResponse?) {
        let (response, body) = state.withLock { ($0.response ?? taskResponse, $0.body) }
        finish(error: error, response: response, body: body)
    }

    private func finish(error: (any Error)?, response: HTTPURLResponse?, body: Data) {
        let (continuation, token, result) = state.withLock {
            state -> (
                CheckedContinuation<TransportResponse, any Error>?, UInt64?, Result<TransportResponse, any Error>
            ) in
            let continuation = state.continuation
            state.continuation = nil
            let token = state.deadlineToken
            state.deadlineToken = nil
            if state.expired { return (continuation, token, .failure(DeadlineExceeded())) }
            if state.tooLarge {
                return (
                    continuation, token,
                    .failure(HTTPError(.responseTooLarge(limit: limit), request: RequestSummary(method: .get, url: "")))
                )
            }
            if let error { return (continuation, token, .failure(error)) }
            guard let response else {
                return (continuation, token, .failure(URLError(.badServerResponse)))
            }
            return (
                continuation, token,
                .success(
                    TransportResponse(
                        status: HTTPStatus(code: response.statusCode), headers: HTTPHeaders(response), body: body,
                        url: response.url ?? url))
            )
        }
        if let token { DeadlineMonitor.shared.cancel(token) }
        continuation?.resume(with: result)
    }
}

/// The session delegate: routes callbacks to each task's ``Transfer``.
private final class SessionDelegate: NSObject, URLSessionDataDelegate, Sendable {
    private let transfers = Locked<[Int: Transfer]>([:])

    func register(_ transfer: Transfer, for task: URLSessionTask) {
        transfers.withLock { $0[task.taskIdentifier] = transfer }
    }

    private func transfer(for task: URLSessionTask) -> Transfer? {
        transfers.withLock { $0[task.taskIdentifier] }
    }

    func urlSession(
        _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
        completionHandler: @escaping @Sendable (URLSession.ResponseDisposition) -> Void
    ) {
        guard let http = response as? HTTPURLResponse, let transfer = transfer(for: dataTask) else {
            completionHandler(.allow)
            return
        }
        let within = transfer.received(http)
        completionHandler(.allow)
        // Callbacks run on the session's work queue (``InlineOperationQueue``): cancel from elsewhere.
        if !within { DispatchQueue.global().async { dataTask.cancel() } }
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        guard let transfer = transfer(for: dataTask) else { return }
        if !transfer.received(data) { DispatchQueue.global().async { dataTask.cancel() } }
    }

    func urlSession(
        _ session: URLSession, task: URLSessionTask, didSendBodyData bytesSent: Int64, totalBytesSent: Int64,
        totalBytesExpectedToSend: Int64
    ) {
        transfer(for: task)?.sent(totalBytesSent, expected: totalBytesExpectedToSend)
    }

    func urlSession(
        _ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
        newRequest request: URLRequest, completionHandler: @escaping @Sendable (URLRequest?) -> Void
    ) {
        // The client follows redirects itself.
        completionHandler(nil)
    }

    /// Challenges answered with the 401 or 407 response that carried them, by task, until the task completes.
    private let challenges = Locked<[Int: HTTPURLResponse]>([:])

    /// Turns every authentication challenge into its response: left to itself, FoundationNetworking on Linux waits
    /// until the deadline on a `Basic` challenge without a stored credential (it neither retries nor completes).
    /// The task is cancelled (from a Dispatch thread: cancelling waits for the session's work queue, where this
    /// runs) and its completion delivers the challenge's response instead of the cancellation. Credentials are
    /// the client's business (interceptors such as ``BearerAuthenticator``), not the session's. FoundationNetworking
    /// does not hand over the body of such a response: it arrives empty.
    func urlSession(
        _ session: URLSession, task: URLSessionTask, didReceive challenge: URLAuthenticationChallenge,
        completionHandler: @escaping @Sendable (URLSession.AuthChallengeDisposition, URLCredential?) -> Void
    ) {
        guard let response = challenge.failureResponse as? HTTPURLResponse else {
            DispatchQueue.global().async { completionHandler(.performDefaultHandling, nil) }
            return
        }
        challenges.withLock { $0[task.taskIdentifier] = response }
        DispatchQueue.global().async { completionHandler(.cancelAuthenticationChallenge, nil) }
    }

    /// The challenge response recorded for task `identifier`, removed.
    func takeChallenge(_ identifier: Int) -> HTTPURLResponse? {
        challenges.withLock { $0.removeValue(forKey: identifier) }
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        let transfer = transfers.withLock { $0.removeValue(forKey: task.taskIdentifier) }
        if error != nil, let challenged = takeChallenge(task.taskIdentifier) {
            transfer?.complete(error: nil, taskResponse: challenged)
            return
        }
        transfer?.complete(error: error, taskResponse: task.response as? HTTPURLResponse)
    }
}

/// The session's delegate queue: runs each callback at once on the thread that hands it over, the session's own
/// work queue, instead of hopping to another thread. Every callback the transport gives the session is short and
/// never calls the session synchronously (a data task is cancelled from a Dispatch thread), so running them there is
/// safe.
private final class InlineOperationQueue: OperationQueue, @unchecked Sendable {
    override func addOperation(_ block: @escaping @Sendable () -> Void) {
        block()
    }

    override func addOperation(_ operation: Operation) {
        operation.start()
    }
}
