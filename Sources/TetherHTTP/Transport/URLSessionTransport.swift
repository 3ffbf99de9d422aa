import Synchronization

#if canImport(FoundationNetworking)
    import Foundation
    public import FoundationNetworking
#else
    public import Foundation
#endif

/// The default transport: Foundation's `URLSession`, with its cache, cookies and redirects turned off (the client
/// does those itself, the same way on every platform).
///
/// Responses stream through the session delegate, so a body larger than the request's maximum size is stopped as
/// soon as the limit is crossed (or at once when `Content-Length` says so), and progress is reported as bytes
/// arrive.
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
        session = URLSession(configuration: configuration, delegate: delegate, delegateQueue: nil)
    }

    deinit {
        session.finishTasksAndInvalidate()
    }

    public func send(
        _ request: TransportRequest, progress: (@Sendable (TransferProgress) -> Void)?
    ) async throws -> TransportResponse {
        try Task.checkCancellation()
        var urlRequest = URLRequest(url: request.url)
        urlRequest.httpMethod = request.method.rawValue
        urlRequest.cachePolicy = .reloadIgnoringLocalCacheData
        urlRequest.httpShouldHandleCookies = false
        // The client enforces the real deadline; this is a backstop in whole seconds (all Linux supports).
        let seconds = Double(request.timeout.components.seconds) + Double(request.timeout.components.attoseconds) / 1e18
        urlRequest.timeoutInterval = max(1, seconds.rounded(.up) + 1)
        for (name, value) in request.headers { urlRequest.addValue(value, forHTTPHeaderField: name) }
        urlRequest.httpBody = request.body
        if progress == nil {
            return try await sendBuffered(urlRequest, request: request)
        }
        let task = session.dataTask(with: urlRequest)
        let transfer = Transfer(request: request, progress: progress)
        delegate.register(transfer, for: task)
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation {
                (continuation: CheckedContinuation<TransportResponse, any Error>) in
                transfer.start(continuation)
                task.resume()
            }
        } onCancel: {
            task.cancel()
        }
    }
}

extension URLSessionTransport {
    /// Without progress to report: URLSession's own buffered path, which avoids a hop to the delegate queue per
    /// callback. The size limit is then checked on the announced length and on the body once it has arrived.
    private func sendBuffered(_ urlRequest: URLRequest, request: TransportRequest) async throws -> TransportResponse {
        let (body, response) = try await session.data(for: urlRequest)
        guard let http = response as? HTTPURLResponse else { throw URLError(.badServerResponse) }
        if body.count > request.maximumResponseSize {
            throw HTTPError(
                .responseTooLarge(limit: request.maximumResponseSize), request: RequestSummary(method: .get, url: ""))
        }
        return TransportResponse(
            status: HTTPStatus(code: http.statusCode), headers: HTTPHeaders(http), body: body,
            url: http.url ?? request.url)
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

/// The state of one data task, filled in by delegate callbacks.
private final class Transfer: Sendable {
    struct State {
        var continuation: CheckedContinuation<TransportResponse, any Error>?
        var response: HTTPURLResponse?
        var body = Data()
        var progress = TransferProgress()
        var tooLarge = false
    }

    let limit: Int
    let progressHandler: (@Sendable (TransferProgress) -> Void)?
    let state: Mutex<State>

    init(request: TransportRequest, progress: (@Sendable (TransferProgress) -> Void)?) {
        limit = request.maximumResponseSize
        progressHandler = progress
        var initial = State()
        initial.progress.totalBytesToSend = request.body?.count
        state = Mutex(initial)
    }

    func start(_ continuation: CheckedContinuation<TransportResponse, any Error>) {
        state.withLock { $0.continuation = continuation }
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
            if state.body.count + data.count > limit {
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

    func complete(error: (any Error)?, url: URL?) {
        let (continuation, result) = state.withLock {
            state -> (CheckedContinuation<TransportResponse, any Error>?, Result<TransportResponse, any Error>) in
            let continuation = state.continuation
            state.continuation = nil
            if state.tooLarge {
                return (
                    continuation,
                    .failure(HTTPError(.responseTooLarge(limit: limit), request: RequestSummary(method: .get, url: "")))
                )
            }
            if let error { return (continuation, .failure(error)) }
            guard let response = state.response, let responseURL = response.url ?? url else {
                return (continuation, .failure(URLError(.badServerResponse)))
            }
            return (
                continuation,
                .success(
                    TransportResponse(
                        status: HTTPStatus(code: response.statusCode), headers: HTTPHeaders(response),
                        body: state.body, url: responseURL))
            )
        }
        continuation?.resume(with: result)
    }
}

/// The session delegate: routes callbacks to each task's ``Transfer``.
private final class SessionDelegate: NSObject, URLSessionDataDelegate, Sendable {
    private let transfers = Mutex<[Int: Transfer]>([:])

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
        if transfer.received(http) {
            completionHandler(.allow)
        } else {
            completionHandler(.cancel)
        }
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        guard let transfer = transfer(for: dataTask) else { return }
        if !transfer.received(data) { dataTask.cancel() }
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

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        let transfer = transfers.withLock { $0.removeValue(forKey: task.taskIdentifier) }
        transfer?.complete(error: error, url: task.originalRequest?.url)
    }
}
