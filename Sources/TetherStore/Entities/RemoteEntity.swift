import Foundation
import Synchronization

/// A type the store keeps normalized: one value per id, shared by every query and detail view.
///
/// Conform a model to use it with ``EntityStore``: say where its REST collection lives, and the store knows how to
/// read, create, update and delete it (`GET/POST /notes`, `GET/PATCH/PUT/DELETE /notes/<id>`).
///
/// ```swift
/// import TetherStore
///
/// struct Note: RemoteEntity {
///     static let collectionPath = "/notes"
///     var id: Int
///     var title: String
///     var body: String
/// }
/// ```
public protocol RemoteEntity: Identifiable, Codable, Sendable, Equatable
where ID: Hashable & Sendable & LosslessStringConvertible {
    /// The path of the entity's collection, relative to the client's base URL (`"/notes"`).
    static var collectionPath: String { get }

    /// An id for an entity created locally and not yet saved; it must never collide with a server id.
    ///
    /// Defaults: negative numbers for `Int` ids, `"tmp-<UUID>"` for `String` ids.
    static func temporaryID() -> ID
}

extension RemoteEntity {
    /// The path of one entity: the collection path and the id.
    static func path(for id: ID) -> String {
        collectionPath + "/" + String(describing: id)
    }
}

private let temporaryCounter = Atomic<Int>(0)

/// Makes later temporary `Int` ids start below `smallest` (a temporary id kept in a database from an earlier run),
/// so that a new one never names an entity still waiting in the outbox.
func reserveTemporaryIDs(below smallest: Int) {
    guard smallest < 0 else { return }
    var current = temporaryCounter.load(ordering: .relaxed)
    while current < -smallest {
        let (exchanged, original) = temporaryCounter.compareExchange(
            expected: current, desired: -smallest, ordering: .relaxed)
        if exchanged { return }
        current = original
    }
}

extension RemoteEntity where ID == Int {
    public static func temporaryID() -> Int {
        -(temporaryCounter.add(1, ordering: .relaxed).newValue)
    }
}

extension RemoteEntity where ID == String {
    public static func temporaryID() -> String { "tmp-" + UUID().uuidString }
}
