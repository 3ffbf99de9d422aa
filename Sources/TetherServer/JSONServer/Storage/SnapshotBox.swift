import Foundation

/// The latest published ``DatabaseState``, readable from any thread without waiting for the database actor.
///
/// - Thread safety: an `NSLock` guards the one stored value; the lock is held only to copy it in or out
///   (a few reference-count operations), never while working on it.
final class SnapshotBox: @unchecked Sendable {
    private let lock = NSLock()
    private var state: DatabaseState

    init(_ state: DatabaseState) { self.state = state }

    var current: DatabaseState {
        get { lock.withLock { state } }
        set { lock.withLock { state = newValue } }
    }
}
