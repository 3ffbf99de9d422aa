import Foundation
import Testing
import TetherJSON
import TetherTerminal

@testable import TetherCLI

/// `tether posts list|show` end to end against a test server given with `--api`, and the embedded server.
@Suite struct PostsCommandTests {
    @Test func listShowsIDsTitlesAndAuthorNames() async throws {
        try await withAPIServer { base in
            let sandbox = try APISandbox(columns: 80)
            let result = await sandbox.run("posts", "list", "--api", base)
            #expect(result.status == 0, "\(result.stderr)")
            let output = lines(result.stdout)
            #expect(output.count == 101)
            #expect(output[0].wholeMatch(of: #/ ID  TITLE +AUTHOR/#) != nil, "\(output[0])")
            #expect(output[1].hasPrefix("  1  "))
            #expect(output[100].hasPrefix("100  "))
            #expect(output.allSatisfy { $0.terminalColumns <= 80 && !$0.hasSuffix(" ") })
            // The author is the user's name from /users, not an id.
            let users = try JSONParser().parse(Array(await sandbox.run("get", "\(base)/users/1").stdout.utf8))
            let name = try #require(users["name"].string)
            #expect(output[1].hasSuffix(name))
        }
    }

    @Test func listFiltersByUserAndPrintsJSON() async throws {
        try await withAPIServer { base in
            let sandbox = try APISandbox()
            let table = await sandbox.run("posts", "list", "--user", "2", "--api", base)
            #expect(lines(table.stdout).count == 11)
            let json = await sandbox.run("posts", "list", "--user=2", "--json", "--api", base)
            #expect(json.status == 0)
            let posts = try #require(try JSONParser().parse(Array(json.stdout.utf8)).array)
            #expect(posts.count == 10)
            #expect(posts.allSatisfy { $0["userId"].number?.int == 2 })
            #expect(json.stdout.hasPrefix("[\n  {\n    \"body\": "))
            let nobody = await sandbox.run("posts", "list", "--user", "999", "--api", base)
            #expect(nobody.status == 0)
            #expect(nobody.stdout == "No posts by user 999.\n")
        }
    }

    @Test func showPrintsThePostItsAuthorAndComments() async throws {
        let sandbox = try APISandbox(columns: 60)
        let result = await sandbox.run("posts", "show", "1")
        #expect(result.status == 0, "\(result.stderr)")
        let output = lines(result.stdout)
        #expect(output[0].hasPrefix("Post 1: "))
        #expect(output[1].hasPrefix("by ") && output[1].hasSuffix(">"))
        #expect(output.contains("Comments (5):"))
        #expect(output.allSatisfy { $0.terminalColumns <= 60 && !$0.hasSuffix(" ") })
        // Each comment: its subject and address, then its text, indented.
        let comments = output.filter { $0.hasPrefix("  ") && $0.hasSuffix(">") && $0.contains("@") }
        #expect(comments.count == 5)
    }

    @Test func showJSONEmbedsTheAuthorAndComments() async throws {
        try await withAPIServer { base in
            let sandbox = try APISandbox()
            let result = await sandbox.run("posts", "show", "3", "--json", "--api", base)
            #expect(result.status == 0, "\(result.stderr)")
            let post = try JSONParser().parse(Array(result.stdout.utf8))
            #expect(post["id"].number?.int == 3)
            #expect(post["author"]["id"].number?.int == post["userId"].number?.int)
            #expect(post["comments"].array?.count == 5)
            #expect(post["comments"][0]["postId"].number?.int == 3)
        }
    }

    @Test func aMissingPostIsAFailure() async throws {
        try await withAPIServer { base in
            let sandbox = try APISandbox()
            let result = await sandbox.run("posts", "show", "9999", "--api", base)
            #expect(result.status == 1)
            #expect(result.stdout.isEmpty)
            #expect(result.stderr == "tether: post 9999 does not exist\n")
        }
    }

    @Test(arguments: [
        (["posts"], "missing the subcommand"),
        (["posts", "remove", "1"], "unknown subcommand 'remove' for 'tether posts'"),
        (["posts", "show"], "missing the id of the post"),
        (["posts", "show", "one"], "invalid post id 'one'"),
        (["posts", "show", "1", "2"], "unexpected argument '2'"),
        (["posts", "list", "--user", "0"], "invalid value '0' for '--user'"),
        (["posts", "list", "--page", "2"], "unknown option '--page' for 'tether posts list'"),
    ])
    func usageErrorsExitWithTwo(arguments: [String], message: String) async throws {
        let sandbox = try APISandbox()
        let result = await sandbox.run(arguments: arguments)
        #expect(result.status == 2)
        #expect(result.stderr.contains(message), "\(result.stderr)")
        #expect(lines(result.stderr).count == 1)
    }

    @Test func aServerThatIsDownIsAOneLineFailure() async throws {
        let sandbox = try APISandbox()
        let closed = try await closedServerURL()
        let result = await sandbox.run("posts", "list", "--api", closed)
        #expect(result.status == 1)
        #expect(
            result.stderr.hasPrefix("tether: cannot list the posts: cannot connect to the server"), "\(result.stderr)")
        #expect(lines(result.stderr).count == 1)
    }
}
