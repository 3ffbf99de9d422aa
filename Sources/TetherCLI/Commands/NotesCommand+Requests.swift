import Foundation
import TetherAPIs
import TetherHTTP
import TetherJSON
import TetherStore

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
    static func perform(_ action: Action, client: HTTPClient, database: StoreDatabase? = nil) async throws(CLIError)
        -> Outcome
    {
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
            // The database picks the temporary id (`nil` here), below every one a waiting write holds.
            let draft = Note(id: -1, title: title, body: body, updatedAt: now())
            let outcome = try await send(
                NoteWrite(kind: .create, id: nil, value: draft), database: database, client: client)
            return .note(try decode(outcome, what: "the new note"))
        case .edit(let id, let title, let body):
            // The note as the server has it now, so the edit is sent over that version (If-Match); with the server
            // out of reach, the given fields alone are kept and sent later.
            var value: JSON.Object = ["id": .number(JSON.Number(id))]
            switch await readForEdit(id, client: client) {
            case .success(let (_, etag, bytes)):
                // Saved as the server's version; the local value stays the latest waiting write, if any, so this
                // edit is made over that (its PATCH then holds only what differs from the server).
                try? await database?.saveServerVersion(Note.self, id: String(id), json: bytes, etag: etag)
                let local = (try? await database?.localValue(Note.self, id: String(id))) ?? bytes
                if case .object(let object) = try? JSON(parsing: local) { value = object }
            case .failure(let error):
                if error.status?.code == 404 { throw .failure("note \(id) does not exist") }
                if !Outbox.isTransient(error) { throw APIEnvironment.failure(error, "cannot read note \(id)") }
                if let local = try? await database?.localValue(Note.self, id: String(id)),
                    case .object(let object) = try? JSON(parsing: local)
                {
                    value = object
                }
            }
            if let title { value["title"] = .string(title) }
            if let body { value["body"] = .string(body) }
            value["updatedAt"] = .string(now())
            let outcome = try await send(
                NoteWrite(kind: .update, id: id, json: .object(value)), database: database, client: client)
            return .note(try decode(outcome, what: "note \(id)"))
        case .remove(let id):
            let outcome = try await send(NoteWrite(kind: .delete, id: id), database: database, client: client)
            if case .failed(let error) = outcome, error.httpError?.status?.code == 404 {
                throw .failure("note \(id) does not exist")
            }
            _ = try decode(outcome, what: "note \(id)", expectsNote: false)
            return .removed(id: id)
        }
    }

    /// A write of a note, as the command hands it to the outbox (which keeps it as an `OutboxEntry`).
    struct NoteWrite: Sendable {
        var kind: OutboxEntry.Kind
        /// `nil` for a create: the database chooses a temporary id.
        var id: Int?
        var value: Data?

        init(kind: OutboxEntry.Kind, id: Int?, value: Note? = nil) {
            self.kind = kind
            self.id = id
            self.value = value.flatMap { try? TetherJSONEncoder().encode($0) }
        }

        init(kind: OutboxEntry.Kind, id: Int, json: JSON) {
            self.kind = kind
            self.id = id
            value = (try? JSONWriter().bytes(json)).map { Data($0) }
        }
    }

    /// What became of a write: the server's answer, or why there is none.
    enum WriteOutcome: Sendable {
        case confirmed(Data)
        case failed(StoreError)
        case pending(StoreError)
    }

    /// Saves the write in the outbox (so that it survives this process), then sends it with its
    /// `Idempotency-Key`, retrying transient failures a few times. A write the server refused leaves the outbox
    /// (nothing is kept); one whose outcome is unknown stays for `tether sync` or the app.
    static func send(_ draft: NoteWrite, database: StoreDatabase?, client: HTTPClient) async throws(CLIError)
        -> WriteOutcome
    {
        let retries = Outbox.Retries(maximumAttempts: 4, initialDelay: .milliseconds(250), maximumDelay: .seconds(2))
        guard let database else {
            // No database (TETHER_EPHEMERAL): an outbox in a temporary file, so the key is still sent, but kept
            // nowhere afterwards.
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("tether-\(UUID().uuidString)")
            defer { try? FileManager.default.removeItem(at: folder) }
            let temporary: StoreDatabase
            do {
                temporary = try StoreDatabase(url: folder.appendingPathComponent("outbox.sqlite"))
            } catch {
                throw .failure("cannot prepare the write: \(error.message)")
            }
            return try await send(draft, outbox: Outbox(database: temporary, client: client), retries: retries)
        }
        return try await send(draft, outbox: Outbox(database: database, client: client), retries: retries)
    }

    private static func send(_ draft: NoteWrite, outbox: Outbox, retries: Outbox.Retries) async throws(CLIError)
        -> WriteOutcome
    {
        let entry: OutboxEntry
        do {
            entry = try await outbox.enqueue(
                type: Note.self, id: draft.id.map { String($0) } ?? "", kind: draft.kind, value: draft.value)
        } catch {
            throw .failure("cannot save the write on this device: \(error.message)")
        }
        switch await outbox.send(entry.id, retries: retries) {
        case .confirmed(let body, _):
            return .confirmed(body)
        case .failed(let error):
            try? await outbox.discard(entry.id)
            return .failed(error)
        case .pending(let error):
            return .pending(error)
        }
    }

    /// The note in a confirmed answer; the failure or the pending state as a ``CLIError``.
    private static func decode(_ outcome: WriteOutcome, what: String, expectsNote: Bool = true) throws(CLIError)
        -> Note
    {
        switch outcome {
        case .confirmed(let body):
            guard expectsNote else { return Note(id: 0, title: "", body: "") }
            guard let note = try? TetherJSONDecoder().decode(Note.self, from: body) else {
                throw .failure("\(what) was saved, but the server's answer could not be read")
            }
            return note
        case .failed(let error):
            if case .conflict = error.kind {
                throw .failure("\(what) changed on the server while it was being edited; edit it again")
            }
            if let http = error.httpError { throw APIEnvironment.failure(http, "\(what) was not saved") }
            throw .failure("\(what) was not saved: \(error.message)")
        case .pending(let error):
            var reason = error.httpError.map { APIEnvironment.failure($0, "").message } ?? error.description
            reason = reason.replacingOccurrences(of: "tether: : ", with: "").trimmingCharacters(
                in: .whitespacesAndNewlines)
            throw .pending(
                "\(what): the server did not confirm the change (\(reason)); it is kept on this device and "
                    + "'tether sync' (or the app) will send it")
        }
    }

    /// The note, its ETag and its JSON, from a `GET` (one attempt).
    private static func readForEdit(_ id: Int, client: HTTPClient) async -> Result<(Note, String?, Data), HTTPError> {
        do throws(HTTPError) {
            var request = Request<Note>(path: "/notes/\(id)")
            request.retryPolicy = .never
            let response = try await client.send(request)
            return .success((response.value, response.headers["ETag"], response.data))
        } catch {
            return .failure(error)
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
