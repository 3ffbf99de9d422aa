import Dispatch
import Foundation
import TetherHTTP
import TetherIO
import TetherJSON
import TetherServer
import TetherSync

/// `tether get <url|path> [options]`: one HTTP request through ``HTTPClient``, curl and HTTPie style.
///
/// A URL (`http://127.0.0.1:3000/posts/1`, `127.0.0.1:3000/posts/1`, or `:3000/posts/1` for 127.0.0.1) is sent
/// as is; a path (`/posts/1`) goes to an embedded ``TetherServerApp`` (the built-in data set on a free port,
/// stopped afterwards). A JSON answer is printed indented, anything else byte for byte. Exit code 0 for a 2xx
/// answer, 1 for any failure with one line on standard error (the server's own message when its error body has
/// one), 2 for a wrong command line:
///
/// ```text
/// $ tether get /posts/9999
/// tether: GET /posts/9999: 404 Not Found
/// ```
enum GetCommand: Command {
    static let name = "get"
    static let summary = "Send an HTTP request and print the answer (curl style)"
    static let synopsis = "<url|path> [options]"

    static let help = """
        USAGE: tether get <url|path> [-X METHOD] [-H 'Name: value'] [-d BODY] [-i] [-v] [--cache DIR] [--json]
                          [--transport native|urlsession] [--cacert FILE] [-k]

        Sends one request and prints the answer's body: JSON indented by two spaces, anything
        else as it is. A path such as /posts/1 goes to an embedded Tether server (the built-in
        data set, as 'tether serve' has it) started for this request only; a URL goes to its
        host ('127.0.0.1:3000/posts' and ':3000/posts' mean http://127.0.0.1:3000/posts).
        GET requests are retried on connection errors, 408, 429 and 5xx (3 attempts in all).

        Exit code 0 for a 2xx answer; 1 for anything else, with one line on standard error
        that quotes the server's error message when it sends one; 2 for a wrong command line.

        OPTIONS:
          -X, --request <method>   The method (default GET, or POST with -d)
          -H, --header <header>    Add a header, 'Name: value' (repeatable; replaces a default)
          -d, --data <body>        Send a body; @file reads a file, @- standard input. A body
                                   that is valid JSON is sent as application/json, any other
                                   as application/x-www-form-urlencoded (-H Content-Type wins)
          -i, --include            Print the status line and headers before the body, also for
                                   an answer that fails (without -i a failing answer prints
                                   nothing on standard output)
          -v, --verbose            On standard error: the request and its headers, each
                                   attempt, the answer's headers and where it came from
                                   (network, cache, or revalidated with the server), and the
                                   transfer's timings (look-up, connect, TLS, sent, first
                                   byte, complete, bytes) when the transport measures them
          --cache <dir>            Use an HTTP cache in this folder (its disk tier): a fresh
                                   copy is served without asking, a stale one is revalidated
          --transport <name>       native (Tether's own HTTP/1.1 transport, http and https;
                                   Linux, where it is the default) or urlsession
          --cacert <file>          Trust the certificates in this PEM file as well as the
                                   system's (a development CA, a self-signed server); uses
                                   the native transport
          -k, --insecure           Accept any https certificate, for any host (development
                                   only); uses the native transport
          --json                   Insist on JSON: a -d body must be valid JSON, and an answer
                                   that is not JSON (whatever its Content-Type) is an error
          -h, --help               Show this help

        """

    /// The command line, read.
    struct Options: Equatable {
        /// Where the request goes.
        enum Target: Equatable {
            /// A path for the embedded server, such as `/posts?_page=1`.
            case embedded(String)
            /// An absolute `http` or `https` URL.
            case url(String)
        }

        var target: Target
        var method: String?
        var headers: [Header] = []
        /// The `-d` argument as given (`@file` not yet read).
        var data: String?
        var include = false
        var verbose = false
        var json = false
        var cacheDirectory: String?
        /// `--transport`: `native` or `urlsession`, `nil` for the client's default.
        var transport: String?
        /// `--cacert`: a PEM file of certificates to trust.
        var trustedCertificates: String?
        /// `-k`: no certificate verification.
        var insecure = false

        /// The method to send: `-X`, else POST with a body, else GET.
        var effectiveMethod: String { method ?? (data == nil ? "GET" : "POST") }
    }

    /// One `-H` header.
    struct Header: Equatable {
        var name: String
        var value: String
    }

    static func run(_ arguments: ArraySlice<String>, console: Console) throws(CLIError) -> Int32 {
        guard let options = try parse(arguments) else {
            console.print(help)
            return ExitCode.success
        }
        let body = try readBody(options, console: console)
        let session = GetSession()
        Task.detached { await perform(options, body: body, session: session) }
        var outcome: Outcome?
        while outcome == nil {
            let (lines, finished) = session.next()
            for line in lines { console.printError(line + "\n") }
            outcome = finished
        }
        return try report(outcome!, options: options, console: console)
    }

    // MARK: - The command line

    /// Reads the command line; `nil` for `--help`.
    ///
    /// - Throws: ``CLIError/usage(_:hint:)`` for an unknown option, a missing value, a malformed header, method or
    ///   URL, a second `-d` or a second target.
    static func parse(_ arguments: ArraySlice<String>) throws(CLIError) -> Options? {
        let hint = "tether get --help"
        var target: String?
        var options = Options(target: .embedded("/"))
        var optionsEnded = false
        var rest = arguments
        while let argument = rest.popFirst() {
            if optionsEnded || argument == "-" || !argument.hasPrefix("-") {
                guard target == nil else { throw .usage("unexpected argument '\(argument)'", hint: hint) }
                target = argument
                continue
            }
            var name = argument
            var inlineValue: String?
            if argument.hasPrefix("--"), let equals = argument.firstIndex(of: "=") {
                name = String(argument[..<equals])
                inlineValue = String(argument[argument.index(after: equals)...])
            } else if !argument.hasPrefix("--"), argument.count > 2,
                ["-X", "-H", "-d"].contains(String(argument.prefix(2)))
            {
                name = String(argument.prefix(2))
                inlineValue = String(argument.dropFirst(2))
            }
            func value() throws(CLIError) -> String {
                if let inlineValue { return inlineValue }
                guard let next = rest.popFirst() else { throw .usage("option '\(name)' needs a value", hint: hint) }
                return next
            }
            if inlineValue != nil,
                ["-i", "--include", "-v", "--verbose", "--json", "--help", "-k", "--insecure"].contains(name)
            {
                throw .usage("option '\(name)' takes no value", hint: hint)
            }
            switch name {
            case "--": optionsEnded = true
            case "-h", "--help": return nil
            case "-i", "--include": options.include = true
            case "-v", "--verbose": options.verbose = true
            case "--json": options.json = true
            case "-k", "--insecure": options.insecure = true
            case "--cacert":
                let file = try value()
                try ServeCommand.checkReadable(file, "certificate", hint: hint)
                options.trustedCertificates = file
            case "-X", "--request":
                let method = try value()
                guard !method.isEmpty, method.utf8.allSatisfy(isTokenByte) else {
                    throw .usage("invalid method '\(method)'", hint: hint)
                }
                options.method = method
            case "-H", "--header":
                options.headers.append(try header(try value(), hint: hint))
            case "-d", "--data":
                guard options.data == nil else { throw .usage("option '-d' given twice", hint: hint) }
                options.data = try value()
            case "--transport":
                let name = try value()
                guard ["native", "urlsession"].contains(name) else {
                    throw .usage("unknown transport '\(name)': expected native or urlsession", hint: hint)
                }
                #if !os(Linux)
                    if name == "native" { throw .usage("the native transport needs Linux", hint: hint) }
                #endif
                options.transport = name
            case "--cache":
                let directory = try value()
                guard !directory.isEmpty else { throw .usage("option '--cache' needs a folder", hint: hint) }
                options.cacheDirectory = directory
            default: throw .usage("unknown option '\(argument)' for 'tether get'", hint: hint)
            }
        }
        if options.trustedCertificates != nil || options.insecure {
            #if os(Linux)
                guard options.transport != "urlsession" else {
                    throw .usage("--cacert and -k need the native transport, not urlsession", hint: hint)
                }
                options.transport = "native"
            #else
                throw .usage("--cacert and -k need the native transport, which needs Linux", hint: hint)
            #endif
        }
        guard let target else { throw .usage("missing the URL or path to get", hint: hint) }
        options.target = try resolve(target, hint: hint)
        return options
    }

    /// A `Name: value` header.
    static func header(_ text: String, hint: String) throws(CLIError) -> Header {
        guard let colon = text.firstIndex(of: ":") else {
            throw .usage("invalid header '\(text)': expected 'Name: value'", hint: hint)
        }
        let name = String(text[..<colon])
        let value = text[text.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        guard !name.isEmpty, name.utf8.allSatisfy(isTokenByte) else {
            throw .usage("invalid header name '\(name)'", hint: hint)
        }
        guard !value.contains(where: \.isNewline) else {
            throw .usage("the value of header '\(name)' contains a line break", hint: hint)
        }
        return Header(name: name, value: value)
    }

    /// The target of `text`: a path for the embedded server, or an absolute URL.
    static func resolve(_ text: String, hint: String) throws(CLIError) -> Options.Target {
        if text.hasPrefix("/") { return .embedded(text) }
        var url = text
        if text.hasPrefix(":") {
            url = "http://127.0.0.1" + text
        } else if !text.contains("://") {
            url = "http://" + text
        }
        guard let parsed = URL(string: url), let scheme = parsed.scheme?.lowercased(),
            scheme == "http" || scheme == "https", let host = parsed.host, !host.isEmpty
        else { throw .usage("'\(text)' is not an http or https URL, nor a path starting with '/'", hint: hint) }
        return .url(url)
    }

    /// Whether `byte` may appear in an HTTP token (a method, a header name).
    static func isTokenByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"):
            true
        default: Array("!#$%&'*+-.^_`|~".utf8).contains(byte)
        }
    }

    /// The bytes of `-d` (a file's for `@file`, standard input's for `@-`) and their content type.
    static func readBody(_ options: Options, console: Console) throws(CLIError) -> RequestBody? {
        guard let data = options.data else { return nil }
        var bytes = Array(data.utf8)
        if data.hasPrefix("@") {
            bytes = try JSONCommand.read(String(data.dropFirst()), console: console)
        }
        let isJSON: Bool
        do {
            _ = try JSONParser().parse(bytes)
            isJSON = true
        } catch {
            if options.json {
                throw .usage("the body is not valid JSON: \(error.message)", hint: "tether get --help")
            }
            isJSON = false
        }
        return .data(Data(bytes), contentType: isJSON ? "application/json" : "application/x-www-form-urlencoded")
    }

    // MARK: - The request

    /// What the request ended with.
    enum Outcome: Sendable {
        case response(Response<Data>)
        case failed(HTTPError)
        /// The embedded server did not start.
        case unavailable(String)
    }

    /// The origin of requests to the embedded server as the client and its cache see them, so a `--cache` folder
    /// serves the same paths across runs although the server's port changes; rewritten to the real server's
    /// address just before each attempt.
    static let embeddedOrigin = "http://tether-embedded"

    /// Starts the embedded server if needed, sends the request and posts lines and the outcome to `session`.
    static func perform(_ options: Options, body: RequestBody?, session: GetSession) async {
        var app: TetherServerApp?
        var path: String
        var base: String?
        switch options.target {
        case .url(let url):
            path = url
        case .embedded(let embeddedPath):
            do throws(ServerError) {
                app = try await TetherServerApp.start(.init(writes: .inMemory))
            } catch {
                session.finish(.unavailable("cannot start the embedded server: \(error.message)"))
                return
            }
            base = app!.baseURL.absoluteString
            path = embeddedPath
        }
        let display = Display(embeddedBase: base)
        let client = HTTPClient(baseURL: base.map { _ in URL(string: embeddedOrigin)! }) { configuration in
            if let directory = options.cacheDirectory {
                configuration.cache = HTTPCache(
                    configuration: .init(memoryCostLimit: 0, directory: URL(fileURLWithPath: directory)))
            }
            switch options.transport {
            case "urlsession": configuration.transport = URLSessionTransport()
            #if os(Linux)
                case "native":
                    var native = NativeTransport.Configuration()
                    native.tls.additionalTrustedCertificates =
                        options.trustedCertificates.map { [URL(fileURLWithPath: $0)] } ?? []
                    native.tls.allowsInsecure = options.insecure
                    configuration.transport = NativeTransport(configuration: native)
            #endif
            default: break
            }
            if base != nil {
                configuration.interceptors.append(
                    RequestDecorator { request in
                        request.url = URL(string: display.real(request.url.absoluteString)) ?? request.url
                    })
            }
            if options.verbose {
                configuration.interceptors.append(VerboseHeaders(session: session))
                configuration.monitors = [VerboseMonitor(session: session, display: display)]
            }
        }
        var request = Request<Data>(path: path, method: HTTPMethod(options.effectiveMethod), body: body)
        for header in options.headers { request.headers.add(header.name, header.value) }
        if options.verbose {
            session.log(
                "> \(options.effectiveMethod) \(client.url(for: request).map { display.real($0.absoluteString) } ?? path)"
            )
        }
        let outcome: Outcome
        do {
            outcome = .response(try await client.send(request))
        } catch {
            outcome = .failed(error)
        }
        client.configuration.cache?.flush()  // Disk writes land in the background: on disk before the process ends.
        if let cacheError = client.configuration.cache?.diskError, options.verbose {
            session.log("* cache: \(cacheError)")
        }
        await app?.stop()
        session.finish(outcome)
    }

    // MARK: - The answer

    /// Prints the outcome and returns the exit code, or throws the one-line failure.
    static func report(_ outcome: Outcome, options: Options, console: Console) throws(CLIError) -> Int32 {
        let what = "\(options.effectiveMethod) \(displayTarget(options.target))"
        switch outcome {
        case .unavailable(let message):
            throw .failure(message)
        case .response(let response):
            if options.verbose {
                printHead(status: response.status, headers: response.headers, to: console.printError, prefix: "< ")
                if let timings = timings(response.metrics.transfer) { console.printError("* \(timings)\n") }
                console.printError("* \(origin(of: response))\n")
            }
            if options.include { printHead(status: response.status, headers: response.headers, to: console.print) }
            try printBody(response.data, headers: response.headers, options: options, console: console)
            return ExitCode.success
        case .failed(let error):
            if case .status(let failure) = error.kind {
                if options.verbose {
                    printHead(status: failure.status, headers: failure.headers, to: console.printError, prefix: "< ")
                }
                if options.include {
                    printHead(status: failure.status, headers: failure.headers, to: console.print)
                    try? printBody(failure.body, headers: failure.headers, options: options, console: console)
                }
            }
            throw .failure("\(what): \(describe(error))")
        }
    }

    /// The transfer's timings for `-v`, as `curl -w` would print them (seconds from the transport's start), or
    /// `nil` when the transport does not measure them.
    static func timings(_ metrics: TransferMetrics?) -> String? {
        guard let metrics else { return nil }
        func seconds(_ duration: Duration?) -> String {
            guard let duration else { return "-" }
            let value = Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
            return String(format: "%.6f", value)
        }
        let lookup = metrics.lookup ?? .zero
        let connect = lookup + (metrics.connect ?? .zero)
        let handshake = metrics.tls.map { connect + $0 } ?? .zero
        return "time_namelookup=\(seconds(lookup)) time_connect=\(seconds(connect))"
            + " time_appconnect=\(seconds(handshake))"
            + " time_pretransfer=\(seconds(metrics.requestSent)) time_starttransfer=\(seconds(metrics.firstByte))"
            + " time_total=\(seconds(metrics.complete)) size_upload=\(metrics.bytesSent)"
            + " size_download=\(metrics.bytesReceived) reused=\(metrics.reusedConnection)"
            + (metrics.remoteAddress.map { " remote=\($0)" } ?? "")
    }

    /// Where the answer came from, for `-v`.
    static func origin(of response: Response<Data>) -> String {
        let attempts = response.attempts == 1 ? "1 attempt" : "\(response.attempts) attempts"
        return switch response.source {
        case .network: "from the network (\(attempts))"
        case .cache: "from the cache, without asking the server"
        case .revalidated: "from the cache, revalidated by the server (304 Not Modified)"
        }
    }

    /// The status line and the headers (sorted by name, as URLSession does not keep their order), then a blank
    /// line.
    static func printHead(
        status: HTTPStatus, headers: HTTPHeaders, to write: (String) -> Void, prefix: String = ""
    ) {
        var text = "\(prefix)HTTP/1.1 \(status.code) \(status.reason)\n"
        let sorted = headers.enumerated().sorted { a, b in
            let order = a.element.name.lowercased().compare(b.element.name.lowercased())
            return order == .orderedSame ? a.offset < b.offset : order == .orderedAscending
        }
        for (_, field) in sorted { text += "\(prefix)\(field.name): \(field.value)\n" }
        if prefix.isEmpty { text += "\n" }
        write(text)
    }

    /// The body: indented JSON when it is JSON (always parsed with `--json`), else the bytes as they are.
    static func printBody(
        _ body: Data, headers: HTTPHeaders, options: Options, console: Console
    ) throws(CLIError) {
        let bytes = [UInt8](body)
        let declaresJSON = headers["Content-Type"].map(isJSON) ?? false
        guard options.json || declaresJSON, !bytes.isEmpty || options.json else {
            console.writeOutput(bytes)
            return
        }
        do {
            let json = try JSONParser().parse(bytes)
            var output = try JSONWriter(options: [.prettyPrinted, .withoutEscapingSlashes], indentWidth: 2).bytes(json)
            output.append(UInt8(ascii: "\n"))
            console.writeOutput(output)
        } catch {
            guard options.json else {
                console.writeOutput(bytes)
                return
            }
            throw .failure("the answer is not JSON: \(error.message)")
        }
    }

    /// Whether a `Content-Type` names JSON (`application/json`, `text/json`, `…+json`).
    static func isJSON(_ contentType: String) -> Bool {
        let type = contentType.split(separator: ";").first?.trimmingCharacters(in: .whitespaces).lowercased() ?? ""
        return type == "application/json" || type == "text/json" || type.hasSuffix("+json")
    }

    /// A duration for `-v`: `12.3ms`, `1.25s`.
    static func format(_ duration: Duration) -> String {
        let seconds = Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
        return seconds < 1 ? String(format: "%.1fms", seconds * 1000) : String(format: "%.2fs", seconds)
    }

    /// What `tether get` calls the target in messages: the path for the embedded server, else the URL.
    static func displayTarget(_ target: Options.Target) -> String {
        switch target {
        case .embedded(let path): path
        case .url(let url): url
        }
    }

    /// The failure, after the request: `404 Not Found: <the server's message>`, `cannot connect: …`.
    static func describe(_ error: HTTPError) -> String {
        var text: String
        switch error.kind {
        case .status(let failure):
            text = "\(failure.status.code) \(failure.status.reason)"
            if let problem = failure.apiError as? APIProblem { text += ": \(problem.message)" }
        case .transport(let underlying as IOError) where underlying.isTLS:
            text = "TLS failed: \(underlying.message)"
        case .transport(let underlying):
            text =
                "cannot connect: \((underlying as? URLError)?.localizedDescription ?? String(describing: underlying))"
        case .timeout(.request(let limit)), .timeout(.total(let limit)):
            text = "no answer within \(limit)"
        case .invalidRequest(let reason): text = "invalid request: \(reason)"
        case .cancelled: text = "cancelled"
        case .responseTooLarge(let limit): text = "the answer is larger than \(limit) bytes"
        case .tooManyRedirects(let limit): text = "more than \(limit) redirects"
        case .notCached: text = "not in the cache"
        case .decoding(let failure): text = "the answer could not be read: \(failure.reason)"
        }
        if error.attempts > 1 { text += " (after \(error.attempts) attempts)" }
        return text
    }
}

/// Turns the client's URLs for the embedded server (``GetCommand/embeddedOrigin``) into the server's real ones.
struct Display: Sendable {
    var embeddedBase: String?

    func real(_ url: String) -> String {
        guard let embeddedBase, url.hasPrefix(GetCommand.embeddedOrigin) else { return url }
        return embeddedBase + url.dropFirst(GetCommand.embeddedOrigin.count)
    }
}

/// `-v`: each attempt, retry and result, as told by the client's events.
struct VerboseMonitor: HTTPEventMonitor {
    let session: GetSession
    let display: Display

    func handle(_ event: HTTPEvent) {
        switch event {
        case .started(let request, let attempt):
            session.log("* attempt \(attempt): \(request.method.rawValue) \(display.real(request.url))")
        case .retrying(_, let attempt, let delay, let reason):
            session.log("* attempt \(attempt) failed (\(reason)); retrying in \(GetCommand.format(delay))")
        case .finished(_, let status, let source, let duration, _):
            session.log("* \(status.code) \(status.reason) in \(GetCommand.format(duration)) (\(source))")
        case .failed(let error):
            session.log("* failed: \(GetCommand.describe(error))")
        }
    }
}

/// `-v`: the headers of each attempt as they go out (secrets hidden); runs after the other interceptors.
struct VerboseHeaders: HTTPInterceptor {
    let session: GetSession

    func adapt(_ request: TransportRequest) async throws -> TransportRequest {
        let secret: Set<String> = ["authorization", "proxy-authorization", "cookie"]
        for (name, value) in request.headers {
            session.log("> \(name): \(secret.contains(name.lowercased()) ? "<redacted>" : value)")
        }
        if let body = request.body { session.log("> (\(body.count) bytes of body)") }
        return request
    }
}

/// The running request's mailbox: `-v` lines from the client's tasks and the outcome, read by the command's
/// thread, which prints them (the ``Console`` is used on that thread only).
final class GetSession: Sendable {
    private let state = Locked<(lines: [String], outcome: GetCommand.Outcome?)>(([], nil))
    private let wake = DispatchSemaphore(value: 0)

    /// Queues a line for standard error; called from any task.
    func log(_ line: String) {
        state.withLock { $0.lines.append(line) }
        wake.signal()
    }

    /// Hands over the outcome; called once.
    func finish(_ outcome: GetCommand.Outcome) {
        state.withLock { $0.outcome = outcome }
        wake.signal()
    }

    /// Waits for a line or the outcome; returns the queued lines and the outcome once there is one.
    func next() -> (lines: [String], outcome: GetCommand.Outcome?) {
        wake.wait()
        return state.withLock { state in
            defer { state.lines = [] }
            return (state.lines, state.outcome)
        }
    }
}
