import Foundation
import Synchronization
import TetherSync

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The disk tier: one file per entry in a directory, least recently used evicted first once the files' total size
/// passes the limit.
///
/// - Files are named by ``CacheKey/fileName(for:)``, created with mode 0600 in a directory created with mode 0700,
///   and hold ``CacheEntryCodec``'s format, whose key is checked on reading.
/// - Writes are atomic: a temporary file in the same directory, `fsync`, then `rename` over the entry, so a reader
///   (or a crash) sees the old entry or the new one, never half of one. Temporary files left by a crash are deleted
///   when the tier opens. The directory itself is not synced, so after a power loss the newest entries may be
///   missing, which for a cache is only a miss.
/// - Opening lists the directory and orders existing entries by modification time; a hit touches its file, so the
///   order survives restarts. A file that is corrupt, truncated, of another format version or holding another key
///   is deleted when read and counts as a miss.
/// - Sizes count file bytes, not allocated blocks. An entry larger than the whole limit is not written.
/// - One ``HTTPCache`` per directory at a time is the supported setup; files changed behind its back are at
///   worst misses, never crashes.
///
/// - Complexity: lookups and removals are O(1) in the number of entries plus the file I/O (O(n) in its size);
///   opening is O(n log n) in the number of files.
/// - Thread safety: safe from any thread; the index and the file operations run under one `Locked`, so disk work
///   is serialised.
final class DiskCacheTier: Sendable {
    /// Why a directory cannot be used.
    struct Unavailable: Error {
        var reason: String
    }

    private struct State {
        var files = LRUList<String, Void>()
        var lastError: String?
    }

    let directory: URL
    let sizeLimit: Int
    private let path: String
    private let state = Locked(State())

    /// Opens the tier on `directory`, creating it (and missing parents) with mode 0700.
    init(directory: URL, sizeLimit: Int) throws(Unavailable) {
        self.directory = directory
        self.sizeLimit = max(0, sizeLimit)
        path = directory.standardizedFileURL.path
        do {
            try FileManager.default.createDirectory(
                atPath: path, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        } catch {
            throw Unavailable(reason: "cannot create the cache directory \(path): \(error.localizedDescription)")
        }
        var info = stat()
        guard stat(path, &info) == 0, info.st_mode & S_IFMT == S_IFDIR else {
            throw Unavailable(reason: "the cache directory \(path) is not a directory")
        }
        guard access(path, R_OK | W_OK | X_OK) == 0 else { throw Unavailable(reason: Self.failure("access", path)) }
        let found = scan()
        state.withLock { state in
            for file in found { state.files.set((), cost: file.size, for: file.name) }
            evict(&state)
        }
    }

    var size: Int { state.withLock { $0.files.totalCost } }
    var lastError: String? { state.withLock { $0.lastError } }

    /// The record stored for `key`, or `nil`; an unreadable, invalid or foreign file is deleted.
    func load(_ key: String) -> CacheEntryCodec.Record? {
        let name = CacheKey.fileName(for: key)
        return state.withLock { state in
            guard state.files.value(for: name) != nil else { return nil }
            let filePath = path + "/" + name
            guard let bytes = Self.readFile(filePath) else {
                state.files.removeValue(for: name)
                return nil
            }
            guard let record = CacheEntryCodec.decode(bytes), record.key == key else {
                state.files.removeValue(for: name)
                unlink(filePath)
                return nil
            }
            utimensat(AT_FDCWD, filePath, nil, 0)
            return record
        }
    }

    /// Writes `record` as the entry for its key, then evicts down to the limit; returns whether it was written.
    ///
    /// `shouldWrite` is asked under the tier's lock, just before the write; when it says no, nothing is written
    /// (``DiskCacheWriter`` uses it so that a queued write superseded by a later removal never lands).
    @discardableResult
    func save(_ record: CacheEntryCodec.Record, if shouldWrite: () -> Bool = { true }) -> Bool {
        let bytes = CacheEntryCodec.encode(record)
        let name = CacheKey.fileName(for: record.key)
        return state.withLock { state in
            guard shouldWrite() else { return false }
            guard bytes.count <= sizeLimit else {
                state.files.removeValue(for: name)
                unlink(path + "/" + name)
                return false
            }
            if let failure = writeAtomically(bytes, to: name) {
                state.lastError = failure
                state.files.removeValue(for: name)
                unlink(path + "/" + name)
                return false
            }
            state.lastError = nil
            state.files.set((), cost: bytes.count, for: name)
            evict(&state)
            return true
        }
    }

    func remove(_ key: String) {
        let name = CacheKey.fileName(for: key)
        state.withLock { state in
            state.files.removeValue(for: name)
            unlink(path + "/" + name)
        }
    }

    /// Deletes the entries whose key `matches`: each file of the index is read for its key (a purge is rare, at a
    /// logout say; the index holds file names only). An unreadable file is deleted too.
    ///
    /// - Complexity: O(n) file reads for n entries.
    func removeAll(where matches: (String) -> Bool) {
        state.withLock { state in
            for name in state.files.keysOldestFirst {
                let filePath = path + "/" + name
                let key = Self.readFile(filePath).flatMap { CacheEntryCodec.decode($0) }?.key
                if key.map(matches) ?? true {
                    state.files.removeValue(for: name)
                    unlink(filePath)
                }
            }
        }
    }

    /// Deletes every entry file and temporary file in the directory, known to the index or not.
    func removeAll() {
        state.withLock { state in
            state.files.removeAll()
            for name in (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []
            where Self.isEntryName(name) || name.hasPrefix(CacheKey.temporaryPrefix) {
                unlink(path + "/" + name)
            }
        }
    }

    // MARK: - Files

    private func evict(_ state: inout State) {
        while state.files.totalCost > sizeLimit, let oldest = state.files.removeOldest() {
            unlink(path + "/" + oldest.key)
        }
    }

    /// The entry files in the directory, oldest modification first; temporary files are deleted.
    private func scan() -> [(name: String, size: Int)] {
        var found: [(name: String, size: Int, modified: Double)] = []
        for name in (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? [] {
            let filePath = path + "/" + name
            if name.hasPrefix(CacheKey.temporaryPrefix) {
                unlink(filePath)
                continue
            }
            var info = stat()
            guard Self.isEntryName(name), stat(filePath, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { continue }
            #if canImport(Darwin)
                let time = info.st_mtimespec
            #else
                let time = info.st_mtim
            #endif
            let modified = Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
            found.append((name, Int(info.st_size), modified))
        }
        found.sort { ($0.modified, $0.name) < ($1.modified, $1.name) }
        return found.map { ($0.name, $0.size) }
    }

    private static func isEntryName(_ name: String) -> Bool {
        name.utf8.count == 16 + 1 + CacheKey.fileExtension.utf8.count && name.hasSuffix("." + CacheKey.fileExtension)
    }

    /// Writes `bytes` to a temporary file (mode 0600), syncs it and renames it to `name`; returns the failure.
    private func writeAtomically(_ bytes: [UInt8], to name: String) -> String? {
        let temporaryPath = path + "/" + CacheKey.temporaryPrefix + UUID().uuidString
        let descriptor = open(temporaryPath, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { return Self.failure("open", temporaryPath) }
        var failure: String?
        if fchmod(descriptor, 0o600) != 0 { failure = Self.failure("fchmod", temporaryPath) }
        if failure == nil {
            failure = bytes.withUnsafeBytes { buffer in
                var written = 0
                while written < buffer.count {
                    let count = write(descriptor, buffer.baseAddress! + written, buffer.count - written)
                    if count < 0, errno == EINTR { continue }
                    guard count > 0 else { return Self.failure("write", temporaryPath) }
                    written += count
                }
                return nil
            }
        }
        if failure == nil, fsync(descriptor) != 0 { failure = Self.failure("fsync", temporaryPath) }
        if close(descriptor) != 0, failure == nil { failure = Self.failure("close", temporaryPath) }
        if failure == nil, rename(temporaryPath, path + "/" + name) != 0 {
            failure = Self.failure("rename", temporaryPath)
        }
        if failure != nil { unlink(temporaryPath) }
        return failure
    }

    /// The whole file at `filePath`, or `nil` when it cannot be read.
    private static func readFile(_ filePath: String) -> [UInt8]? {
        let descriptor = open(filePath, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { return nil }
        let size = Int(info.st_size)
        var bytes = [UInt8](repeating: 0, count: size)
        var total = 0
        let complete = bytes.withUnsafeMutableBytes { buffer in
            while total < size {
                let count = read(descriptor, buffer.baseAddress! + total, size - total)
                if count < 0, errno == EINTR { continue }
                guard count > 0 else { return false }
                total += count
            }
            return true
        }
        return complete ? bytes : nil
    }

    private static func failure(_ operation: String, _ path: String) -> String {
        "\(operation) \(path): \(String(cString: strerror(errno)))"
    }
}
