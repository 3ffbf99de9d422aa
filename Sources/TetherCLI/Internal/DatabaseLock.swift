import Foundation
import TetherSync

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// An exclusive lock on the embedded server's database file, held by the one process that serves it.
///
/// Each process that serves the file loads it whole and writes it whole on every change, so two at once would
/// each write their own copy and the last write would drop the other's notes. The lock is a `flock` on
/// `<file>.lock` beside it: advisory, released by ``release()`` or, whatever happens, when the process ends (a
/// crash leaves no stale lock).
///
/// - Thread safety: `release()` may be called from any thread, more than once.
final class DatabaseLock: Sendable {
    private let descriptor: Int32
    private let released = Locked(false)

    private init(descriptor: Int32) {
        self.descriptor = descriptor
    }

    /// The lock file for `databaseFile`.
    static func lockFile(for databaseFile: URL) -> URL {
        databaseFile.appendingPathExtension("lock")
    }

    /// Takes the lock if no other process holds it; `nil` when one does.
    ///
    /// - Throws: ``CLIError/failure(_:)`` when the lock file cannot be created (its folder is not writable).
    static func tryAcquire(for databaseFile: URL) throws(CLIError) -> DatabaseLock? {
        let file = lockFile(for: databaseFile)
        try? FileManager.default.createDirectory(
            at: file.deletingLastPathComponent(), withIntermediateDirectories: true,
            attributes: [.posixPermissions: 0o700])
        let descriptor = open(file.path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else {
            throw .failure("cannot open \(file.path): \(String(cString: strerror(errno)))")
        }
        var result: Int32
        repeat { result = flock(descriptor, LOCK_EX | LOCK_NB) } while result != 0 && errno == EINTR
        guard result == 0 else {
            close(descriptor)
            return nil
        }
        return DatabaseLock(descriptor: descriptor)
    }

    /// Gives the lock up. Idempotent.
    func release() {
        let first = released.withLock { released -> Bool in
            defer { released = true }
            return !released
        }
        if first { close(descriptor) }
    }

    deinit { release() }
}
