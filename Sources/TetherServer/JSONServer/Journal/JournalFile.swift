import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The journal file open for appending: the I/O beside the pure ``JournalCodec``.
///
/// A record is written with one `write` (``write(_:tearAt:)``) and made durable with `fdatasync` (``sync()``),
/// or both at once (``append(_:tearAt:)``); a write acknowledged after the sync survives a kill -9 or a power
/// loss. A failed write is cut off again (`ftruncate` to the length before it), so the file never holds half a
/// record the server goes on after.
///
/// - Thread safety: owned by one ``JournalStorage`` on the database actor; only ``sync()`` may be called from
///   another thread (the group commit's), concurrently with writes. The descriptor is closed when the object
///   goes, so a sync in flight keeps it open by holding the object.
final class JournalFile: @unchecked Sendable {
    let url: URL
    private var fd: Int32
    /// The file's length: the end of its last whole record.
    private(set) var length: Int

    /// Opens the journal at `url` for appending after its first `length` bytes; bytes beyond (a torn tail) are
    /// truncated away, and the truncation is synced.
    init(url: URL, length: Int) throws(ServerError) {
        self.url = url
        self.length = length
        fd = open(url.path, O_WRONLY | O_CLOEXEC)
        guard fd >= 0 else { throw AtomicFileWriter.failure("cannot open \(url.path)") }
        var status = stat()
        if fstat(fd, &status) == 0, Int(status.st_size) != length {
            guard ftruncate(fd, off_t(length)) == 0, fsync(fd) == 0 else {
                let error = AtomicFileWriter.failure("cannot truncate the torn tail of \(url.path)")
                close(fd)
                throw error
            }
        }
        guard lseek(fd, off_t(length), SEEK_SET) >= 0 else {
            let error = AtomicFileWriter.failure("cannot seek in \(url.path)")
            close(fd)
            throw error
        }
    }

    deinit { close(fd) }

    /// Replaces the journal at `url` atomically by a new one holding `bytes` (the magic and a base record) and
    /// opens it: the old journal stays whole until the new one is durable.
    static func create(at url: URL, bytes: [UInt8]) throws(ServerError) -> JournalFile {
        try AtomicFileWriter.write(bytes, to: url)
        return try JournalFile(url: url, length: bytes.count)
    }

    /// The file's bytes, or `nil` when there is no file.
    static func read(_ url: URL) throws(ServerError) -> [UInt8]? {
        guard FileManager.default.fileExists(atPath: url.path) else { return nil }
        do {
            return Array(try Data(contentsOf: url))
        } catch {
            throw ServerError(.databaseIO, "cannot read \(url.path): \(error.localizedDescription)")
        }
    }

    /// Appends `bytes` and syncs them.
    ///
    /// `tearAt`, for tests of crashes: writes only that many of the bytes, and no sync, as a process killed
    /// mid-append would leave them; then throws.
    func append(_ bytes: [UInt8], tearAt: Int? = nil) throws(ServerError) {
        try write(bytes, tearAt: tearAt)
        guard syncData(fd) == 0 else { throw AtomicFileWriter.failure("cannot sync \(url.path)") }
    }

    /// Makes everything written so far durable (`fdatasync`); `nil`, or the failure's message.
    func sync() -> String? {
        guard syncData(fd) != 0 else { return nil }
        return AtomicFileWriter.failure("cannot sync \(url.path)").message
    }

    /// Appends `bytes` without syncing them (see ``sync()``).
    ///
    /// `tearAt`, for tests of crashes: writes only that many of the bytes, as a process killed mid-append would
    /// leave them; then throws.
    func write(_ bytes: [UInt8], tearAt: Int? = nil) throws(ServerError) {
        let count = min(tearAt ?? bytes.count, bytes.count)
        var written = 0
        while written < count {
            let result = bytes.withUnsafeBytes { buffer in
                AtomicFileWriter.systemWrite(fd, buffer.baseAddress! + written, count - written)
            }
            if result < 0 {
                if errno == EINTR { continue }
                throw cutBack(AtomicFileWriter.failure("cannot append to \(url.path)"))
            }
            written += result
        }
        if tearAt != nil { throw ServerError(.databaseIO, "the append was torn (a simulated crash)") }
        length += count
    }

    /// Cuts the file back to ``length`` after a failed append; returns `error`.
    private func cutBack(_ error: ServerError) -> ServerError {
        _ = ftruncate(fd, off_t(length))
        _ = lseek(fd, off_t(length), SEEK_SET)
        return error
    }

    /// `fdatasync` (the file's data and length, not its times); `fsync` where there is no `fdatasync`.
    private func syncData(_ fd: Int32) -> Int32 {
        #if canImport(Darwin)
            fsync(fd)
        #else
            fdatasync(fd)
        #endif
    }
}
