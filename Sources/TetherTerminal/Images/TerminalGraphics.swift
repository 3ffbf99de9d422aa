#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// How a terminal can show pictures, best first: a graphics protocol, else half blocks in the colours it has, else
/// nothing.
///
/// ```swift
/// import Foundation
/// import TetherTerminal
///
/// let environment = ProcessInfo.processInfo.environment
/// let mode = ColorMode.detect(environment: environment, isTerminal: true)
/// let reply = TerminalGraphics.query(input: 0, output: 1, timeout: .milliseconds(150))  // in raw mode
/// let graphics = TerminalGraphics.detect(environment: environment, colorMode: mode, queryReply: reply)
/// ```
public enum TerminalGraphics: Sendable, Hashable {
    /// The kitty graphics protocol (``KittyGraphics``).
    case kitty
    /// iTerm2's inline images (``ITermGraphics``).
    case iTerm2
    /// Sixel graphics (``SixelEncoder``).
    case sixel
    /// Unicode half blocks (``HalfBlockImage``) in these colours.
    case halfBlocks(ColorMode)
    /// No picture: `NO_COLOR`, a dumb terminal, output that is not a terminal.
    case none

    /// The sequences that ask the terminal what it supports: a kitty graphics query (answered only by terminals that
    /// speak the protocol) followed by the primary device attributes request, which every terminal answers (so its
    /// reply ends the wait), listing `4` when it draws sixels.
    public static let query: [UInt8] = Array("\u{1B}_Gi=31,s=1,v=1,a=q,t=d,f=24;AAAA\u{1B}\\\u{1B}[c".utf8)

    /// The best way to draw pictures in a terminal described by `environment` and `colorMode`, and by the reply
    /// to ``query`` when there is one.
    ///
    /// In order: ``ColorMode/monochrome`` gives ``none``; `TETHER_IMAGES` set to `kitty`, `iterm`, `sixel`,
    /// `blocks` or `none` wins; inside tmux (`TMUX`), which does not pass graphics through by default, half blocks;
    /// `TERM=xterm-kitty`, `KITTY_WINDOW_ID` or `TERM_PROGRAM=ghostty` give ``kitty``; `TERM_PROGRAM` `iTerm.app`
    /// or `WezTerm` (or `LC_TERMINAL=iTerm2`) give ``iTerm2``; a reply accepting the kitty query gives ``kitty``,
    /// one listing sixels ``sixel``; anything else ``halfBlocks(_:)``.
    public static func detect(
        environment: [String: String], colorMode: ColorMode, queryReply: [UInt8]? = nil
    ) -> TerminalGraphics {
        guard colorMode != .monochrome else { return .none }
        switch environment["TETHER_IMAGES"]?.lowercased() {
        case "kitty": return .kitty
        case "iterm", "iterm2": return .iTerm2
        case "sixel": return .sixel
        case "blocks", "halfblocks": return .halfBlocks(colorMode)
        case "none", "off": return .none
        default: break
        }
        if environment["TMUX"] != nil { return .halfBlocks(colorMode) }
        let term = environment["TERM"] ?? ""
        let program = environment["TERM_PROGRAM"] ?? ""
        if term == "xterm-kitty" || environment["KITTY_WINDOW_ID"] != nil || program == "ghostty" { return .kitty }
        if program == "iTerm.app" || program == "WezTerm" || environment["LC_TERMINAL"] == "iTerm2" { return .iTerm2 }
        if let queryReply {
            let reply = parseReply(queryReply)
            if reply.kitty { return .kitty }
            if reply.sixel { return .sixel }
        }
        return .halfBlocks(colorMode)
    }

    /// What a reply to ``query`` says: whether the kitty query was accepted (`ESC _G i=31;OK`), and whether the
    /// device attributes (`ESC [ ? … c`) list sixel graphics (parameter 4).
    public static func parseReply(_ bytes: [UInt8]) -> (kitty: Bool, sixel: Bool) {
        let text = String(decoding: bytes, as: UTF8.self)
        let kitty = text.contains("_Gi=31;OK")
        var sixel = false
        if let start = text.range(of: "\u{1B}[?") {
            let rest = text[start.upperBound...]
            if let end = rest.firstIndex(of: "c") {
                sixel = rest[..<end].split(separator: ";").contains("4")
            }
        }
        return (kitty, sixel)
    }

    /// Writes ``query`` to `output` and returns what arrives on `input` until the device attributes reply is
    /// complete or `timeout` passes (a terminal that answers nothing costs the whole timeout).
    ///
    /// The terminal must be in raw mode (see ``TerminalSession/enterRawMode()``), or the reply waits for a newline
    /// and is echoed. Blocks the calling thread.
    public static func query(input: Int32, output: Int32, timeout: Duration) -> [UInt8] {
        let written = query.withUnsafeBytes { write(output, $0.baseAddress, $0.count) }
        guard written == query.count else { return [] }
        var reply = [UInt8]()
        let deadline = ContinuousClock.now + timeout
        var buffer = [UInt8](repeating: 0, count: 256)
        while true {
            let remaining = deadline - ContinuousClock.now
            guard remaining > .zero else { break }
            let milliseconds =
                Int32(min(max(remaining.components.seconds * 1000, 0), 10_000))
                + Int32(remaining.components.attoseconds / 1_000_000_000_000_000)
            var descriptor = pollfd(fd: input, events: Int16(POLLIN), revents: 0)
            let ready = poll(&descriptor, 1, max(milliseconds, 1))
            if ready < 0 && errno == EINTR { continue }
            guard ready > 0 else { break }
            let count = buffer.withUnsafeMutableBytes { read(input, $0.baseAddress, $0.count) }
            guard count > 0 else { break }
            reply += buffer[0..<count]
            if isComplete(reply) { break }
        }
        return reply
    }

    /// ``query(input:output:timeout:)`` with the terminal's echo and line editing off for the wait, put back after
    /// (discarding a reply that comes too late, so it does not reach the shell); `nil` when `input` or `output` is
    /// not a terminal. Does not switch screens, unlike ``TerminalSession/enterRawMode()``.
    public static func queryTerminal(input: Int32 = 0, output: Int32 = 1, timeout: Duration) -> [UInt8]? {
        guard isatty(input) == 1, isatty(output) == 1 else { return nil }
        var original = termios()
        guard tcgetattr(input, &original) == 0 else { return nil }
        var quiet = original
        quiet.c_lflag &= ~tcflag_t(ICANON | ECHO)
        guard tcsetattr(input, TCSANOW, &quiet) == 0 else { return nil }
        defer { _ = tcsetattr(input, TCSAFLUSH, &original) }
        return query(input: input, output: output, timeout: timeout)
    }

    /// Whether `reply` holds a whole device attributes answer (`ESC [ ? … c`).
    static func isComplete(_ reply: [UInt8]) -> Bool {
        guard let start = reply.firstRange(of: [0x1B, 0x5B, 0x3F]) else { return false }
        return reply[start.upperBound...].contains(UInt8(ascii: "c"))
    }
}
