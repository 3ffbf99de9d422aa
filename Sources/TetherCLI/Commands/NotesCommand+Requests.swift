import Foundation
import TetherAPIs
import TetherHTTP

extension NotesCommand {
    /// The fields of a note to send: only those given are written (`PATCH`), with the time of the change.
    struct Fields: Encodable, Sendable {
        var title: String?
        var body: String?
        var updatedAt: String
    }

    /// Sends the requests for `action`.
    ///
    /// - Throws: ``CLIError/failure(_:)``: `"note 42 does not exist"` for a 404, a conflict message for a 412,
    ///   else the server's message.
    static func perform(_ action: Action, client: HTTPClient) async throws(CLIError) -> Outcome {
        switch action {
        case .list:
            do throws(HTTPError) {
                return .notes(try await client.send(Request<[Note]>(path: "/notes")).value)
            } catch {
                throw APIEnvironment.failure(error, "cannot list the notes")
            }
        case .show(let id):
            return .note(try await read(id, client: client).note)
        case .add(let title, let body):
            let fields = Fields(title: title, body: body, updatedAt: now())
            do throws(HTTPError) {
                let request = Request<Note>(path: "/notes", method: .post, body: .json(fields))
                return .note(try await client.send(request).value)
            } catch {
                throw APIEnvironment.failure(error, "cannot add the note")
            }
        case .edit(let id, let title, let body):
            let (_, etag) = try await read(id, client: client)
            var request = Request<Note>(
                path: "/notes/\(id)", method: .patch, body: .json(Fields(title: title, body: body, updatedAt: now())))
            if let etag { request.headers.set("If-Match", etag) }
            do throws(HTTPError) {
                return .note(try await client.send(request).value)
            } catch {
                switch error.status?.code {
                case 404: throw .failure("note \(id) does not exist")
                case 412: throw .failure("note \(id) changed on the server while it was being edited; edit it again")
                default: throw APIEnvironment.failure(error, "cannot save note \(id)")
                }
            }
        case .remove(let id):
            do throws(HTTPError) {
                _ = try await client.send(Request<Void>(path: "/notes/\(id)", method: .delete))
                return .removed(id: id)
            } catch {
                if error.status?.code == 404 { throw .failure("note \(id) does not exist") }
                throw APIEnvironment.failure(error, "cannot delete note \(id)")
            }
        }
    }

    /// The note `id` and its ETag, from a `GET`.
    private static func read(_ id: Int, client: HTTPClient) async throws(CLIError) -> (note: Note, etag: String?) {
        do throws(HTTPError) {
            let response = try await client.send(Request<Note>(path: "/notes/\(id)"))
            return (response.value, response.headers["ETag"])
        } catch {
            if error.status?.code == 404 { throw .failure("note \(id) does not exist") }
            throw APIEnvironment.failure(error, "cannot read note \(id)")
        }
    }

    /// The current time as ISO 8601 UTC text, to the second.
    private static func now() -> String {
        Date().formatted(.iso8601)
    }
}
