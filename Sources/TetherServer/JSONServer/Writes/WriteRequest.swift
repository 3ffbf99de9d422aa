import TetherHTTP1
import TetherJSON

/// A write for the ``JSONDatabase`` actor to apply: the change, its preconditions and its idempotency key.
struct WriteRequest: Sendable {
    enum Operation: Sendable {
        /// `POST /<collection>` (or a nested `POST /<parent>/<id>/<collection>`).
        case create(collection: String, body: JSON.Object)
        /// `PUT /<collection>/<id>`.
        case replace(collection: String, id: String, body: JSON.Object)
        /// `PATCH /<collection>/<id>`.
        case merge(collection: String, id: String, body: JSON.Object)
        /// `DELETE /<collection>/<id>`.
        case delete(collection: String, id: String)
        /// `POST` (201) or `PUT` (200) `/<singular>`.
        case setSingular(name: String, body: JSON.Object, created: Bool)
        /// `PATCH /<singular>`.
        case mergeSingular(name: String, body: JSON.Object)
    }

    var operation: Operation
    /// The `If-Match` header, when sent.
    var ifMatch: String?
    /// The `Idempotency-Key` header, when sent, and the request's fingerprint.
    var idempotencyKey: String?
    var fingerprint: UInt64 = 0
    /// The request's full URL as json-server builds it (`http://<Host><target>`), for `Location`.
    var fullURL: String
}
