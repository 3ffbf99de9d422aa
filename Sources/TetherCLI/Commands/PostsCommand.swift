import TetherAPIs
import TetherHTTP
import TetherTerminal

/// `tether posts list|show`: the jsonplaceholder posts of the API server, with their authors and comments.
///
/// ```text
/// $ COLUMNS=60 tether posts list --user 1
/// ID  TITLE                                   AUTHOR
///  1  nepelcor ta in dra                      Unrenbor Temurlo
///  2  gulo eborlo teme corlis                 Unrenbor Temurlo
/// ```
///
/// `list` asks for `/posts` (or `/posts?userId=N`) and `/users` once, to show each author's name; `show` asks for
/// the post, its author and `/posts/<id>/comments`.
enum PostsCommand: Command {
    static let name = "posts"
    static let summary = "List posts, or show one with its comments"
    static let synopsis = "list|show [options]"

    static let help = """
        USAGE: tether posts list [--user N] [--json] [API options]
               tether posts show <id> [--json] [API options]

        'list' prints the posts as a table fitted to the terminal: id, title and the author's
        name. 'show' prints one post: its title, author and body wrapped to the terminal, then
        its comments (subject, address and text).

        Exit code 0; 1 when the server fails or the post does not exist, with its message; 2 for
        a wrong command line.

        OPTIONS:
          --user <id>              list: only the posts of this user
          --json                   list: the posts as a JSON array, as the API sends them
                                   show: the post as an object with its 'author' (a user) and
                                   'comments' (an array) added
          -h, --help               Show this help

        API OPTIONS:
        \(APIOptions.help)

        """

    /// What the command line asks for.
    enum Action: Equatable, Sendable {
        case list(userID: Int?)
        case show(id: Int)
    }

    /// The command line, read.
    struct Options: Equatable, Sendable {
        var api: APIOptions
        var action: Action
        var json: Bool
    }

    /// A post with its author and comments, for `show --json`.
    struct Detail: Encodable, Sendable {
        var post: Post
        var author: User?
        var comments: [Comment]

        private enum CodingKeys: String, CodingKey {
            case userId, id, title, body, author, comments
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(post.userId, forKey: .userId)
            try container.encode(post.id, forKey: .id)
            try container.encode(post.title, forKey: .title)
            try container.encode(post.body, forKey: .body)
            try container.encodeIfPresent(author, forKey: .author)
            try container.encode(comments, forKey: .comments)
        }
    }

    static func run(_ arguments: ArraySlice<String>, console: Console) throws(CLIError) -> Int32 {
        let variables = APIEnvironment.variables
        guard let options = try parse(arguments, variables: variables) else {
            console.print(help)
            return ExitCode.success
        }
        let width = Table.terminalWidth(variables: variables)
        switch options.action {
        case .list(let userID):
            let (posts, users) = try APIEnvironment.run(options.api) {
                (environment) throws(CLIError) -> ([Post], [User]) in
                try await list(userID: userID, client: environment.client)
            }
            if options.json {
                console.print(try CommandOutput.json(posts))
            } else if posts.isEmpty {
                console.print((userID.map { "No posts by user \($0)." } ?? "No posts.") + "\n")
            } else {
                console.print(renderList(posts, users: users, width: width))
            }
        case .show(let id):
            let detail = try APIEnvironment.run(options.api) { (environment) throws(CLIError) -> Detail in
                try await show(id: id, client: environment.client)
            }
            console.print(options.json ? try CommandOutput.json(detail) : renderDetail(detail, width: width))
        }
        return ExitCode.success
    }

    /// Reads the command line; `nil` for `--help`.
    ///
    /// - Throws: ``CLIError/usage(_:hint:)`` for a missing or unknown subcommand, a missing or invalid id, an
    ///   unknown option or an extra argument.
    static func parse(_ arguments: ArraySlice<String>, variables: [String: String]) throws(CLIError) -> Options? {
        var arguments = arguments
        let api = try APIOptions.parse(&arguments, environment: variables, command: "tether posts")
        guard let subcommand = arguments.popFirst() else {
            throw .usage("missing the subcommand: 'list' or 'show <id>'", hint: "tether posts --help")
        }
        switch subcommand {
        case "-h", "--help":
            return nil
        case "list":
            let reader = try OptionReader(
                arguments, flags: ["--json"], options: ["--user"], command: "tether posts list")
            if reader.helpRequested { return nil }
            if let extra = reader.positionals.first {
                throw .usage("unexpected argument '\(extra)'", hint: reader.hint)
            }
            let user = try reader.integer("--user", in: 1...Int.max)
            return Options(api: api, action: .list(userID: user), json: reader.flag("--json"))
        case "show":
            let reader = try OptionReader(arguments, flags: ["--json"], command: "tether posts show")
            if reader.helpRequested { return nil }
            let id = try reader.id("post")
            return Options(api: api, action: .show(id: id), json: reader.flag("--json"))
        default:
            throw .usage(
                "unknown subcommand '\(subcommand)' for 'tether posts' (use 'list' or 'show')",
                hint: "tether posts --help")
        }
    }

    // MARK: - Requests

    /// The posts (of `userID`, or all) and every user, asked for at once.
    static func list(userID: Int?, client: HTTPClient) async throws(CLIError) -> ([Post], [User]) {
        let query: [(name: String, value: String?)] = userID.map { [("userId", String($0))] } ?? []
        async let posts = APIEnvironment.result { () throws(HTTPError) in
            try await client.send(Request<[Post]>(path: "/posts", query: query)).value
        }
        async let users = APIEnvironment.result { () throws(HTTPError) in
            try await client.send(Request<[User]>(path: "/users")).value
        }
        do throws(HTTPError) {
            return (try await posts.get(), try await users.get())
        } catch {
            throw APIEnvironment.failure(error, "cannot list the posts")
        }
    }

    /// The post `id`, its author and its comments.
    ///
    /// - Throws: ``CLIError/failure(_:)``: `"post 42 does not exist"` for a 404, else the server's message.
    static func show(id: Int, client: HTTPClient) async throws(CLIError) -> Detail {
        async let comments = APIEnvironment.result { () throws(HTTPError) in
            try await client.send(Request<[Comment]>(path: "/posts/\(id)/comments")).value
        }
        let post: Post
        do throws(HTTPError) {
            post = try await client.send(Request<Post>(path: "/posts/\(id)")).value
        } catch {
            _ = await comments
            if error.status?.code == 404 { throw .failure("post \(id) does not exist") }
            throw APIEnvironment.failure(error, "cannot read post \(id)")
        }
        do throws(HTTPError) {
            // A post whose author is gone is still shown.
            let author = try? await client.send(Request<User>(path: "/users/\(post.userId)")).value
            return Detail(post: post, author: author, comments: try await comments.get())
        } catch {
            throw APIEnvironment.failure(error, "cannot read the comments of post \(id)")
        }
    }

    // MARK: - Output

    /// The posts as a table: id, title, author.
    static func renderList(_ posts: [Post], users: [User], width: Int) -> String {
        let names = Dictionary(users.map { ($0.id, $0.name) }, uniquingKeysWith: { first, _ in first })
        var table = Table(columns: [
            .init("ID", alignment: .right),
            .init("TITLE", minWidth: 10, flexible: true),
            .init("AUTHOR", minWidth: 6, maxWidth: 24, flexible: true),
        ])
        for post in posts {
            table.append([String(post.id), post.title, names[post.userId] ?? "user \(post.userId)"])
        }
        return table.render(width: width)
    }

    /// The post, its author and body, then its comments, wrapped to `width`.
    static func renderDetail(_ detail: Detail, width: Int) -> String {
        let post = detail.post
        var lines = TextLayout.wrap("Post \(post.id): \(post.title)", toColumns: width)
        if let author = detail.author {
            lines += TextLayout.wrap("by \(author.name) <\(author.email)>", toColumns: width)
        } else {
            lines.append(TextLayout.truncate("by user \(post.userId)", toColumns: width))
        }
        lines.append("")
        lines += TextLayout.wrap(post.body, toColumns: width)
        lines.append("")
        lines.append(detail.comments.isEmpty ? "No comments." : "Comments (\(detail.comments.count)):")
        let indent = width > 8 ? "  " : ""
        for comment in detail.comments {
            lines.append("")
            lines += TextLayout.wrap("\(comment.name) <\(comment.email)>", toColumns: width - indent.count)
                .map { indent + $0 }
            lines += TextLayout.wrap(comment.body, toColumns: width - indent.count).map {
                $0.isEmpty ? "" : indent + $0
            }
        }
        return lines.map { $0 + "\n" }.joined()
    }
}
