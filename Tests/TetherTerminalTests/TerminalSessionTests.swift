import Foundation
import Glibc
import Testing

@testable import TetherTerminal

/// The session on a real pseudo-terminal. Serialized: signal handlers and the restorer are process-wide.
@Suite(.serialized) struct TerminalSessionTests {
    private static let enter = Array("\u{1B}[?1049h".utf8)
    private static let leave = Array("\u{1B}[?1049l".utf8)

    @Test func rawModeIsSetAndRestoredExactly() throws {
        let pty = try TestTerminal()
        let before = try pty.settings()
        #expect(before.c_lflag & tcflag_t(ECHO | ICANON) != 0)
        let session = try TerminalSession(input: pty.slave, output: pty.slave)
        try session.enterRawMode()
        #expect(session.isRaw)
        let raw = try pty.settings()
        #expect(raw.c_lflag & tcflag_t(ECHO) == 0)
        #expect(raw.c_lflag & tcflag_t(ICANON) == 0)
        #expect(raw.c_lflag & tcflag_t(ISIG) == 0)
        #expect(raw.c_iflag & tcflag_t(ICRNL | IXON) == 0)
        #expect(raw.c_oflag & tcflag_t(OPOST) == 0)
        #expect(TerminalRestorer.isRegistered(input: pty.slave))
        // The alternate screen, the cursor hidden, bracketed paste on.
        let output = try pty.read(until: Array("\u{1B}[?2004h".utf8))
        #expect(TestTerminal.contains(output, Self.enter))
        #expect(TestTerminal.contains(output, Array("\u{1B}[?25l".utf8)))

        session.restore()
        #expect(!session.isRaw)
        #expect(sameSettings(try pty.settings(), before))
        let restored = try pty.read(until: Self.leave)
        #expect(TestTerminal.contains(restored, Array("\u{1B}[?2004l\u{1B}[0m\u{1B}[?25h".utf8)))
        #expect(!TerminalRestorer.isRegistered(input: pty.slave))
        session.close()
    }

    @Test func restoreIsIdempotentAndRawModeCanBeEnteredAgain() throws {
        let pty = try TestTerminal()
        let before = try pty.settings()
        let session = try TerminalSession(input: pty.slave, output: pty.slave)
        session.restore()  // never raw: nothing happens
        try session.enterRawMode()
        try session.enterRawMode()  // already raw: nothing more
        session.restore()
        session.restore()
        try session.write(Array("MARK".utf8))
        let output = try pty.read(until: Array("MARK".utf8))
        let text = String(decoding: output, as: UTF8.self)
        // One enter and one leave, then the marker right after the leave sequence.
        #expect(text.components(separatedBy: "\u{1B}[?1049h").count == 2)
        #expect(text.components(separatedBy: "\u{1B}[?1049l").count == 2)
        #expect(text.hasSuffix("\u{1B}[?1049lMARK"))
        #expect(sameSettings(try pty.settings(), before))

        try session.enterRawMode()
        #expect(try pty.settings().c_lflag & tcflag_t(ECHO) == 0)
        session.close()
        session.close()
        #expect(sameSettings(try pty.settings(), before))
        #expect(throws: TerminalError.self) { try session.enterRawMode() }
    }

    @Test func theSignalPathRestoresTheTerminal() throws {
        let pty = try TestTerminal()
        let before = try pty.settings()
        let session = try TerminalSession(input: pty.slave, output: pty.slave)
        try session.enterRawMode()
        // What a SIGINT/SIGTERM handler or atexit runs (for this terminal only), minus the exit.
        TerminalRestorer.restoreRegistered(input: pty.slave)
        #expect(sameSettings(try pty.settings(), before))
        try pty.read(until: Self.leave)
        #expect(!TerminalRestorer.isRegistered(input: pty.slave))
        session.close()
        #expect(sameSettings(try pty.settings(), before))
    }

    @Test func aTerminalClosedWithoutRestoringIsLeftAlone() throws {
        let pty = try TestTerminal()
        let session = try TerminalSession(input: pty.slave, output: pty.slave)
        try session.enterRawMode()
        try pty.read(until: Array("\u{1B}[?2004h".utf8))
        // The descriptor now names a file, as when a program closes its terminal and opens something else.
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("tether-\(UUID().uuidString)").path
        defer { unlink(path) }
        let file = open(path, O_RDWR | O_CREAT | O_TRUNC, 0o600)
        try #require(file >= 0)
        #expect(dup2(file, pty.slave) == pty.slave)
        close(file)
        // What a signal handler or atexit runs: the file must not get the restore sequence.
        TerminalRestorer.restoreRegistered(input: pty.slave)
        var status = stat()
        #expect(stat(path, &status) == 0)
        #expect(status.st_size == 0, "the restore sequence went into the file")
        session.close()
    }

    @Test func typedKeysArriveDecoded() async throws {
        let pty = try TestTerminal()
        let session = try TerminalSession(input: pty.slave, output: pty.slave)
        try session.enterRawMode()
        defer { session.close() }
        let keys = session.keys
        try pty.type("\u{1B}[A\u{1B}OB名前\r\u{1B}[200~貼り付け\r\n2\u{1B}[201~\u{3}q")
        let received = await first(8, of: keys)
        #expect(
            received == [
                .up, .down, .character("名"), .character("前"), .enter, .paste("貼り付け\n2"), .control("c"), .character("q"),
            ])
        // A lone Escape arrives once the reader has waited for the rest of a sequence.
        try pty.type([0x1B])
        #expect(await first(1, of: keys) == [.escape])
        // A UTF-8 character typed in two parts arrives whole, even when the rest comes after the Escape pause (a
        // slow connection).
        let bytes = Array("ノ".utf8)
        try pty.type(Array(bytes[0..<1]))
        try await Task.sleep(for: .milliseconds(150))
        try pty.type(Array(bytes[1...]))
        #expect(await first(1, of: keys) == [.character("ノ")])
    }

    @Test func keysEndWhenTheTerminalCloses() async throws {
        let pty = try TestTerminal()
        let session = try TerminalSession(input: pty.slave, output: pty.slave)
        try session.enterRawMode()
        let keys = session.keys
        try pty.type("x")
        #expect(await first(1, of: keys) == [.character("x")])
        pty.closeMaster()
        #expect(await ends(keys))
        session.close()
    }

    @Test func keysEndWhenTheSessionCloses() async throws {
        let pty = try TestTerminal()
        let session = try TerminalSession(input: pty.slave, output: pty.slave)
        try session.enterRawMode()
        let keys = session.keys
        try pty.type("a")
        #expect(await first(1, of: keys) == [.character("a")])
        session.close()
        #expect(await ends(keys))
    }

    @Test func sizeAndResizes() async throws {
        let pty = try TestTerminal()
        try pty.resize(width: 100, height: 40)
        let session = try TerminalSession(input: pty.slave, output: pty.slave)
        #expect(session.size == (100, 40))
        let resizes = session.resizes
        try pty.resize(width: 132, height: 50)
        // The kernel signals the pty's foreground process group, which a test process is not: signal ourselves.
        kill(getpid(), SIGWINCH)
        let sizes = await first(1, of: resizes)
        #expect(sizes.count == 1 && sizes.first! == (132, 50))
        #expect(session.size == (132, 50))
        session.close()
        #expect(await ends(resizes))
    }

    @Test func writeDeliversEverythingThroughSmallBuffers() throws {
        let pty = try TestTerminal()
        let session = try TerminalSession(input: pty.slave, output: pty.slave)
        try session.enterRawMode()
        try pty.read(until: Array("\u{1B}[?2004h".utf8))
        pty.clearOutput()
        // Far more than a pty buffers: the write blocks and continues as the master reads.
        let payload = [UInt8]((0..<200_000).map { UInt8(0x41 + $0 % 26) }) + Array("END".utf8)
        let writer = Thread { try? session.write(payload) }
        writer.start()
        let output = try pty.read(until: Array("END".utf8), timeout: 30)
        #expect(output == payload)
        session.close()
    }

    @Test func pseudoTerminalPairs() throws {
        let pty = try PseudoTerminal(width: 90, height: 33)
        #expect(isatty(pty.secondary) == 1)
        #expect(pty.path.hasPrefix("/dev/pts/"))
        #expect(try TerminalSession(input: pty.secondary, output: pty.secondary).size == (90, 33))
        // Bytes written to the primary end arrive on the secondary end.
        var settings = termios()
        tcgetattr(pty.secondary, &settings)
        cfmakeraw(&settings)
        tcsetattr(pty.secondary, TCSANOW, &settings)
        #expect(write(pty.primary, "hi", 2) == 2)
        var buffer = [UInt8](repeating: 0, count: 8)
        #expect(read(pty.secondary, &buffer, 8) == 2)
        #expect(buffer[0..<2] == [0x68, 0x69])
        pty.close()
        pty.close()  // idempotent (the descriptors' numbers may already be reused: not checked)
    }

    @Test func notATerminalThrows() throws {
        var ends: [Int32] = [0, 0]
        #expect(pipe(&ends) == 0)
        defer {
            close(ends[0])
            close(ends[1])
        }
        let error = #expect(throws: TerminalError.self) { try TerminalSession(input: ends[0], output: ends[1]) }
        #expect(error?.code == .notATerminal)
        #expect(error?.message.contains("not a terminal") == true)
        // A terminal for input but not for output is refused too.
        let pty = try TestTerminal()
        #expect(throws: TerminalError.self) { try TerminalSession(input: pty.slave, output: ends[1]) }
    }
}
