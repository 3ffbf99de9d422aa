import Synchronization
import TetherSync

#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#endif

/// Random identifiers for the outbox: `Idempotency-Key` values and lease owners.
///
/// Foundation's `UUID()` opens and reads `/dev/urandom` on every call on Linux (about 3 µs with its system calls,
/// in a profile), and `SystemRandomNumberGenerator` makes one `getrandom` call per 8 bytes. The keys here come
/// from a pool of 1,024 bytes of the system's cryptographic randomness (`arc4random_buf` on Apple platforms; on
/// Linux `/dev/urandom`, opened once, since the Glibc module does not export `getrandom`), refilled when used up:
/// one system call per 64 keys. A forked child process starts with an empty pool, so it never hands out the keys
/// its parent will.
///
/// - Thread safety: callable from any thread (the pool is behind a lock).
enum RandomKey {
    /// A random (version 4) UUID in lowercase text, e.g. `1b4e28ba-2fa1-41d2-883f-0016d3cca427`: 122 random bits.
    static func uuid() -> String {
        var (high, low) = pool.withLock { $0.next() }
        high = (high & ~0xF000) | 0x4000  // version 4
        low = (low & ~(0xC000 << 48)) | (0x8000 << 48)  // variant 10
        return String(unsafeUninitializedCapacity: 36) { text in
            let digits: StaticString = "0123456789abcdef"
            var position = 0
            for (index, word) in [high, low].enumerated() {
                for shift in stride(from: 60, through: 0, by: -4) {
                    let nibble = index * 16 + (60 - shift) / 4
                    if nibble == 8 || nibble == 12 || nibble == 16 || nibble == 20 {
                        text[position] = UInt8(ascii: "-")
                        position += 1
                    }
                    text[position] = digits.utf8Start[Int((word >> UInt64(shift)) & 0xF)]
                    position += 1
                }
            }
            return position
        }
    }

    private static let pool: Locked<Pool> = {
        #if canImport(Glibc)
            // The child of a fork empties its copy of the pool (the fork's copy of the lock is free then: a fork copies
            // only the calling thread, and this handler runs in it before anything else).
            pthread_atfork(nil, nil) { RandomKey.forkGeneration.add(1, ordering: .relaxed) }
        #endif
        return Locked(Pool())
    }()

    #if !canImport(Darwin)
        /// `/dev/urandom`, opened once and kept (the kernel's cryptographic generator, the source `getrandom` reads),
        /// or -1 when it cannot be opened.
        private static let urandom: Int32 = open("/dev/urandom", O_RDONLY | O_CLOEXEC)
    #endif

    /// Counts the forks this process is a child of, so that a pool filled before a fork is never used after it.
    private static let forkGeneration = Atomic<Int>(0)

    /// Random bytes drawn from the system in blocks.
    private struct Pool {
        private var bytes = [UInt64](repeating: 0, count: 128)
        private var used = 128
        private var generation = 0

        /// The next 16 random bytes, as two words.
        mutating func next() -> (UInt64, UInt64) {
            let current = RandomKey.forkGeneration.load(ordering: .relaxed)
            if used + 2 > bytes.count || generation != current {
                refill()
                generation = current
            }
            defer { used += 2 }
            return (bytes[used], bytes[used + 1])
        }

        private mutating func refill() {
            bytes.withUnsafeMutableBytes { buffer in
                #if canImport(Darwin)
                    arc4random_buf(buffer.baseAddress, buffer.count)
                #else
                    var filled = 0
                    while filled < buffer.count {
                        let count =
                            RandomKey.urandom >= 0
                            ? read(RandomKey.urandom, buffer.baseAddress! + filled, buffer.count - filled) : -1
                        if count > 0 {
                            filled += count
                        } else if count < 0 && errno == EINTR {
                            continue
                        } else {
                            // /dev/urandom cannot be read (a sandbox without it): the standard library's generator
                            // (getrandom, 8 bytes per call; it traps rather than return weak bytes) fills the rest.
                            var generator = SystemRandomNumberGenerator()
                            while filled < buffer.count {
                                buffer[filled] = UInt8.random(in: 0...255, using: &generator)
                                filled += 1
                            }
                        }
                    }
                #endif
            }
            used = 0
        }
    }
}
