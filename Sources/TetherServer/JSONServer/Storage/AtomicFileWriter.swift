import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Replaces a file so that readers, and the disk after a crash, see either the old bytes or the new ones,
/// never a mix: write a temporary file in the same directory, `fsync` it, `rename` it over the target, then
/// `fsync` the directory so the rename itself is durable.
enum AtomicFileWriter {
    /// Writes `bytes` to `url` atomically. On failure the temporary file is removed and the target is untouched.
    static func write(_ bytes: [UInt8], to url: URL) throws(ServerError) {
        let path = url.path
        let directory = url.deletingLastPathComponent().path
        let temporary =
            directory + "/." + url.lastPathComponent + ".tmp-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        // The replacement keeps the mode of the file it replaces (a db.json the user made private stays private);
        // a new file gets 0644, less the process's umask.
        var existing = stat()
        let mode: mode_t = stat(path, &existing) == 0 ? existing.st_mode & 0o7777 : 0o644
        let fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode)
        guard fd >= 0 else { throw failure("cannot create \(temporary)") }
        // `open` applies the umask: the old file's mode is set again exactly.
        if stat(path, &existing) == 0 { _ = fchmod(fd, mode) }
        var written = 0
        while written < bytes.count {
            let result = bytes.withUnsafeBytes { buffer in
                systemWrite(fd, buffer.baseAddress! + written, buffer.count - written)
            }
            if result < 0 {
                if errno == EINTR { continue }
                let error = failure("cannot write \(temporary)")
                close(fd)
                unlink(temporary)
                throw error
            }
            written += result
        }
        if fsync(fd) != 0 {
            let error = failure("cannot fsync \(temporary)")
            close(fd)
            unlink(temporary)
            throw error
        }
        close(fd)
        if rename(temporary, path) != 0 {
            let error = failure("cannot rename \(temporary) to \(path)")
            unlink(temporary)
            throw error
        }
        syncDirectory(directory)
    }

    /// `fsync`s the directory at `path`, so the entries made or renamed in it are durable.
    static func syncDirectory(_ path: String) {
        let directoryFD = open(path, O_RDONLY | O_CLOEXEC)
        if directoryFD >= 0 {
            _ = fsync(directoryFD)
            close(directoryFD)
        }
    }

    /// Removes the temporary files that writes to `url` left behind when their process was killed mid-write
    /// (`.<name>.tmp-<pid>-<n>` beside it); a write in progress in another live process is left alone.
    static func removeLeftovers(of url: URL) {
        let directory = url.deletingLastPathComponent().path
        let prefix = "." + url.lastPathComponent + ".tmp-"
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory) else { return }
        for name in names where name.hasPrefix(prefix) {
            let pid = name.dropFirst(prefix.count).split(separator: "-").first.flatMap { Int32($0) }
            if let pid, pid != getpid(), kill(pid, 0) == 0 { continue }
            unlink(directory + "/" + name)
        }
    }

    /// `write(2)`, from the platform's C library (shared with the journal's appends).
    static func systemWrite(_ fd: Int32, _ pointer: UnsafeRawPointer, _ count: Int) -> Int {
        #if canImport(Glibc)
            Glibc.write(fd, pointer, count)
        #elseif canImport(Musl)
            Musl.write(fd, pointer, count)
        #else
            Darwin.write(fd, pointer, count)
        #endif
    }

    /// A `databaseIO` error with `errno`'s text (shared with the journal).
    static func failure(_ message: String) -> ServerError {
        let code = errno
        return ServerError(.databaseIO, "\(message): \(String(cString: strerror(code)))", systemError: code)
    }
}
