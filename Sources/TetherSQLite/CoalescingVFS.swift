import CSQLite

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A thin layer over the platform's SQLite file system ("VFS") that writes each commit's write-ahead-log frames
/// with one system call instead of two per page.
///
/// SQLite appends a frame to the log as two writes, its 24-byte header and then the page; an edit saved in the
/// outbox writes four or five frames, so ten `pwrite` calls. This layer keeps consecutive appends to a log in
/// memory and writes them at once when the page of the transaction's commit frame arrives (a frame header whose
/// database-size field is not zero). That write happens inside SQLite's commit, before the log's index in shared
/// memory says the transaction exists, and its error is SQLite's error, so what another connection or process can
/// see, what survives a kill -9, and what a failing disk reports are as without this layer.
///
/// Anything that is not the next append to the log (a rewrite of a frame, the log's header after a restart) is
/// written through at once, after the appends kept so far. The appends kept are also written before any other use
/// of the log file (a read, a sync, a size, a truncation, closing it), before the database file's shared-memory
/// barrier and locks (a safety net: the commit has written them already), and whenever they reach 1 MiB (a large
/// transaction that spills pages before it commits).
///
/// Every other file (the database, journals, temporary files) and every other call goes straight to the layer
/// below.
///
/// - Thread safety: SQLite calls a file's methods from one thread at a time (a connection is used by one thread at
///   a time, and every connection has its own files). Registration is done once, by `registeredName`.
package enum CoalescingVFS {
    /// The VFS name to pass to `sqlite3_open_v2`, or `nil` when registering failed (the default VFS is used then).
    package static let registeredName: String? = Registration.shared.map { _ in name }

    package static let name = "tether-coalescing"

    /// Appends kept in memory beyond this size are written out before the transaction commits.
    package static let bufferLimit = 1 << 20

    /// The most bytes handed to the layer below in one write (its Unix implementation takes less than 128 KiB).
    package static let writeLimit = 64 * 1024
}

/// The VFS registered with SQLite, and the one below it.
private struct Registration: @unchecked Sendable {
    let base: UnsafeMutablePointer<sqlite3_vfs>
    let methods: UnsafeMutablePointer<sqlite3_io_methods>

    static let shared: Registration? = {
        guard let base = sqlite3_vfs_find(nil) else { return nil }
        let methods = UnsafeMutablePointer<sqlite3_io_methods>.allocate(capacity: 1)
        methods.initialize(to: makeMethods())
        let vfs = UnsafeMutablePointer<sqlite3_vfs>.allocate(capacity: 1)
        // The layer below's own methods for everything but opening a file: they read nothing of the struct but the
        // fields copied with it.
        vfs.initialize(to: base.pointee)
        vfs.pointee.pNext = nil
        vfs.pointee.szOsFile = Int32(FileHeader.size) + base.pointee.szOsFile
        vfs.pointee.zName = UnsafePointer(strdup(CoalescingVFS.name))
        vfs.pointee.xOpen = { _, name, file, flags, outFlags in open(name, file, flags, outFlags) }
        guard sqlite3_vfs_register(vfs, 0) == SQLITE_OK else { return nil }
        return Registration(base: base, methods: methods)
    }()
}

/// The start of each file this layer opens: SQLite's `sqlite3_file` (its methods), the file's ``FileState``, and
/// then the layer below's file.
private enum FileHeader {
    static let size = 16

    static func below(_ file: UnsafeMutablePointer<sqlite3_file>) -> UnsafeMutablePointer<sqlite3_file> {
        UnsafeMutableRawPointer(file).advanced(by: size).assumingMemoryBound(to: sqlite3_file.self)
    }

    static func state(_ file: UnsafeMutablePointer<sqlite3_file>?) -> FileState {
        let raw = UnsafeMutableRawPointer(file!).load(fromByteOffset: 8, as: UnsafeMutableRawPointer.self)
        return Unmanaged<FileState>.fromOpaque(raw).takeUnretainedValue()
    }
}

private func open(
    _ name: UnsafePointer<CChar>?, _ file: UnsafeMutablePointer<sqlite3_file>?, _ flags: Int32,
    _ outFlags: UnsafeMutablePointer<Int32>?
) -> Int32 {
    guard let file, let registration = Registration.shared else { return SQLITE_CANTOPEN }
    file.pointee.pMethods = nil
    let below = FileHeader.below(file)
    let status = registration.base.pointee.xOpen(registration.base, name, below, flags, outFlags)
    guard status == SQLITE_OK, below.pointee.pMethods != nil else { return status }
    let state = FileState(below: below, isLog: flags & SQLITE_OPEN_WAL != 0)
    if state.isLog, let name, let main = sqlite3_database_file_object(name),
        main.pointee.pMethods == UnsafePointer(registration.methods)
    {
        let mainState = FileHeader.state(main)
        mainState.log = state
        state.main = mainState
    }
    UnsafeMutableRawPointer(file).storeBytes(
        of: Unmanaged.passRetained(state).toOpaque(), toByteOffset: 8, as: UnsafeMutableRawPointer.self)
    file.pointee.pMethods = UnsafePointer(registration.methods)
    return SQLITE_OK
}

/// One open file: the layer below's file and, for a write-ahead log, the appends not written yet.
private final class FileState {
    let below: UnsafeMutablePointer<sqlite3_file>
    let isLog: Bool
    /// On a database file: its open log.
    var log: FileState?
    /// On a log: its database file.
    weak var main: FileState?

    private var buffer: UnsafeMutableRawPointer?
    private var capacity = 0
    private var count = 0
    /// The offset in the file of `buffer`'s first byte.
    private var start: Int64 = 0
    /// Where the last write ended: a write starting there is the next append.
    private var appendEnd: Int64 = -1
    /// Where the page of a commit frame whose header is in `buffer` starts (-1: none).
    private var commitPageAt: Int64 = -1

    init(below: UnsafeMutablePointer<sqlite3_file>, isLog: Bool) {
        self.below = below
        self.isLog = isLog
    }

    deinit { free(buffer) }

    var methods: sqlite3_io_methods { below.pointee.pMethods.pointee }

    func write(_ data: UnsafeRawPointer, _ amount: Int32, _ offset: Int64) -> Int32 {
        let length = Int(amount)
        let isAppend = isLog && offset == appendEnd
        appendEnd = offset + Int64(length)
        guard isAppend else {
            let status = flush()
            guard status == SQLITE_OK else { return status }
            return methods.xWrite!(below, data, amount, offset)
        }
        if count == 0 { start = offset }
        if count + length > capacity {
            let grown = max(count + length, max(capacity * 2, 64 * 1024))
            guard let larger = realloc(buffer, grown) else {
                let status = flush()
                return status == SQLITE_OK ? methods.xWrite!(below, data, amount, offset) : status
            }
            buffer = larger
            capacity = grown
        }
        (buffer! + count).copyMemory(from: data, byteCount: length)
        count += length
        if length == 24 {
            // A frame header: bytes 4..<8 are the database's size in pages after a commit, zero otherwise.
            let bytes = data.assumingMemoryBound(to: UInt8.self)
            if bytes[4] | bytes[5] | bytes[6] | bytes[7] != 0 { commitPageAt = offset + 24 }
        } else if offset == commitPageAt {
            commitPageAt = -1
            return flush()
        }
        return count >= CoalescingVFS.bufferLimit ? flush() : SQLITE_OK
    }

    /// Writes the appends kept so far with one call to the layer below.
    func flush() -> Int32 {
        guard count > 0, let buffer else { return SQLITE_OK }
        let length = count
        count = 0
        // SQLite's Unix layer takes at most 128 KiB per write.
        var status = SQLITE_OK
        var written = 0
        while written < length, status == SQLITE_OK {
            let chunk = min(CoalescingVFS.writeLimit, length - written)
            status = methods.xWrite!(below, buffer + written, Int32(chunk), start + Int64(written))
            written += chunk
        }
        if capacity > CoalescingVFS.bufferLimit * 2 {
            // Memory kept after a large transaction is given back.
            free(buffer)
            self.buffer = nil
            capacity = 0
        }
        return status
    }

    /// On a database file: writes its log's kept appends.
    func flushLog() -> Int32 { log?.flush() ?? SQLITE_OK }
}

// MARK: - The file methods

private func makeMethods() -> sqlite3_io_methods {
    var methods = sqlite3_io_methods()
    methods.iVersion = 3
    methods.xClose = { file in
        let state = FileHeader.state(file)
        let flushed = state.flush()
        let status = state.methods.xClose!(state.below)
        if state.isLog { state.main?.log = nil }
        state.log = nil
        Unmanaged.passUnretained(state).release()
        file?.pointee.pMethods = nil
        return flushed == SQLITE_OK ? status : flushed
    }
    methods.xRead = { file, data, amount, offset in
        let state = FileHeader.state(file)
        let status = state.flush()
        guard status == SQLITE_OK else { return status }
        return state.methods.xRead!(state.below, data, amount, offset)
    }
    methods.xWrite = { file, data, amount, offset in
        FileHeader.state(file).write(data!, amount, offset)
    }
    methods.xTruncate = { file, size in
        let state = FileHeader.state(file)
        let status = state.flush()
        guard status == SQLITE_OK else { return status }
        return state.methods.xTruncate!(state.below, size)
    }
    methods.xSync = { file, flags in
        let state = FileHeader.state(file)
        var status = state.flush()
        if status == SQLITE_OK { status = state.flushLog() }
        guard status == SQLITE_OK else { return status }
        return state.methods.xSync!(state.below, flags)
    }
    methods.xFileSize = { file, size in
        let state = FileHeader.state(file)
        let status = state.flush()
        guard status == SQLITE_OK else { return status }
        return state.methods.xFileSize!(state.below, size)
    }
    methods.xLock = { file, lock in
        let state = FileHeader.state(file)
        return state.methods.xLock!(state.below, lock)
    }
    methods.xUnlock = { file, lock in
        let state = FileHeader.state(file)
        _ = state.flushLog()
        return state.methods.xUnlock!(state.below, lock)
    }
    methods.xCheckReservedLock = { file, result in
        let state = FileHeader.state(file)
        return state.methods.xCheckReservedLock!(state.below, result)
    }
    methods.xFileControl = { file, operation, argument in
        let state = FileHeader.state(file)
        let status = state.flush()
        guard status == SQLITE_OK else { return status }
        return state.methods.xFileControl!(state.below, operation, argument)
    }
    methods.xSectorSize = { file in
        let state = FileHeader.state(file)
        return state.methods.xSectorSize!(state.below)
    }
    methods.xDeviceCharacteristics = { file in
        let state = FileHeader.state(file)
        return state.methods.xDeviceCharacteristics!(state.below)
    }
    methods.xShmMap = { file, page, pageSize, extend, address in
        let state = FileHeader.state(file)
        guard state.methods.iVersion >= 2, let map = state.methods.xShmMap else { return SQLITE_IOERR }
        return map(state.below, page, pageSize, extend, address)
    }
    methods.xShmLock = { file, offset, count, flags in
        let state = FileHeader.state(file)
        guard state.methods.iVersion >= 2, let lock = state.methods.xShmLock else { return SQLITE_IOERR }
        let status = state.flushLog()
        guard status == SQLITE_OK else { return status }
        return lock(state.below, offset, count, flags)
    }
    methods.xShmBarrier = { file in
        let state = FileHeader.state(file)
        _ = state.flushLog()
        guard state.methods.iVersion >= 2 else { return }
        state.methods.xShmBarrier?(state.below)
    }
    methods.xShmUnmap = { file, delete in
        let state = FileHeader.state(file)
        guard state.methods.iVersion >= 2, let unmap = state.methods.xShmUnmap else { return SQLITE_OK }
        return unmap(state.below, delete)
    }
    methods.xFetch = { file, offset, amount, pointer in
        let state = FileHeader.state(file)
        guard state.methods.iVersion >= 3, let fetch = state.methods.xFetch else {
            pointer?.pointee = nil
            return SQLITE_OK
        }
        return fetch(state.below, offset, amount, pointer)
    }
    methods.xUnfetch = { file, offset, pointer in
        let state = FileHeader.state(file)
        guard state.methods.iVersion >= 3, let unfetch = state.methods.xUnfetch else { return SQLITE_OK }
        return unfetch(state.below, offset, pointer)
    }
    return methods
}
