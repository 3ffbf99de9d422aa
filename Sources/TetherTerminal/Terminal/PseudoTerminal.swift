import Glibc
import TetherSync

/// A pseudo-terminal pair: a terminal with no window, for driving a full-screen app from code (tests, benchmarks).
///
/// The ``secondary`` end is the terminal the app runs on (pass it to ``TerminalSession/init(input:output:)`` or to a
/// child process as its standard input and output); the ``primary`` end plays the terminal emulator: what is
/// written to it arrives as typed input, and what the app writes can be read from it. (The C library calls them
/// master and slave.)
///
/// ```swift
/// import Foundation
/// import TetherTerminal
///
/// let pty = try PseudoTerminal(width: 100, height: 30)
/// let session = try TerminalSession(input: pty.secondary, output: pty.secondary)
/// _ = write(pty.primary, "q", 1)   // the user types q
/// ```
///
/// Glibc's `posix_openpt`, `grantpt`, `unlockpt` and `ptsname` are not visible from Swift; this opens `/dev/ptmx`
/// and does their work with `ioctl`s. Linux only. Both descriptors are close-on-exec, and closed by ``close()`` or
/// when the value is released. Thread safe.
public final class PseudoTerminal: Sendable {
    /// The emulator's end (the master): write input to it, read output from it, resize the window with it.
    public let primary: Int32
    /// The app's end (the slave): a terminal device, `isatty` is true.
    public let secondary: Int32
    /// The path of the secondary end, such as `/dev/pts/3`.
    public let path: String

    private let openEnds = Locked((primary: true, secondary: true))

    /// `TIOCSPTLCK` and `TIOCGPTN`, function-like macros (`_IOW('T', 0x31, int)`, `_IOR('T', 0x30, unsigned int)`)
    /// that Swift does not import.
    private static let setLock: UInt = 0x4004_5431
    private static let getNumber: UInt = 0x8004_5430

    /// Opens a new pair with a window of `width` × `height`.
    ///
    /// - Throws: ``TerminalError`` with code ``TerminalError/Code/systemCallFailed`` when no pseudo-terminal can be
    ///   opened.
    public init(width: Int = 80, height: Int = 24) throws(TerminalError) {
        let primary = Glibc.open("/dev/ptmx", O_RDWR | O_NOCTTY | O_CLOEXEC)
        guard primary >= 0 else {
            throw TerminalError(.systemCallFailed, "cannot open /dev/ptmx", systemError: errno)
        }
        var unlock: Int32 = 0
        var number: UInt32 = 0
        guard ioctl(primary, Self.setLock, &unlock) == 0, ioctl(primary, Self.getNumber, &number) == 0 else {
            let error = errno
            Glibc.close(primary)
            throw TerminalError(.systemCallFailed, "cannot unlock a pseudo-terminal", systemError: error)
        }
        let path = "/dev/pts/\(number)"
        let secondary = Glibc.open(path, O_RDWR | O_NOCTTY | O_CLOEXEC)
        guard secondary >= 0 else {
            let error = errno
            Glibc.close(primary)
            throw TerminalError(.systemCallFailed, "cannot open \(path)", systemError: error)
        }
        self.primary = primary
        self.secondary = secondary
        self.path = path
        do {
            try resize(width: width, height: height)
        } catch {
            close()
            throw error
        }
    }

    deinit {
        close()
    }

    /// Sets the window size, as an emulator does when its window is resized. The kernel sends SIGWINCH to the
    /// terminal's foreground process group, if it has one (a process that only opened the secondary end is not
    /// in it: signal it yourself).
    public func resize(width: Int, height: Int) throws(TerminalError) {
        var window = winsize(
            ws_row: UInt16(clamping: max(0, height)), ws_col: UInt16(clamping: max(0, width)), ws_xpixel: 0,
            ws_ypixel: 0)
        guard ioctl(primary, UInt(TIOCSWINSZ), &window) == 0 else {
            throw TerminalError(.systemCallFailed, "cannot resize \(path) (TIOCSWINSZ)", systemError: errno)
        }
    }

    /// Closes the primary end only, as when the emulator's window closes: reads on the secondary end then fail
    /// (end of input for a ``TerminalSession``). Idempotent.
    public func closePrimary() {
        openEnds.withLock { state in
            guard state.primary else { return }
            state.primary = false
            Glibc.close(primary)
        }
    }

    /// Closes both ends. Idempotent.
    public func close() {
        closePrimary()
        openEnds.withLock { state in
            guard state.secondary else { return }
            state.secondary = false
            Glibc.close(secondary)
        }
    }
}
