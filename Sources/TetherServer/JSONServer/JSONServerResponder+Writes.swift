import TetherHTTP1
import TetherJSON

extension JSONServerResponder {
    /// POST, PUT, PATCH and DELETE: the body is read here, the change is applied by the database actor.
    func write(_ route: JSONServerRoute, method: HTTPMethod, request: HTTPRequest) async -> HTTPResponse {
        var body = JSON.Object()
        if method != .delete {
            switch Self.body(of: request) {
            case .success(let object): body = object
            case .failure(let error): return error.response
            }
        }
        let operation: WriteRequest.Operation
        switch (route, method) {
        case (.collection(let name, let nested), .post):
            if let nested { body[nested.key] = .string(nested.value) }
            operation = .create(collection: name, body: body)
        case (.item(let name, let id), .put): operation = .replace(collection: name, id: id, body: body)
        case (.item(let name, let id), .patch): operation = .merge(collection: name, id: id, body: body)
        case (.item(let name, let id), .delete): operation = .delete(collection: name, id: id)
        case (.singular(let name, let nested), .post), (.singular(let name, let nested), .put):
            if let nested { body[nested.key] = .string(nested.value) }
            operation = .setSingular(name: name, body: body, created: method == .post)
        case (.singular(let name, _), .patch): operation = .mergeSingular(name: name, body: body)
        default: return JSONServerBody.notFound
        }
        var fingerprint = EntityTag.fnv1a(
            Array("\(request.method.rawValue) \(method.rawValue) \(request.target)\n".utf8))
        fingerprint = EntityTag.fnv1a(request.body, seed: fingerprint)
        let write = WriteRequest(
            operation: operation,
            ifMatch: request.headers["If-Match"],
            idempotencyKey: request.headers["Idempotency-Key"].flatMap { $0.isEmpty ? nil : $0 },
            fingerprint: fingerprint,
            fullURL: Self.fullURL(of: request))
        await delay(request)
        return await database.apply(write)
    }

    /// The request body as an object: JSON, or `application/x-www-form-urlencoded` (values as strings, repeated
    /// names as arrays, as body-parser gives them). An empty body is `{}`. Otherwise a 400 response.
    static func body(of request: HTTPRequest) -> Result<JSON.Object, BodyError> {
        if request.body.isEmpty { return .success([:]) }
        let contentType = (request.headers["Content-Type"] ?? "").lowercased()
        if contentType.hasPrefix("application/x-www-form-urlencoded") {
            var object = JSON.Object()
            let text = String(decoding: request.body, as: UTF8.self)
            for (name, value) in HTTPTarget("/?" + text).queryItems {
                switch object[name] {
                case nil: object[name] = .string(value)
                case .array(let values)?: object[name] = .array(values + [.string(value)])
                case let existing?: object[name] = .array([existing, .string(value)])
                }
            }
            return .success(object)
        }
        let json: JSON
        do {
            json = try JSON(parsing: request.body)
        } catch {
            let place = error.location.map { " at line \($0.line), column \($0.column)" } ?? ""
            return .failure(
                BodyError(response: JSONServerBody.error(.badRequest, "malformed JSON body: \(error.message)\(place)")))
        }
        guard case .object(let object) = JSONServerBody.normalized(json) else {
            return .failure(
                BodyError(
                    response: JSONServerBody.error(.badRequest, "the body must be a JSON object, not \(json.kind)")))
        }
        return .success(object)
    }

    /// A body that cannot be used, with the 400 response for it.
    struct BodyError: Error {
        var response: HTTPResponse
    }
}
