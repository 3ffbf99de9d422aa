import Foundation
import Testing

@testable import TetherTerminal

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The terminal query over a real pseudo-terminal: what the app writes, the reply read back, and a terminal that
/// answers nothing ending the wait at the timeout.
@Suite(.timeLimit(.minutes(1)))
struct TerminalGraphicsQueryTests {
    /// Reads from `fd` until `count` bytes arrived (or the other end closed).
    private static func readBytes(_ fd: Int32, count: Int) -> [UInt8] {
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 256)
        while bytes.count < count {
            let got = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            guard got > 0 else { break }
            bytes += buffer[0..<got]
        }
        return bytes
    }

    @Test func aTerminalThatSpeaksKittyAndSixelIsRecognised() throws {
        let terminal = try PseudoTerminal()
        defer { terminal.close() }
        let secondary = terminal.secondary
        var raw = termios()
        tcgetattr(secondary, &raw)
        cfmakeraw(&raw)
        tcsetattr(secondary, TCSANOW, &raw)
        // The "terminal": reads the query, answers the kitty query and the device attributes.
        let primary = terminal.primary
        let emulator = Thread {
            let query = Self.readBytes(primary, count: TerminalGraphics.query.count)
            guard query == TerminalGraphics.query else { return }
            let reply = Array("\u{1B}_Gi=31;OK\u{1B}\\\u{1B}[?62;4;22c".utf8)
            _ = reply.withUnsafeBytes { write(primary, $0.baseAddress, $0.count) }
        }
        emulator.start()
        let reply = TerminalGraphics.query(input: secondary, output: secondary, timeout: .seconds(20))
        let parsed = TerminalGraphics.parseReply(reply)
        #expect(parsed.kitty && parsed.sixel, "reply: \(String(decoding: reply, as: UTF8.self).debugDescription)")
        #expect(
            TerminalGraphics.detect(environment: ["TERM": "xterm"], colorMode: .trueColor, queryReply: reply) == .kitty)
    }

    @Test func aTerminalThatAnswersNothingCostsOnlyTheTimeout() throws {
        let terminal = try PseudoTerminal()
        defer { terminal.close() }
        var raw = termios()
        tcgetattr(terminal.secondary, &raw)
        cfmakeraw(&raw)
        tcsetattr(terminal.secondary, TCSANOW, &raw)
        let reply = TerminalGraphics.query(
            input: terminal.secondary, output: terminal.secondary, timeout: .milliseconds(50))
        #expect(reply.isEmpty)
        #expect(
            TerminalGraphics.detect(environment: ["TERM": "xterm"], colorMode: .palette256, queryReply: reply)
                == .halfBlocks(.palette256))
    }
}
