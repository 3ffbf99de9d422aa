import Glibc
import TetherTerminal

/// A ``PseudoTerminal`` with what tests need on the emulator's side: typing (``type(_:)``), reading what was
/// written until a marker (``read(until:timeout:)``) and the secondary end's settings.
///
/// Not thread safe; closes both ends when released.
final class TestTerminal {
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    let pty: PseudoTerminal
    /// The emulator's end.
    var master: Int32 { pty.primary }
    /// The app's end: the terminal a session runs on.
    var slave: Int32 { pty.secondary }
    /// Everything read from the master so far.
    private(set) var output: [UInt8] = []

    init() throws {
        pty = try PseudoTerminal()
    }

    /// Closes the master: the slave then reads end of file or EIO, as when a terminal window closes.
    func closeMaster() { pty.closePrimary() }

    /// Sets the window size, as a terminal emulator does when its window is resized.
    func resize(width: Int, height: Int) throws { try pty.resize(width: width, height: height) }

    /// Types `text` (its UTF-8 bytes) into the terminal.
    func type(_ text: String) throws { try type(Array(text.utf8)) }

    /// Types `bytes` into the terminal.
    func type(_ bytes: [UInt8]) throws {
        var written = 0
        while written < bytes.count {
            let result = bytes[written...].withUnsafeBytes { Glibc.write(master, $0.baseAddress!, $0.count) }
            if result < 0, errno == EINTR { continue }
            guard result > 0 else { throw Failure(description: "writing to the master failed: errno \(errno)") }
            written += result
        }
    }

    /// The slave's current settings.
    func settings() throws -> termios {
        var settings = termios()
        guard tcgetattr(slave, &settings) == 0 else { throw Failure(description: "tcgetattr failed: errno \(errno)") }
        return settings
    }

    /// Reads from the master until ``output`` contains `marker`, or throws after `timeout` seconds
    /// (a deadline so a test never hangs, not a timing assertion). Returns everything read so far.
    @discardableResult
    func read(until marker: [UInt8], timeout: Double = 10) throws -> [UInt8] {
        var waited = 0.0
        var buffer = [UInt8](repeating: 0, count: 4096)
        var searched = 0  // the marker does not start before this offset
        while !Self.contains(output[searched...], marker) {
            searched = max(0, output.count - marker.count + 1)
            var descriptor = pollfd(fd: master, events: Int16(POLLIN), revents: 0)
            let ready = poll(&descriptor, 1, 50)
            if ready == 0 {
                waited += 0.05
                if waited > timeout {
                    throw Failure(
                        description:
                            "no \(String(decoding: marker, as: UTF8.self).debugDescription) in \(String(decoding: output, as: UTF8.self).debugDescription)"
                    )
                }
                continue
            }
            if ready < 0, errno == EINTR { continue }
            let count = Glibc.read(master, &buffer, buffer.count)
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { throw Failure(description: "reading the master failed: errno \(errno)") }
            output += buffer[0..<count]
        }
        return output
    }

    /// Forgets what was read so far.
    func clearOutput() { output = [] }

    static func contains(_ bytes: some Collection<UInt8>, _ marker: [UInt8]) -> Bool {
        guard !marker.isEmpty else { return true }
        var start = bytes.startIndex
        while start != bytes.endIndex {
            if bytes[start] == marker[0], bytes[start...].starts(with: marker) { return true }
            start = bytes.index(after: start)
        }
        return false
    }
}

/// Whether two terminal settings are the same in every field.
func sameSettings(_ lhs: termios, _ rhs: termios) -> Bool {
    var lhs = lhs
    var rhs = rhs
    return withUnsafeBytes(of: &lhs) { left in withUnsafeBytes(of: &rhs) { right in left.elementsEqual(right) } }
}

/// The first `count` elements of `stream`, or fewer when it ends or `timeout` seconds pass (a deadline so a test
/// never hangs).
func first<Element: Sendable>(_ count: Int, of stream: AsyncStream<Element>, timeout: Double = 10) async -> [Element] {
    await withTaskGroup(of: [Element]?.self) { group in
        group.addTask {
            var elements: [Element] = []
            for await element in stream {
                elements.append(element)
                if elements.count == count { break }
            }
            return elements
        }
        group.addTask {
            try? await Task.sleep(for: .seconds(timeout))
            return nil
        }
        var result: [Element] = []
        for await value in group {
            if let value {
                result = value
                break
            }
            break
        }
        group.cancelAll()
        return result
    }
}

/// Whether `stream` ends (after any number of elements) before `timeout` seconds pass.
func ends<Element: Sendable>(_ stream: AsyncStream<Element>, timeout: Double = 10) async -> Bool {
    await withTaskGroup(of: Bool.self) { group in
        group.addTask {
            for await _ in stream {}
            // Cancellation (the deadline passed) also ends the loop.
            return !Task.isCancelled
        }
        group.addTask {
            try? await Task.sleep(for: .seconds(timeout))
            return false
        }
        let ended = await group.next() ?? false
        group.cancelAll()
        return ended
    }
}
