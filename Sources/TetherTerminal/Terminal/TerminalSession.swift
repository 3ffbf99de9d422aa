import Glibc
import TetherSync

/// The terminal a full-screen app runs in: raw mode, the alternate screen, the window size, resizes, keys, output.
///
/// ```swift
/// import TetherTerminal
///
/// let session = try TerminalSession()          // standard input and output
/// try session.enterRawMode()
/// defer { session.close() }
/// var renderer = ScreenRenderer()
/// var frame = ScreenBuffer(width: session.size.width, height: session.size.height)
/// frame.draw("Press q to quit", x: 0, y: 0)
/// try session.write(renderer.render(frame))
/// for await key in session.keys where key == .character("q") { break }
/// ```
///
/// ``enterRawMode()`` turns echo, line editing and signal keys off (Ctrl+C arrives as `.control("c")`, so the app
/// quits cleanly), switches to the alternate screen, hides the cursor and turns bracketed paste on. ``restore()``
/// undoes all of it, and the terminal is restored even when the app does not get to call it: at `exit`, and on
/// SIGINT, SIGTERM or SIGHUP from elsewhere (`kill`), which then end the process with status 130, 143 or 129.
/// Ctrl+Z arrives as `.control("z")` too; ``suspend()`` stops the app as a shell job would be stopped.
///
/// Linux (Glibc) only. Threading: every method may be called from any thread. Keys are read on a dedicated thread and resizes arrive
/// on another; both are delivered through `AsyncStream`s, each meant for one consumer.
public final class TerminalSession: Sendable {
    /// The descriptor keys are read from, and whose settings raw mode changes.
    public let input: Int32
    /// The descriptor frames are written to, and whose window size is measured.
    public let output: Int32
    /// The settings before raw mode, put back by ``restore()``.
    private let original: termios

    private struct State {
        /// The restorer's slot while in raw mode.
        var rawSlot: Int?
        var closed = false
        var keys: AsyncStream<Key>?
        var keyReader: KeyReader?
        var resizes: AsyncStream<(width: Int, height: Int)>?
        var resizeContinuation: AsyncStream<(width: Int, height: Int)>.Continuation?
        var resizeSubscription: Int?
    }

    private let state = Locked(State())

    /// A session on the terminal behind `input` and `output` (standard input and output by default).
    ///
    /// Nothing changes on the terminal until ``enterRawMode()``.
    ///
    /// - Throws: ``TerminalError`` with code ``TerminalError/Code/notATerminal`` when either descriptor is not a
    ///   terminal (a pipe, a file), or ``TerminalError/Code/systemCallFailed`` when its settings cannot be read.
    public init(input: Int32 = 0, output: Int32 = 1) throws(TerminalError) {
        for (name, fd) in [("input", input), ("output", output)] where isatty(fd) != 1 {
            throw TerminalError(
                .notATerminal, "the \(name) (descriptor \(fd)) is not a terminal", systemError: errno)
        }
        var settings = termios()
        guard tcgetattr(input, &settings) == 0 else {
            throw TerminalError(
                .systemCallFailed, "cannot read the terminal settings of descriptor \(input) (tcgetattr)",
                systemError: errno)
        }
        self.input = input
        self.output = output
        self.original = settings
    }

    deinit {
        close()
    }

    // MARK: - Raw mode

    /// Whether the terminal is in raw mode (between ``enterRawMode()`` and ``restore()``).
    public var isRaw: Bool { state.withLock { $0.rawSlot != nil } }

    /// Puts the terminal in raw mode and takes over the screen: no echo, no line editing, no signal keys, no output
    /// processing, 8-bit input; the alternate screen, the cursor hidden, bracketed paste on. Does nothing when
    /// already raw.
    ///
    /// - Throws: ``TerminalError`` when the settings cannot be changed, the session is closed or the terminal
    ///   cannot be written to (the settings are then put back).
    public func enterRawMode() throws(TerminalError) {
        try state.withLock { (state: inout State) throws(TerminalError) in
            guard !state.closed else { throw TerminalError(.closed, "the terminal session is closed") }
            guard state.rawSlot == nil else { return }
            let slot = try TerminalRestorer.register(input: input, output: output, settings: original)
            var raw = original
            cfmakeraw(&raw)  // also VMIN 1, VTIME 0: a read returns as soon as a byte is there
            guard tcsetattr(input, TCSAFLUSH, &raw) == 0 else {
                let error = errno
                TerminalRestorer.unregister(slot)
                throw TerminalError(
                    .systemCallFailed, "cannot put descriptor \(input) in raw mode (tcsetattr)", systemError: error)
            }
            state.rawSlot = slot
            do throws(TerminalError) {
                try writeAll(TerminalSequences.enter)
            } catch {
                restoreLocked(&state)
                throw error
            }
        }
    }

    /// Gives the terminal back as it was: leaves the alternate screen, shows the cursor, turns bracketed paste off,
    /// resets the attributes and puts the original settings back (discarding unread input). Idempotent; raw mode
    /// can be entered again afterwards.
    public func restore() {
        state.withLock { restoreLocked(&$0) }
    }

    private func restoreLocked(_ state: inout State) {
        guard let slot = state.rawSlot else { return }
        try? writeAll(TerminalSequences.leave)
        var settings = original
        _ = tcsetattr(input, TCSAFLUSH, &settings)
        TerminalRestorer.unregister(slot)
        state.rawSlot = nil
    }

    /// Suspends the process as Ctrl+Z does in a shell (raw mode delivers Ctrl+Z as `.control("z")` instead): gives
    /// the terminal back, stops the process group with SIGTSTP, and once the shell resumes it (`fg`), takes the
    /// terminal over again. Returns after the resume; the caller then redraws whole (``ScreenRenderer/invalidate()``),
    /// as the screen and maybe the size changed meanwhile.
    ///
    /// - Throws: ``TerminalError`` when raw mode cannot be entered again.
    public func suspend() throws(TerminalError) {
        let wasRaw = isRaw
        restore()
        kill(0, SIGTSTP)
        if wasRaw { try enterRawMode() }
    }

    /// Restores the terminal, stops reading keys and ends the ``keys`` and ``resizes`` streams. Idempotent; the
    /// descriptors stay open (they are the caller's).
    public func close() {
        let reader: KeyReader? = state.withLock { state in
            restoreLocked(&state)
            state.closed = true
            if let id = state.resizeSubscription { ResizeSignal.unsubscribe(id) }
            state.resizeSubscription = nil
            state.resizeContinuation?.finish()
            state.resizeContinuation = nil
            let reader = state.keyReader
            state.keyReader = nil
            return reader
        }
        reader?.stop()
    }

    // MARK: - Size

    /// The window size in columns and rows: from the terminal (`TIOCGWINSZ`), else from the `COLUMNS` and `LINES`
    /// environment variables, else 80 × 24.
    public var size: (width: Int, height: Int) { Self.size(of: output) }

    static func size(of fd: Int32) -> (width: Int, height: Int) {
        var window = winsize()
        if ioctl(fd, UInt(TIOCGWINSZ), &window) == 0, window.ws_col > 0, window.ws_row > 0 {
            return (Int(window.ws_col), Int(window.ws_row))
        }
        func environment(_ name: String) -> Int? {
            guard let value = getenv(name), let number = Int(String(cString: value)), number > 0 else { return nil }
            return number
        }
        return (environment("COLUMNS") ?? 80, environment("LINES") ?? 24)
    }

    /// The window's new size after each resize (SIGWINCH), newest first: a consumer that falls behind sees only
    /// the latest size. The same stream on every access; it ends when the session is closed.
    public var resizes: AsyncStream<(width: Int, height: Int)> {
        state.withLock { state in
            if let resizes = state.resizes { return resizes }
            let (stream, continuation) = AsyncStream<(width: Int, height: Int)>.makeStream(
                bufferingPolicy: .bufferingNewest(1))
            state.resizes = stream
            if state.closed {
                continuation.finish()
                return stream
            }
            let output = output
            do {
                state.resizeSubscription = try ResizeSignal.subscribe { continuation.yield(Self.size(of: output)) }
                state.resizeContinuation = continuation
            } catch {
                continuation.finish()
            }
            return stream
        }
    }

    // MARK: - Keys

    /// The keys typed, decoded (see ``KeyDecoder``), read on a thread of its own from the first access on. The same
    /// stream on every access; it ends on end of input, on a read error, or when the session is closed.
    public var keys: AsyncStream<Key> {
        let (stream, reader): (AsyncStream<Key>, KeyReader?) = state.withLock { state in
            if let keys = state.keys { return (keys, nil) }
            let (stream, continuation) = AsyncStream<Key>.makeStream()
            state.keys = stream
            guard !state.closed, let reader = try? KeyReader(input: input, continuation: continuation) else {
                continuation.finish()
                return (stream, nil)
            }
            state.keyReader = reader
            continuation.onTermination = { _ in reader.stop() }
            return (stream, reader)
        }
        reader?.start()
        return stream
    }

    // MARK: - Output

    /// Writes all of `bytes` to the terminal, retrying partial writes and interrupted calls.
    ///
    /// - Throws: ``TerminalError`` with code ``TerminalError/Code/writeFailed`` when the terminal cannot be
    ///   written to.
    public func write(_ bytes: [UInt8]) throws(TerminalError) {
        try writeAll(bytes)
    }

    private func writeAll(_ bytes: [UInt8]) throws(TerminalError) {
        let failure: TerminalError? = bytes.withUnsafeBytes { buffer in
            var written = 0
            while written < buffer.count {
                let result = Glibc.write(output, buffer.baseAddress! + written, buffer.count - written)
                if result > 0 {
                    written += result
                    continue
                }
                let error = errno
                if result < 0, error == EINTR { continue }
                if result < 0, error == EAGAIN {
                    var descriptor = pollfd(fd: output, events: Int16(POLLOUT), revents: 0)
                    _ = poll(&descriptor, 1, 100)
                    continue
                }
                return TerminalError(
                    .writeFailed, "cannot write to the terminal (descriptor \(output))", systemError: error)
            }
            return nil
        }
        if let failure { throw failure }
    }
}
