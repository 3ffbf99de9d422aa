import Foundation
import TetherJSON

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The note that an embedded server is running, so that other `tether` processes on the same data use it rather
/// than start their own: `embedded-server.json` next to the database file, `{"pid": 123, "port": 43121}`.
///
/// Without it, the full-screen app and a `tether notes add` run in another shell would each hold the data in
/// memory, and the next write of one would replace the file with its copy, dropping the other's note.
///
/// A record is used only while its process is alive and its port accepts connections on 127.0.0.1, so one left
/// behind by a crash is ignored (and replaced). The process that wrote a record removes it when its server
/// stops, unless another process has replaced it since.
///
/// - Thread safety: plain file operations; two processes starting at the same moment may both start a server,
///   and the record then names the later one.
struct SharedEmbeddedServer: Equatable, Sendable {
    /// The process that runs the server.
    var pid: Int32
    /// The server's port on 127.0.0.1.
    var port: Int

    /// The record's file for the database `databaseFile`.
    static func recordFile(for databaseFile: URL) -> URL {
        databaseFile.deletingLastPathComponent().appendingPathComponent("embedded-server.json")
    }

    /// The server named in `file`, if the file is readable and the server is up.
    static func running(recordedIn file: URL) -> SharedEmbeddedServer? {
        guard let data = FileManager.default.contents(atPath: file.path),
            let json = try? JSONParser().parse([UInt8](data)),
            let pid = json["pid"].number?.int, let port = json["port"].number?.int,
            pid > 0, pid <= Int(Int32.max), (1...65535).contains(port)
        else { return nil }
        let record = SharedEmbeddedServer(pid: Int32(pid), port: port)
        return record.isUp ? record : nil
    }

    /// Writes the record to `file` (atomically); failures are ignored, as sharing is an optimisation.
    func write(to file: URL) {
        let text = #"{"pid": \#(pid), "port": \#(port)}"# + "\n"
        try? Data(text.utf8).write(to: file, options: .atomic)
    }

    /// Removes `file` if it still holds this record.
    func remove(from file: URL) {
        guard let data = FileManager.default.contents(atPath: file.path),
            let json = try? JSONParser().parse([UInt8](data)),
            json["pid"].number?.int == Int(pid), json["port"].number?.int == port
        else { return }
        try? FileManager.default.removeItem(at: file)
    }

    /// Whether the process is alive and something accepts connections on the port.
    var isUp: Bool {
        guard kill(pid, 0) == 0 || errno == EPERM else { return false }
        return Self.accepts(port: port)
    }

    /// Whether a TCP connection to 127.0.0.1:`port` succeeds (it is closed at once).
    static func accepts(port: Int) -> Bool {
        #if canImport(Darwin)
            let fd = socket(AF_INET, SOCK_STREAM, 0)
        #else
            let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue | SOCK_CLOEXEC.rawValue), 0)
        #endif
        guard fd >= 0 else { return false }
        defer { close(fd) }
        #if canImport(Darwin)
            _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
        #endif
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = in_addr_t(UInt32(0x7F00_0001).bigEndian)
        let result = withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        return result == 0
    }
}
