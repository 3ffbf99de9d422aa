import Foundation

/// The options every API command (and the full-screen app) shares: which server to talk to, and the Rakuten
/// credentials.
///
/// ```swift
/// @testable import TetherCLI
///
/// var arguments = ["search", "--api=http://127.0.0.1:3000", "ノートパソコン"][...]
/// let options = try APIOptions.parse(&arguments, environment: [:], command: "tether items")
/// // options.api == http://127.0.0.1:3000; arguments == ["search", "ノートパソコン"]
/// ```
///
/// - `--api URL`: the json-server-style API for posts, comments, users and notes (also its Rakuten route, when
///   no application id is given); without it, an embedded server (see ``APIEnvironment``).
/// - `--rakuten-app-id ID`: send item searches to the real Rakuten Web Service with this application id;
///   without the option, the `RAKUTEN_APP_ID` environment variable (when not empty).
/// - `--rakuten-base URL`: where item searches go instead of `https://app.rakuten.co.jp`.
/// - `--rakuten-access-key KEY`: the access key (`pk_…`) Rakuten's 2026 gateway needs besides the application id;
///   without the option, `RAKUTEN_ACCESS_KEY` (when not empty). With a key, searches go to the gateway
///   (`https://openapi.rakuten.co.jp`, the newest version) unless `--rakuten-base` says otherwise; without an
///   application id too, to the local item search's gateway path.
/// - `--rakuten-origin URL`: the `Origin` and `Referer` the gateway checks for apps registered as web
///   applications; without the option, `RAKUTEN_ORIGIN`.
///
/// Each option accepts `--name value` and `--name=value`; given twice, the last one wins.
struct APIOptions: Equatable, Sendable {
    /// The REST API, `nil` for the embedded server.
    var api: URL?
    /// The Rakuten application id, `nil` for the local item search.
    var rakutenApplicationID: String?
    /// Where item searches go, `nil` for the default (Rakuten's host with an application id, else the API).
    var rakutenBase: URL?
    /// The 2026 gateway's access key, `nil` for the classic API.
    var rakutenAccessKey: String?
    /// The `Origin`/`Referer` for the gateway, `nil` for none.
    var rakutenOrigin: URL?

    /// The help text of the options, for the commands' help pages: indented by two, one option per line.
    static let help = """
          --api <url>              Use this json-server-style API instead of the embedded
                                   server (for example http://127.0.0.1:3000)
          --rakuten-app-id <id>    Search the real Rakuten Web Service with this application
                                   id (default: $RAKUTEN_APP_ID; without one, the API's own
                                   item search answers)
          --rakuten-base <url>     Send item searches here instead (default
                                   https://app.rakuten.co.jp with an application id)
          --rakuten-access-key <key>
                                   The access key of Rakuten's 2026 API gateway (default:
                                   $RAKUTEN_ACCESS_KEY); searches then go to
                                   https://openapi.rakuten.co.jp, newest version
          --rakuten-origin <url>   The Origin/Referer the gateway checks for web applications
                                   (default: $RAKUTEN_ORIGIN)
        """

    /// The option names this type reads.
    static let names: Set<String> = [
        "--api", "--rakuten-app-id", "--rakuten-base", "--rakuten-access-key", "--rakuten-origin",
    ]

    /// Reads and removes the API options from `arguments`, leaving everything else in order.
    ///
    /// Arguments after `--` are left alone (they are positional); so is `--` itself.
    ///
    /// - Parameters:
    ///   - environment: the process environment, for `RAKUTEN_APP_ID`.
    ///   - command: the command for the hint of usage errors, such as `"tether items search"`.
    /// - Throws: ``CLIError/usage(_:hint:)`` for a missing value, an empty application id, or a URL without an
    ///   `http`/`https` scheme or a host.
    /// - Complexity: O(n) in the number of arguments.
    static func parse(
        _ arguments: inout ArraySlice<String>, environment: [String: String], command: String = "tether"
    ) throws(CLIError) -> APIOptions {
        let hint = "\(command) --help"
        var options = APIOptions()
        var rest: [String] = []
        var remaining = arguments
        while let argument = remaining.popFirst() {
            if argument == "--" {
                rest.append(argument)
                rest.append(contentsOf: remaining)
                break
            }
            var name = argument
            var inlineValue: String?
            if argument.hasPrefix("--"), let equals = argument.firstIndex(of: "=") {
                name = String(argument[..<equals])
                inlineValue = String(argument[argument.index(after: equals)...])
            }
            guard names.contains(name) else {
                rest.append(argument)
                continue
            }
            guard let value = inlineValue ?? remaining.popFirst() else {
                throw .usage("option '\(name)' needs a value", hint: hint)
            }
            switch name {
            case "--api": options.api = try url(value, option: name, hint: hint)
            case "--rakuten-base": options.rakutenBase = try url(value, option: name, hint: hint)
            case "--rakuten-origin": options.rakutenOrigin = try url(value, option: name, hint: hint)
            case "--rakuten-access-key":
                guard !value.isEmpty, !value.contains(where: { $0.isWhitespace || $0.isNewline }) else {
                    throw .usage("invalid Rakuten access key", hint: hint)
                }
                options.rakutenAccessKey = value
            default:
                guard !value.isEmpty, !value.contains(where: { $0.isWhitespace || $0.isNewline }) else {
                    throw .usage("invalid Rakuten application id '\(value)'", hint: hint)
                }
                options.rakutenApplicationID = value
            }
        }
        if options.rakutenApplicationID == nil, let id = environment["RAKUTEN_APP_ID"], !id.isEmpty {
            options.rakutenApplicationID = id
        }
        if options.rakutenAccessKey == nil, let key = environment["RAKUTEN_ACCESS_KEY"], !key.isEmpty {
            options.rakutenAccessKey = key
        }
        if options.rakutenOrigin == nil, let origin = environment["RAKUTEN_ORIGIN"], !origin.isEmpty {
            options.rakutenOrigin = try url(origin, option: "RAKUTEN_ORIGIN", hint: hint)
        }
        arguments = rest[...]
        return options
    }

    /// Reads and removes the API options from an array, as the `ArraySlice` overload does.
    static func parse(
        _ arguments: inout [String], environment: [String: String], command: String = "tether"
    ) throws(CLIError) -> APIOptions {
        var slice = arguments[...]
        let options = try parse(&slice, environment: environment, command: command)
        arguments = Array(slice)
        return options
    }

    /// `text` as an absolute `http` or `https` URL with a host, without a trailing slash.
    ///
    /// - Throws: ``CLIError/usage(_:hint:)`` naming the option otherwise.
    static func url(_ text: String, option: String, hint: String) throws(CLIError) -> URL {
        guard let url = URL(string: text), let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https",
            let host = url.host, !host.isEmpty
        else {
            throw .usage("invalid URL '\(text)' for '\(option)': expected http://host[:port] or https://…", hint: hint)
        }
        if text.hasSuffix("/"), let trimmed = URL(string: String(text.dropLast())) { return trimmed }
        return url
    }
}
