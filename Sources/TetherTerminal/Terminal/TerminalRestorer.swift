import Glibc
import Synchronization
import TetherSync

/// The process-wide record of terminals in raw mode, so they are restored however the process ends.
///
/// ``TerminalSession/enterRawMode()`` registers the terminal's original settings here; the first registration
/// installs handlers for SIGINT, SIGTERM and SIGHUP and an `atexit` hook. A handler restores every registered
/// terminal (leaves the alternate screen, shows the cursor, turns bracketed paste off, puts the original termios
/// back) and exits with 128 + the signal (130 for SIGINT, 143 for SIGTERM); when the last terminal is restored the
/// previous handlers are put back.
///
/// Signal safety: the slots and the restore sequence live in memory allocated before any handler is installed,
/// the set of active slots is one atomic word, and the handler calls only `fstat`, `write`, `tcsetattr`,
/// `sigaction`, `raise` and `_exit`. A terminal whose descriptors no longer name the same files (closed without
/// restoring, their numbers reused) is skipped. Registration itself takes a lock and is not called from handlers.
enum TerminalRestorer {
    /// How many terminals can be in raw mode at once in one process.
    static let capacity = 16

    /// One registered terminal: where to write the restore sequence and which settings to put back.
    struct Slot {
        var input: Int32 = -1
        var output: Int32 = -1
        var settings = termios()
        /// What `input` and `output` were when registered (device and inode), so a descriptor closed without
        /// restoring and reused for something else (a file, a socket) is never written to.
        var inputIdentity = FileIdentity()
        var outputIdentity = FileIdentity()
    }

    /// A file's device and inode number.
    struct FileIdentity: Equatable {
        var device: UInt64 = 0
        var inode: UInt64 = 0

        /// The identity of the open file `descriptor`, or `nil` when it is not open. Async-signal-safe (`fstat`).
        static func of(_ descriptor: Int32) -> FileIdentity? {
            var status = stat()
            guard fstat(descriptor, &status) == 0 else { return nil }
            return FileIdentity(
                device: UInt64(truncatingIfNeeded: status.st_dev), inode: UInt64(truncatingIfNeeded: status.st_ino))
        }
    }

    /// The signals that end the process with the terminals restored.
    private static let signals: [Int32] = [SIGINT, SIGTERM, SIGHUP]

    /// Everything the signal handler reads, allocated once and never freed. The slots are written under the
    /// registry's lock and read by the handler only while their bit in ``active`` is set.
    private struct Storage: @unchecked Sendable {
        let slots: UnsafeMutablePointer<Slot>
        /// The handlers in place before ours, by index in ``signals``.
        let previousActions: UnsafeMutablePointer<sigaction>
        let restoreSequence: UnsafeMutableBufferPointer<UInt8>
    }

    private static let storage: Storage = {
        let slots = UnsafeMutablePointer<Slot>.allocate(capacity: capacity)
        slots.initialize(repeating: Slot(), count: capacity)
        let actions = UnsafeMutablePointer<sigaction>.allocate(capacity: signals.count)
        actions.initialize(repeating: sigaction(), count: signals.count)
        let bytes = TerminalSequences.leave
        let sequence = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: bytes.count)
        _ = sequence.initialize(from: bytes)
        return Storage(slots: slots, previousActions: actions, restoreSequence: sequence)
    }()

    /// A bit per slot in raw mode; the only state the handler and registration share.
    private static let active = Atomic<UInt32>(0)

    /// Registration bookkeeping (slots in use, whether the hooks are installed), under a lock.
    private struct Registry {
        var used: UInt32 = 0
        var handlersInstalled = false
        var atexitInstalled = false
    }

    private static let registry = Locked(Registry())

    /// Records `settings` as the ones to restore on `input`, with the restore sequence written to `output`, and
    /// returns the slot to pass to ``unregister(_:)``.
    static func register(input: Int32, output: Int32, settings: termios) throws(TerminalError) -> Int {
        let storage = Self.storage  // allocated before any handler can run
        let result: Result<Int, TerminalError> = registry.withLock { registry in
            guard let slot = (0..<capacity).first(where: { registry.used & (1 << $0) == 0 }) else {
                return .failure(TerminalError(.systemCallFailed, "more than \(capacity) terminals in raw mode at once"))
            }
            registry.used |= 1 << slot
            storage.slots[slot] = Slot(
                input: input, output: output, settings: settings,
                inputIdentity: FileIdentity.of(input) ?? FileIdentity(),
                outputIdentity: FileIdentity.of(output) ?? FileIdentity())
            active.bitwiseOr(1 << UInt32(slot), ordering: .sequentiallyConsistent)
            if !registry.atexitInstalled {
                registry.atexitInstalled = true
                atexit { TerminalRestorer.restoreAll() }
            }
            if !registry.handlersInstalled {
                registry.handlersInstalled = true
                installHandlers()
            }
            return .success(slot)
        }
        return try result.get()
    }

    /// Forgets the terminal in `slot` (it was restored by its session); the last one puts the previous signal
    /// handlers back.
    static func unregister(_ slot: Int) {
        registry.withLock { registry in
            active.bitwiseAnd(~(1 << UInt32(slot)), ordering: .sequentiallyConsistent)
            registry.used &= ~(1 << UInt32(slot))
            if registry.used == 0, registry.handlersInstalled {
                registry.handlersInstalled = false
                for (index, signal) in signals.enumerated() { sigaction(signal, storage.previousActions + index, nil) }
            }
        }
    }

    /// Restores every registered terminal, once each. Async-signal-safe.
    static func restoreAll() {
        restore(slots: active.exchange(0, ordering: .sequentiallyConsistent))
    }

    /// Restores the registered terminal read from `input` as ``restoreAll()`` would, leaving the others alone (for
    /// tests, which share the process with other terminals).
    static func restoreRegistered(input: Int32) {
        let bits = registry.withLock { _ in
            (0..<capacity).reduce(UInt32(0)) { storage.slots[$1].input == input ? $0 | 1 << UInt32($1) : $0 }
        }
        let taken = active.bitwiseAnd(~bits, ordering: .sequentiallyConsistent).oldValue & bits
        restore(slots: taken)
    }

    /// Writes the restore sequence to, and puts the settings back on, the terminals of the slots in `mask`.
    /// Async-signal-safe.
    private static func restore(slots mask: UInt32) {
        guard mask != 0 else { return }
        let storage = Self.storage
        for slot in 0..<capacity where mask & (1 << UInt32(slot)) != 0 {
            let entry = storage.slots + slot
            // A descriptor closed without restoring, maybe reused since: leave whatever it is now alone.
            guard FileIdentity.of(entry.pointee.output) == entry.pointee.outputIdentity,
                FileIdentity.of(entry.pointee.input) == entry.pointee.inputIdentity
            else { continue }
            var written = 0
            let sequence = storage.restoreSequence
            while written < sequence.count {
                let result = Glibc.write(
                    entry.pointee.output, sequence.baseAddress! + written, sequence.count - written)
                if result > 0 {
                    written += result
                } else if result < 0, errno == EINTR {
                    continue
                } else {
                    break
                }
            }
            _ = withUnsafeMutablePointer(to: &entry.pointee.settings) { tcsetattr(entry.pointee.input, TCSAFLUSH, $0) }
        }
    }

    /// Whether the terminal read from `input` is registered (for tests).
    static func isRegistered(input: Int32) -> Bool {
        registry.withLock { _ in
            let mask = active.load(ordering: .sequentiallyConsistent)
            return (0..<capacity).contains { mask & (1 << UInt32($0)) != 0 && storage.slots[$0].input == input }
        }
    }

    private static func installHandlers() {
        for (index, signal) in signals.enumerated() {
            var action = sigaction()
            action.__sigaction_handler.sa_handler = { signal in
                TerminalRestorer.handleTermination(signal)
            }
            sigemptyset(&action.sa_mask)
            action.sa_flags = 0
            sigaction(signal, &action, storage.previousActions + index)
        }
    }

    /// The handler of SIGINT, SIGTERM and SIGHUP: restores the terminals and exits with 128 + `signal`. With no
    /// terminal registered (a signal racing the last restore), the previous handler takes the signal instead.
    private static func handleTermination(_ signal: Int32) {
        let hadTerminals = active.load(ordering: .sequentiallyConsistent) != 0
        restoreAll()
        if hadTerminals { _exit(128 + signal) }
        let storage = Self.storage
        for (index, handled) in signals.enumerated() where handled == signal {
            sigaction(signal, storage.previousActions + index, nil)
        }
        raise(signal)
    }
}
