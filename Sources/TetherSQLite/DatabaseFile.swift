import CSQLite
package import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Where a database file is made before SQLite opens it.
package enum DatabaseFile {
    /// Creates the folders above `file` that are missing with mode 0700, and `file` (empty: SQLite makes it a
    /// database) with mode 0600, so that other users of the machine cannot read what it holds. SQLite gives its
    /// `-wal` and `-shm` files the database file's mode. Folders and files that exist already keep theirs: the user
    /// chose them.
    ///
    /// - Throws: ``DatabaseError`` with SQLite's `SQLITE_CANTOPEN` code and the system's reason.
    package static func createPrivately(_ file: URL) throws(DatabaseError) {
        let manager = FileManager.default
        let directory = file.deletingLastPathComponent()
        if !manager.fileExists(atPath: directory.path) {
            do {
                try manager.createDirectory(
                    at: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            } catch {
                throw DatabaseError(
                    code: SQLITE_CANTOPEN, message: "cannot create \(directory.path): \(error.localizedDescription)",
                    sql: nil)
            }
        }
        guard !manager.fileExists(atPath: file.path) else { return }
        let descriptor = open(file.path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        if descriptor >= 0 {
            close(descriptor)
        } else if errno != EEXIST {
            let reason = String(cString: strerror(errno))
            throw DatabaseError(code: SQLITE_CANTOPEN, message: "cannot create \(file.path): \(reason)", sql: nil)
        }
    }
}
