import Dispatch
import Foundation
import TetherServer
import TetherSync

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// `tether serve [db.json] [options]`: the local API server (json-server REST, Rakuten item search, images)
/// until SIGINT or SIGTERM, then a graceful stop (the database's journal folded into its file) and exit code 0.
///
/// Usage mistakes exit 2 before anything starts, and so does a `--tls-cert` or `--tls-key` file that is missing or
/// unreadable; a database file that cannot be read or parsed, a port that cannot be bound, or a certificate or key
/// that OpenSSL cannot use (not PEM, a key of another certificate), exits 1. ``start(_:accessLog:)`` is the start path without signals, for tests.
enum ServeCommand: Command {
    static let name = "serve"
    static let summary = "Run the local API server (REST, Rakuten search, images)"
    static let synopsis = "[db.json] [options]"

    /// The port when `--port` is not given (json-server's).
    static let defaultPort = 3000

    static var help: String {
        """
        USAGE: tether serve [db.json] [options]

        Serves a json-server database (the built-in data set when no file is given), the Rakuten Ichiba item
        search (/services/api/IchibaItem/Search/20220601) and generated images (/images/<id>) until Ctrl-C.
        Writes are saved to the file unless --in-memory or --read-only is given.

        A db.json holds top-level arrays (collections) and objects (singular resources), for example:

          {
            "notes": [{ "id": 1, "title": "Buy milk" }],
            "profile": { "name": "me" }
          }

        Each write is first appended to a journal, and Idempotency-Key records (kept 24 hours) live in
        .db.json.tether/ beside db.json (no longer inside it); the journal is folded into db.json as it grows
        and when the server stops.

        OPTIONS:
          --host <address>      The address to bind (default 127.0.0.1)
          --port <n>            The port (default \(defaultPort); 0 picks a free one)
          --read-only           Refuse writes with 403
          --in-memory           Keep writes in memory; never write the file
          --log                 Print one line per request
          --no-rate-limit       Let the Rakuten search answer more than one request per second
          --latency <range>     Add latency to every response: 150ms or 20ms..200ms
          --fail-rate <r>       Answer this share of requests 503 (0 to 1)
          --reset-rate <r>      Reset this share of connections mid-response (0 to 1)
          --truncate-rate <r>   Cut this share of bodies short of their Content-Length (0 to 1)
          --seed <n>            The seed of the random faults (default 0)
          --tls-cert <file>     Serve HTTPS with this PEM certificate (chain); needs --tls-key
          --tls-key <file>      The certificate's PEM private key (unencrypted)
          --max-connections <n> The most connections open at once (default: from the open-file limit,
                                raised to its hard limit); at the limit the longest-idle one is closed
          -h, --help            Show this help

        A request can script its own faults with the X-Tether-Fault header or the _fault query parameter,
        for example 'X-Tether-Fault: latency=150ms, status=503'.

        """
    }

    /// The command line, read.
    struct Options: Equatable {
        var databaseFile: String?
        var host = "127.0.0.1"
        var port = ServeCommand.defaultPort
        var writes = TetherServerApp.Options.Writes.persistent
        var log = false
        var rateLimit = true
        var faults = FaultConfiguration.none
        /// `--tls-cert` and `--tls-key`: serve HTTPS.
        var tls: HTTPServer.TLSIdentity?
        /// `--max-connections`; 0 when not given (derived from the open-file limit).
        var maximumConnections = 0
    }

    static func run(_ arguments: ArraySlice<String>, console: Console) throws(CLIError) -> Int32 {
        guard let options = try parse(arguments) else {
            console.print(help)
            return ExitCode.success
        }
        let database = try openDatabase(options)
        let session = ServeSession()
        // Before the server listens: a SIGTERM that comes as soon as the port answers still stops it cleanly (the
        // journal folded), instead of killing it with the signal's default action.
        let sources = [SIGINT, SIGTERM].map { signalNumber in
            signal(signalNumber, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: signalNumber, queue: .global())
            source.setEventHandler { session.requestStop() }
            source.resume()
            return source
        }
        defer {
            for source in sources { source.cancel() }
            signal(SIGINT, SIG_DFL)
            signal(SIGTERM, SIG_DFL)
        }
        let app = try runBlocking { () async throws(CLIError) -> TetherServerApp in
            try await start(options, database: database, accessLog: options.log ? session.log : nil)
        }
        if !TetherServerApp.isLoopback(host: options.host) {
            console.printError(
                "tether: warning: listening on \(options.host), so other machines can reach this server\n")
        }
        console.print(banner(for: app))

        while true {
            let (lines, stop) = session.next()
            for line in lines { console.print(line + "\n") }
            if stop { break }
        }
        console.printError("tether: stopping\n")
        // A clean stop folds the journal into the database file (see JSONDatabase.close()).
        let foldFailure = try runBlocking { () async throws(CLIError) -> String? in
            await app.stop()
            do throws(ServerError) {
                try await database?.close()
                return nil
            } catch {
                return error.message
            }
        }
        if let foldFailure {
            console.printError(
                "tether: warning: the journal was not folded into the database file (\(foldFailure)); its writes are "
                    + "replayed at the next start\n")
        }
        for line in session.drain() { console.print(line + "\n") }
        return ExitCode.success
    }

    /// Reads the command line; `nil` for `--help`.
    ///
    /// - Throws: ``CLIError/usage(_:hint:)`` for an unknown option, a missing or invalid value, conflicting
    ///   flags or a second file.
    static func parse(_ arguments: ArraySlice<String>) throws(CLIError) -> Options? {
        let hint = "tether serve --help"
        var options = Options()
        var latency: String?
        var failRate: String?
        var resetRate: String?
        var truncateRate: String?
        var seed: String?
        var readOnly = false
        var inMemory = false
        var certificateFile: String?
        var keyFile: String?
        var optionsEnded = false
        var rest = arguments
        while let argument = rest.popFirst() {
            if optionsEnded || argument == "-" || !argument.hasPrefix("-") {
                guard options.databaseFile == nil else { throw .usage("unexpected argument '\(argument)'", hint: hint) }
                options.databaseFile = argument
                continue
            }
            var name = argument
            var inlineValue: String?
            if let equals = argument.firstIndex(of: "="), argument.hasPrefix("--") {
                name = String(argument[..<equals])
                inlineValue = String(argument[argument.index(after: equals)...])
            }
            func value() throws(CLIError) -> String {
                if let inlineValue { return inlineValue }
                guard let next = rest.popFirst() else { throw .usage("option '\(name)' needs a value", hint: hint) }
                return next
            }
            if inlineValue != nil, ["--read-only", "--in-memory", "--log", "--no-rate-limit", "--help"].contains(name) {
                throw .usage("option '\(name)' takes no value", hint: hint)
            }
            switch name {
            case "--": optionsEnded = true
            case "-h", "--help": return nil
            case "--host":
                options.host = try value()
                guard !options.host.isEmpty else { throw .usage("option '--host' needs an address", hint: hint) }
            case "--port":
                let text = try value()
                guard let port = Int(text), (0...65535).contains(port) else {
                    throw .usage("invalid port '\(text)': expected 0 to 65535", hint: hint)
                }
                options.port = port
            case "--read-only": readOnly = true
            case "--in-memory": inMemory = true
            case "--log": options.log = true
            case "--no-rate-limit": options.rateLimit = false
            case "--latency": latency = try value()
            case "--fail-rate": failRate = try value()
            case "--reset-rate": resetRate = try value()
            case "--truncate-rate": truncateRate = try value()
            case "--seed": seed = try value()
            case "--tls-cert": certificateFile = try value()
            case "--tls-key": keyFile = try value()
            case "--max-connections":
                let text = try value()
                guard let count = Int(text), count > 0 else {
                    throw .usage(
                        "invalid value '\(text)' for '--max-connections': expected a positive number", hint: hint)
                }
                options.maximumConnections = count
            default: throw .usage("unknown option '\(argument)' for 'tether serve'", hint: hint)
            }
        }
        switch (certificateFile, keyFile) {
        case (nil, nil): break
        case (let certificate?, let key?):
            try checkReadable(certificate, "certificate", hint: hint)
            try checkReadable(key, "key", hint: hint)
            options.tls = HTTPServer.TLSIdentity(certificateFile: certificate, privateKeyFile: key)
        case (nil, _): throw .usage("--tls-key needs --tls-cert", hint: hint)
        case (_, nil): throw .usage("--tls-cert needs --tls-key", hint: hint)
        }
        if readOnly && inMemory { throw .usage("--read-only and --in-memory cannot be combined", hint: hint) }
        options.writes = readOnly ? .readOnly : inMemory ? .inMemory : .persistent
        do throws(ServerError) {
            options.faults = try FaultConfiguration.parse(
                latency: latency, failRate: failRate, resetRate: resetRate, truncateRate: truncateRate, seed: seed)
        } catch {
            throw .usage(error.message, hint: hint)
        }
        return options
    }

    /// Throws a usage error when `path` (a `--tls-cert` or `--tls-key` file) is missing or cannot be read.
    static func checkReadable(_ path: String, _ what: String, hint: String) throws(CLIError) {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw .usage("cannot read the TLS \(what) file '\(path)': no such file", hint: hint)
        }
        guard !isDirectory.boolValue, FileManager.default.isReadableFile(atPath: path) else {
            throw .usage("cannot read the TLS \(what) file '\(path)': permission denied or not a file", hint: hint)
        }
    }

    /// Opens the database file, if the options name one.
    ///
    /// - Throws: ``CLIError/failure(_:)`` with the reason (the parse error's line and column for invalid JSON).
    static func openDatabase(_ options: Options) throws(CLIError) -> JSONDatabase? {
        guard let path = options.databaseFile else { return nil }
        do throws(ServerError) {
            return try TetherServerApp.openFile(URL(fileURLWithPath: path), writes: options.writes)
        } catch {
            throw .failure(error.message)
        }
    }

    /// Starts the server the options describe, on `database` (opened by ``openDatabase(_:)``) or the
    /// built-in data set; the start path of ``run(_:console:)`` without signals.
    ///
    /// - Throws: ``CLIError/failure(_:)`` when the server cannot listen (port in use, invalid host).
    static func start(
        _ options: Options, database: JSONDatabase? = nil, accessLog: (@Sendable (String) -> Void)? = nil
    ) async throws(CLIError) -> TetherServerApp {
        var appOptions = TetherServerApp.Options(
            data: database.map { .database($0) } ?? .builtIn, writes: options.writes, host: options.host,
            port: options.port, rakutenRateLimit: options.rateLimit, faults: options.faults, accessLog: accessLog)
        appOptions.tls = options.tls
        appOptions.maximumConnections = options.maximumConnections
        do throws(ServerError) {
            return try await TetherServerApp.start(appOptions)
        } catch {
            throw .failure("cannot serve on \(options.host) port \(options.port): \(error.message)")
        }
    }

    /// What `tether serve` prints once it listens: the base URL and the routes.
    static func banner(for app: TetherServerApp) -> String {
        let base = app.baseURL.absoluteString
        var text = "Tether server listening on \(base)\n\nResources\n"
        for resource in app.resources { text += "  \(base)/\(resource)\n" }
        text += """

            Rakuten Ichiba item search
              \(base)/services/api/IchibaItem/Search/20220601?applicationId=<any>&keyword=<keyword>
              \(base)/ichibams/api/IchibaItem/Search/20260701?applicationId=<any>&accessKey=<any>&keyword=<keyword>

            Images
              \(base)/images/<id>?_ex=128x128

            Press Ctrl-C to stop.

            """
        return text
    }
}

/// The running command's mailbox: access-log lines from connection threads and the stop request from the
/// signal handlers, read by the command's thread.
private final class ServeSession: @unchecked Sendable {
    private let lock = NSLock()
    private var lines: [String] = []
    private var stopRequested = false
    private let wake = DispatchSemaphore(value: 0)

    /// Queues a log line; called on the server's event loops, so it never blocks.
    @Sendable func log(_ line: String) {
        lock.withLock { lines.append(line) }
        wake.signal()
    }

    /// Asks the command to stop.
    func requestStop() {
        lock.withLock { stopRequested = true }
        wake.signal()
    }

    /// Waits for a log line or the stop request; returns the queued lines and whether to stop.
    func next() -> (lines: [String], stop: Bool) {
        wake.wait()
        return lock.withLock {
            defer { lines = [] }
            return (lines, stopRequested)
        }
    }

    /// The queued lines, without waiting.
    func drain() -> [String] {
        lock.withLock {
            defer { lines = [] }
            return lines
        }
    }
}
