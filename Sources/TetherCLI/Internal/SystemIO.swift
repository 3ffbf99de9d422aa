#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Whole-file reads and writes with POSIX calls, so the CLI needs no Foundation.
enum SystemIO {
    /// An I/O failure, described by the system's message for `errno`.
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// Reads the whole file at `path`.
    static func read(path: String) throws(Failure) -> [UInt8] {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw Failure(errno: errno) }
        defer { close(fd) }
        return try read(descriptor: fd)
    }

    /// Reads `descriptor` to its end; does not close it.
    static func read(descriptor: Int32) throws(Failure) -> [UInt8] {
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let count = chunk.withUnsafeMutableBytes { systemRead(descriptor, $0.baseAddress, $0.count) }
            if count > 0 {
                bytes.append(contentsOf: chunk[0..<count])
            } else if count == 0 {
                return bytes
            } else if errno != EINTR {
                throw Failure(errno: errno)
            }
        }
    }

    /// Writes all of `bytes` to `descriptor`, retrying short writes; gives up quietly if the reader has gone.
    static func write(_ bytes: [UInt8], to descriptor: Int32) {
        bytes.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let count = systemWrite(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
                if count > 0 {
                    offset += count
                } else if count < 0, errno == EINTR {
                    continue
                } else {
                    return
                }
            }
        }
    }
}

extension SystemIO.Failure {
    init(errno code: Int32) {
        description = String(cString: strerror(code))
    }
}

// The POSIX functions, reached without clashing with `SystemIO.read` and `write`.
private func systemRead(_ fd: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int) -> Int {
    read(fd, buffer, count)
}

private func systemWrite(_ fd: Int32, _ buffer: UnsafeRawPointer, _ count: Int) -> Int {
    write(fd, buffer, count)
}
