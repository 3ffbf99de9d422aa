public import Foundation
public import Observation
import TetherJSON
import TetherSync

/// What the store knows about one entity: the value every list and detail view shows, and its sync state.
///
/// There is one `EntityState` per type and id in a store: ``EntityStore/entity(_:id:)`` returns the same object
/// to every caller, and every ``QueryState`` that contains the id reads its ``value`` from it, so an edit shows
/// everywhere at once. All properties are `@Observable` and change on the main actor.
///
/// ``value`` is the latest local edit while edits are being saved, else the latest server version. After a failed
/// save it returns to the server version and ``error`` says why; after a 412 ``conflict`` holds both versions.
@MainActor
public final class EntityState<Entity: RemoteEntity>: Observable {
    /// The state of the entity's synchronisation with the server.
    public enum Status: Sendable, Hashable {
        /// Known only by id; nothing loaded yet.
        case idle
        /// Being fetched.
        case loading
        /// Matches the last server answer.
        case synced
        /// Local edits are on their way to the server.
        case syncing
        /// The last load or save failed (see ``EntityState/error``).
        case failed
        /// Deleted on the server.
        case deleted
    }

    /// Where a write waiting in the store's outbox stands (only for stores with a database; see ``Outbox``).
    public enum WriteStatus: Sendable, Hashable {
        /// Saved on this device, waiting its turn.
        case queued
        /// Being sent now.
        case sending
        /// The server could not be reached (or asked to wait); it is sent again when it can be. While the store
        /// is offline (``OutboxStatus/isOffline``), the attempts that probe the server keep this status; the first
        /// answer replaces it.
        case waitingForNetwork
        /// The server refused it (see ``EntityState/error``); the local version is kept until the user retries
        /// (``EntityStore/retryWrites(of:)``) or discards it (``EntityStore/discardWrites(of:)``).
        case failed
        /// The server's version changed meanwhile (see ``EntityState/conflict``).
        case conflict
    }

    /// The entity's id. For a created entity this is the temporary id until the server answers, then the server's.
    public internal(set) var id: Entity.ID {
        get {
            access(keys.id)
            return _id
        }
        set { mutate(keys.id) { _id = newValue } }
    }
    /// The value to show, `nil` until loaded.
    public internal(set) var value: Entity? {
        get {
            access(keys.value)
            return _value
        }
        set { mutate(keys.value) { _value = newValue } }
    }
    /// Where the entity stands with the server.
    public internal(set) var status: Status {
        get {
            access(keys.status)
            return _status
        }
        set { mutate(keys.status) { _status = newValue } }
    }
    /// The last failure, cleared by the next success.
    public internal(set) var error: StoreError? {
        get {
            access(keys.error)
            return _error
        }
        set { mutate(keys.error) { _error = newValue } }
    }
    /// Both versions after a conflicting edit (412); resolve with ``EntityStore/resolveConflict(_:keeping:)``.
    public internal(set) var conflict: Conflict<Entity>? {
        get {
            access(keys.conflict)
            return _conflict
        }
        set { mutate(keys.conflict) { _conflict = newValue } }
    }
    /// When the value last came from the server.
    public internal(set) var updatedAt: Date? {
        get {
            access(keys.updatedAt)
            return _updatedAt
        }
        set { mutate(keys.updatedAt) { _updatedAt = newValue } }
    }
    /// Where the entity's waiting writes stand; `nil` when none waits.
    public internal(set) var writeStatus: WriteStatus? {
        get {
            access(keys.writeStatus)
            return _writeStatus
        }
        set { mutate(keys.writeStatus) { _writeStatus = newValue } }
    }

    // The observed properties' storage. Observation is written out rather than made by `@Observable`: in a generic
    // class the macro's `\.value` builds a new key path at every read and write (several µs each in a Linux
    // profile), so the key paths are made once per entity type (``EntityStateKeyPaths``).
    private var _id: Entity.ID
    private var _value: Entity?
    private var _status: Status = .idle
    private var _error: StoreError?
    private var _conflict: Conflict<Entity>?
    private var _updatedAt: Date?
    private var _writeStatus: WriteStatus?
    private let keys = EntityStateKeyPaths<Entity>.shared
    private let registrar = ObservationRegistrar()

    private nonisolated func access<Member>(_ keyPath: KeyPath<EntityState, Member>) {
        registrar.access(self, keyPath: keyPath)
    }

    private nonisolated func mutate<Member>(_ keyPath: KeyPath<EntityState, Member>, _ mutation: () -> Void) {
        registrar.withMutation(of: self, keyPath: keyPath, mutation)
    }

    // Store bookkeeping, not observed. Kept small: a store holds many entities, most of them only ever read.
    var queryReferences = 0
    var unusedSince: Date?
    weak var store: EntityStore?
    /// Everything an entity needs once it is edited, observed or loaded on its own; `nil` for most entities. While
    /// it is `nil`, the server version is ``value``.
    var sync: SyncState<Entity>?

    /// The last version the server confirmed (`nil` for an entity created here and not saved yet).
    var serverValue: Entity? {
        get { sync.map { $0.serverValue } ?? value }
        set {
            if sync == nil && newValue == value { return }
            syncState().serverValue = newValue
        }
    }

    /// ``serverValue`` as JSON, when known: what the server sent for it, or its encoding kept from an earlier write
    /// (``encodedServerValue()``). Setting ``serverValue`` clears it.
    var serverJSON: Data? {
        get { sync?.serverJSON }
        set {
            if sync == nil && newValue == nil { return }
            syncState().serverJSON = newValue
        }
    }

    /// ``serverValue`` as JSON: the bytes kept in ``serverJSON``, or its encoding (then kept there), so an entity
    /// edited many times is encoded once per server version.
    ///
    /// - Throws: the encoder's error.
    func encodedServerValue() throws -> Data? {
        if let kept = serverJSON { return kept }
        guard let server = serverValue else { return nil }
        let bytes = try TetherJSONEncoder().encode(server)
        serverJSON = bytes
        return bytes
    }

    /// The server's version from the confirmation of outbox entry `outboxID`, when this state applied it last: the
    /// write's caller takes it instead of decoding the answer again.
    func takeConfirmedValue(of outboxID: Int64) -> Entity? {
        guard let confirmed = sync?.confirmed, confirmed.outboxID == outboxID else { return nil }
        sync?.confirmed = nil
        return confirmed.value
    }

    /// The entity's ETag, when a response for it carried one.
    var etag: String? {
        get { sync?.etag }
        set {
            if sync == nil && newValue == nil { return }
            syncState().etag = newValue
        }
    }

    /// Local edits not yet confirmed, oldest first.
    /// When a write to this entity last began, on the store's write counter (0: never). A read that was sent
    /// before it may carry the version from before the write, so it must not replace the value.
    var lastWrite: UInt64 {
        get { sync?.lastWrite ?? 0 }
        set {
            if sync == nil && newValue == 0 { return }
            syncState().lastWrite = newValue
        }
    }

    var pendingEdits: [PendingEdit<Entity>] {
        get { sync?.pendingEdits ?? [] }
        set {
            if sync == nil && newValue.isEmpty { return }
            syncState().pendingEdits = newValue
        }
        // In place: a get-then-set would copy the whole array at every append, removal or change of one edit
        // (quadratic over a burst of edits of one entity).
        _modify {
            if let sync {
                yield &sync.pendingEdits
            } else {
                var edits: [PendingEdit<Entity>] = []
                yield &edits
                if !edits.isEmpty { syncState().pendingEdits = edits }
            }
        }
    }

    /// Removes the pending edits that `matches`, in place (none is copied).
    func removePendingEdit(where matches: (PendingEdit<Entity>) -> Bool) {
        sync?.pendingEdits.removeAll(where: matches)
    }

    var loadTask: Task<Void, Never>? {
        get { sync?.loadTask }
        set { syncState().loadTask = newValue }
    }

    var saveChain: Latch<Void>? {
        get { sync?.saveChain }
        set { syncState().saveChain = newValue }
    }

    var saveGate: Latch<Void>? {
        get { sync?.saveGate }
        set { syncState().saveGate = newValue }
    }

    var hasObservers: Bool { !(sync?.observers.isEmpty ?? true) }

    private func syncState() -> SyncState<Entity> {
        if let sync { return sync }
        let created = SyncState<Entity>(serverValue: value)
        sync = created
        return created
    }

    init(id: Entity.ID) {
        _id = id
    }

    /// A state for a server version, set up without going through observation (nothing observes it yet).
    ///
    /// The hot path of ingesting a page: nothing can observe the state yet, so the storage is written directly.
    init(serverVersion entity: Entity, at date: Date) {
        _id = entity.id
        _value = entity
        _status = .synced
        _updatedAt = date
    }

    /// Loads the entity from `collectionPath/id` (joining a load already running). Local edits on their way are
    /// kept; a failure sets ``error`` and keeps the value shown.
    public func load() async {
        if let loadTask {
            await loadTask.value
            return
        }
        guard let store else { return }
        let task = Task { @MainActor in
            await store.loadEntity(self)
            self.loadTask = nil
        }
        loadTask = task
        await task.value
    }

    /// Forgets the last failure (a message the user dismissed). A failed status becomes ``Status/synced`` when a
    /// value is shown, else ``Status/idle``. A write the server refused stays in the outbox all the same
    /// (``writeStatus`` still says so): only ``EntityStore/retryWrites(of:)`` or
    /// ``EntityStore/discardWrites(of:)`` end it.
    public func clearError() {
        guard error != nil || status == .failed else { return }
        error = nil
        if status == .failed && writeStatus != .failed && writeStatus != .conflict {
            status = value == nil ? .idle : (pendingEdits.isEmpty ? .synced : .syncing)
        }
        if let store { store.entityChanged(self) } else { changed() }
    }

    /// Calls `handler` now and after every change, on the main actor, until the token is cancelled or released.
    public func observe(_ handler: @escaping @MainActor (EntityState<Entity>) -> Void) -> ObservationToken {
        let id = makeObserverID()
        syncState().observers.add(id: id, handler)
        handler(self)
        return ObservationToken { [weak self] in self?.sync?.observers.remove(id: id) }
    }

    /// The states of this entity as an asynchronous sequence, for code that does not use Observation: the current
    /// snapshot first, then one per change.
    public var snapshots: AsyncStream<Snapshot> {
        AsyncStream(bufferingPolicy: .bufferingNewest(32)) { continuation in
            let token = observe { continuation.yield(Snapshot($0)) }
            continuation.onTermination = { _ in Task { @MainActor in token.cancel() } }
        }
    }

    /// A value copy of the observable state.
    public struct Snapshot: Sendable {
        public var id: Entity.ID
        public var value: Entity?
        public var status: Status
        public var error: StoreError?
        public var hasConflict: Bool
        public var writeStatus: WriteStatus?

        @MainActor
        init(_ state: EntityState<Entity>) {
            id = state.id
            value = state.value
            status = state.status
            error = state.error
            hasConflict = state.conflict != nil
            writeStatus = state.writeStatus
        }
    }

    /// Tells the closure observers; Observation users are told by the property setters.
    func changed() {
        sync?.observers.notify(self)
    }
}

/// The key paths of ``EntityState``'s observed properties, made once per entity type and shared by its states.
final class EntityStateKeyPaths<Entity: RemoteEntity>: @unchecked Sendable {
    // Immutable after init; key paths are immutable values.
    let id: KeyPath<EntityState<Entity>, Entity.ID>
    let value: KeyPath<EntityState<Entity>, Entity?>
    let status: KeyPath<EntityState<Entity>, EntityState<Entity>.Status>
    let error: KeyPath<EntityState<Entity>, StoreError?>
    let conflict: KeyPath<EntityState<Entity>, Conflict<Entity>?>
    let updatedAt: KeyPath<EntityState<Entity>, Date?>
    let writeStatus: KeyPath<EntityState<Entity>, EntityState<Entity>.WriteStatus?>

    @MainActor private init() {
        id = \.id
        value = \.value
        status = \.status
        error = \.error
        conflict = \.conflict
        updatedAt = \.updatedAt
        writeStatus = \.writeStatus
    }

    /// The key paths for `Entity`, made on first use.
    @MainActor static var shared: EntityStateKeyPaths<Entity> {
        let key = ObjectIdentifier(Entity.self)
        return entityStateKeyPaths.withLock { cache in
            if let found = cache[key] { return unsafeDowncast(found, to: EntityStateKeyPaths<Entity>.self) }
            let made = EntityStateKeyPaths<Entity>()
            cache[key] = made
            return made
        }
    }
}

/// ``EntityStateKeyPaths`` by entity type.
private let entityStateKeyPaths = Locked<[ObjectIdentifier: AnyObject]>([:])

/// The two versions of an entity after a conflicting edit.
public final class Conflict<Entity: RemoteEntity>: Sendable {
    /// The edit the server refused.
    public let local: Entity
    /// The server's current version (`nil` when it could not be read, or the entity was deleted).
    public let server: Entity?

    init(local: Entity, server: Entity?) {
        self.local = local
        self.server = server
    }
}

/// The part of an entity's state that only edited, observed or separately loaded entities need.
@MainActor
final class SyncState<Entity: RemoteEntity> {
    var serverValue: Entity? {
        didSet { serverJSON = nil }
    }
    /// `serverValue` as JSON, when known (see ``EntityState/serverJSON``); cleared whenever `serverValue` is set.
    var serverJSON: Data?
    /// The server's version an outbox confirmation carried, by entry, until the write's caller takes it.
    var confirmed: (outboxID: Int64, value: Entity)?
    var etag: String?
    var pendingEdits: [PendingEdit<Entity>] = []
    /// The store's write counter when a write to this entity (an update or a delete) last began.
    var lastWrite: UInt64 = 0
    var loadTask: Task<Void, Never>?
    /// Opened once the latest write of this entity has its outcome applied: the next one's is applied after it.
    var saveChain: Latch<Void>?
    /// Opened once the latest write of this entity is saved in the outbox (or failed to be): the next write is
    /// saved after it, so the outbox holds them in the order they were made.
    var saveGate: Latch<Void>?
    var observers = ObserverList<EntityState<Entity>>()

    init(serverValue: Entity?) {
        self.serverValue = serverValue
    }
}

/// One local edit on its way to the server.
struct PendingEdit<Entity: RemoteEntity>: Sendable {
    let number: UInt64
    let value: Entity
    /// Its entry in the outbox, when the store has a database.
    var outboxID: Int64? = nil
}
