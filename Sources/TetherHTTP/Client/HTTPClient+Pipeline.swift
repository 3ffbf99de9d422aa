import Foundation
import TetherJSON

extension HTTPClient {
    /// The whole of `send`: prepare, cache, network, validate, decode; never on the caller's actor.
    @concurrent
    func perform<Value>(
        _ request: Request<Value>, progress: (@Sendable (TransferProgress) -> Void)?
    ) async throws(HTTPError) -> Response<Value> {
        let start = ContinuousClock.now
        let startDate = Date()
        var summary = RequestSummary(method: request.method, url: redaction.redact(request.path))
        let prepared: TransportRequest
        do {
            prepared = try prepare(request)
        } catch {
            throw report(HTTPError(.invalidRequest(reason: error.reason), request: summary))
        }
        summary = redaction.summary(prepared)
        if Task.isCancelled { throw report(HTTPError(.cancelled, request: summary)) }

        let deadlines = Deadlines(
            perAttempt: request.timeout ?? configuration.timeout,
            total: request.totalTimeout ?? configuration.totalTimeout, start: start)
        let exchange: Exchange
        do {
            exchange = try await obtain(
                prepared, request: request, summary: summary, deadlines: deadlines, progress: progress)
        } catch {
            throw report(error)
        }

        let response = exchange.response
        let acceptable = request.acceptableStatuses ?? configuration.acceptableStatuses
        guard acceptable.contains(response.status.code) else {
            let apiError = configuration.apiErrorDecoder?.decode(response.status, response.headers, response.body)
            let failure = HTTPError.StatusFailure(
                status: response.status, headers: response.headers, body: response.body, apiError: apiError)
            throw report(HTTPError(.status(failure), request: summary, attempts: exchange.attempts))
        }

        let decodingStart = ContinuousClock.now
        let value: Value
        switch decode(response, with: request.decoder) {
        case .success(let decoded): value = decoded
        case .failure(let failure):
            throw report(HTTPError(.decoding(failure.failure), request: summary, attempts: exchange.attempts))
        }
        let end = ContinuousClock.now
        var metrics = Metrics(
            startDate: startDate, total: end - start, attempts: exchange.attemptDurations,
            rateLimitWait: exchange.rateLimitWait, decoding: end - decodingStart, bytesReceived: response.body.count)
        metrics.transfer = response.metrics
        notify(
            .finished(
                summary, status: response.status, source: exchange.source, duration: end - start,
                attempts: exchange.attempts))
        return Response(
            value: value, status: response.status, headers: response.headers, data: response.body,
            url: response.url, source: Response<Value>.Source(exchange.source), attempts: exchange.attempts,
            metrics: metrics, isStale: exchange.isStale, isRevalidating: exchange.isRevalidating)
    }

    /// Decodes the body, checking the content type first when JSON is expected.
    private func decode<Value>(
        _ response: TransportResponse, with decoder: BodyDecoder<Value>
    ) -> Result<Value, DecodingProblem> {
        if decoder.expectsJSON, let contentType = response.headers["Content-Type"],
            !Self.isJSON(contentType: contentType)
        {
            return .failure(
                DecodingProblem(
                    failure: HTTPError.DecodingFailure(
                        codingPath: "", reason: "expected JSON but the response is '\(contentType)'",
                        bodyExcerpt: Self.excerpt(response.body),
                        underlying: DecodingError.dataCorrupted(.init(codingPath: [], debugDescription: contentType)))))
        }
        do {
            return .success(try decoder.decode(response.body, configuration.decoder))
        } catch let error as DecodingError {
            let (path, reason) = Self.describe(error)
            return .failure(
                DecodingProblem(
                    failure: HTTPError.DecodingFailure(
                        codingPath: path, reason: reason, bodyExcerpt: Self.excerpt(response.body), underlying: error)))
        } catch {
            return .failure(
                DecodingProblem(
                    failure: HTTPError.DecodingFailure(
                        codingPath: "", reason: "\(error)", bodyExcerpt: Self.excerpt(response.body), underlying: error)
                ))
        }
    }

    /// Whether the media type (before any `;` parameters, ASCII case-insensitive) is JSON. Works on the UTF-8 bytes:
    /// it runs for every decoded response, cache hits included.
    static func isJSON(contentType: String) -> Bool {
        let bytes = contentType.utf8
        var type = bytes[bytes.startIndex..<(bytes.firstIndex(of: UInt8(ascii: ";")) ?? bytes.endIndex)]
        while let first = type.first, first == 0x20 || first == 0x09 { type = type.dropFirst() }
        while let last = type.last, last == 0x20 || last == 0x09 { type = type.dropLast() }
        func lowercased(_ byte: UInt8) -> UInt8 { (0x41...0x5A).contains(byte) ? byte | 0x20 : byte }
        func `is`(_ literal: String) -> Bool { type.elementsEqual(literal.utf8) { lowercased($0) == $1 } }
        let suffix = "+json".utf8
        return `is`("application/json") || `is`("text/json")
            || (type.count >= suffix.count && type.suffix(suffix.count).elementsEqual(suffix) { lowercased($0) == $1 })
    }

    static func excerpt(_ body: Data) -> String {
        let prefix = body.prefix(200)
        let text = String(decoding: prefix, as: UTF8.self)
        return body.count > 200 ? text + "…" : text
    }

    static func describe(_ error: DecodingError) -> (path: String, reason: String) {
        func path(_ keys: [any CodingKey]) -> String {
            var text = ""
            for key in keys {
                if let index = key.intValue {
                    text += "[\(index)]"
                } else {
                    text += (text.isEmpty ? "" : ".") + key.stringValue
                }
            }
            return text
        }
        switch error {
        case .typeMismatch(_, let context), .valueNotFound(_, let context), .dataCorrupted(let context):
            return (path(context.codingPath), context.debugDescription)
        case .keyNotFound(let key, let context):
            return (path(context.codingPath + [key]), context.debugDescription)
        @unknown default:
            return ("", "\(error)")
        }
    }

    /// Tells the monitors about a failure and returns it.
    func report(_ error: HTTPError) -> HTTPError {
        notify(.failed(error))
        return error
    }

    func notify(_ event: HTTPEvent) {
        for monitor in configuration.monitors { monitor.handle(event) }
    }
}

extension Response.Source {
    init(_ source: Response<Void>.Source) {
        switch source {
        case .network: self = .network
        case .cache: self = .cache
        case .revalidated: self = .revalidated
        }
    }
}

/// A decoding failure on its way to ``HTTPError/Kind/decoding(_:)``.
struct DecodingProblem: Error {
    let failure: HTTPError.DecodingFailure
}
