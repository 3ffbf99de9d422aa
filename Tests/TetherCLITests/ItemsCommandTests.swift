import Foundation
import Testing
import TetherJSON
import TetherTerminal

@testable import TetherCLI

/// `tether items search` end to end: in-process runs against the embedded server (a private data folder) or a
/// test server given with `--api`.
@Suite struct ItemsCommandTests {
    // MARK: - Tables

    @Test func searchPrintsASummaryAndATableWithYenPrices() async throws {
        let sandbox = try APISandbox(columns: 100)
        let result = await sandbox.run("items", "search", "ノートパソコン", "--hits", "5")
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.isEmpty)
        let output = lines(result.stdout)
        try #require(output.count == 7)
        #expect(output[0].wholeMatch(of: /ノートパソコン: [0-9,]+ items, page 1 of [0-9]+/) != nil, "\(output[0])")
        #expect(output[1].hasPrefix("NAME"))
        #expect(output[1].contains("PRICE  SHOP"))
        #expect(output[1].hasSuffix("REVIEW"))
        for row in output.dropFirst(2) {
            #expect(row.contains(#/[0-9],?[0-9]*円  /#), "\(row)")
            #expect(row.terminalColumns <= 100)
        }
    }

    @Test(arguments: [40, 80, 200])
    func tablesFitTheTerminal(columns: Int) async throws {
        try await withAPIServer { base in
            let sandbox = try APISandbox(columns: columns)
            let result = await sandbox.run("items", "--api", base, "search", "ノートパソコン", "--hits=10")
            #expect(result.status == 0, "\(result.stderr)")
            let output = lines(result.stdout)
            #expect(output.count == 12)
            for line in output {
                #expect(line.terminalColumns <= columns, "\(line)")
                #expect(!line.hasSuffix(" "))
            }
            // Prices are whole at every width.
            #expect(output.dropFirst(2).allSatisfy { $0.contains(/[0-9]円/) })
            if columns == 40 {
                #expect(output.dropFirst(2).contains { $0.contains("…") })
                // No room for review counts: the averages alone, whole.
                #expect(output.dropFirst(2).allSatisfy { $0.contains(#/(★[0-9]\.[0-9]{2}|-)$/#) })
            } else {
                #expect(output.dropFirst(2).contains { $0.contains(#/★[0-9]\.[0-9]{2} \([0-9,]+\)$/#) })
            }
        }
    }

    @Test func sortsAndPriceRangesReachTheServer() async throws {
        try await withAPIServer { base in
            let sandbox = try APISandbox()
            let result = await sandbox.run(
                "items", "search", "ノートパソコン", "--api=\(base)", "--sort", "price-asc", "--min-price", "20000",
                "--max-price", "90000", "--json")
            #expect(result.status == 0, "\(result.stderr)")
            let items = try #require(try JSONParser().parse(Array(result.stdout.utf8)).array)
            let prices = items.compactMap { $0["itemPrice"].number?.int }
            #expect(!prices.isEmpty)
            #expect(prices == prices.sorted())
            #expect(prices.allSatisfy { (20000...90000).contains($0) })
            // Rakuten's own spelling works too.
            let descending = await sandbox.run(
                "items", "search", "ノートパソコン", "--api", base, "--sort=-itemPrice", "--json")
            let descendingPrices = try #require(try JSONParser().parse(Array(descending.stdout.utf8)).array)
                .compactMap { $0["itemPrice"].number?.int }
            #expect(descendingPrices == descendingPrices.sorted(by: >))
        }
    }

    @Test func jsonIsAPrettySortedArrayOfItems() async throws {
        let sandbox = try APISandbox()
        let result = await sandbox.run("items", "search", "ノートパソコン", "--hits", "2", "--json")
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.hasPrefix("[\n  {\n    \"affiliateRate\": "))
        #expect(result.stdout.contains("ノートパソコン"))
        #expect(!result.stdout.contains("\\/"))
        let items = try #require(try JSONParser().parse(Array(result.stdout.utf8)).array)
        #expect(items.count == 2)
        #expect(items.allSatisfy { $0["itemCode"].string != nil && $0["itemPrice"].number != nil })
    }

    @Test func nothingFoundIsAFriendlyLine() async throws {
        let sandbox = try APISandbox()
        let result = await sandbox.run("items", "search", "zzqxwvjk")
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout == "No items for 'zzqxwvjk'.\n")
        let json = await sandbox.run("items", "search", "zzqxwvjk", "--json")
        #expect(json.stdout == "[]\n")
        let pastTheEnd = await sandbox.run("items", "search", "ノートパソコン", "--page", "100")
        #expect(pastTheEnd.status == 0)
        #expect(
            pastTheEnd.stdout.wholeMatch(of: #/No items on page 100 for 'ノートパソコン': the last page is [0-9]+\.\n/#) != nil
        )
    }

    // MARK: - Usage errors

    @Test(arguments: [
        (["items"], "missing the subcommand"),
        (["items", "find", "x"], "unknown subcommand 'find' for 'tether items'"),
        (["items", "search"], "missing the keyword"),
        (
            ["items", "search", "x", "--page", "0"],
            "invalid value '0' for '--page': expected a whole number from 1 to 100"
        ),
        (["items", "search", "x", "--page", "two"], "invalid value 'two' for '--page'"),
        (
            ["items", "search", "x", "--hits", "31"],
            "invalid value '31' for '--hits': expected a whole number from 1 to 30"
        ),
        (["items", "search", "x", "--sort", "cheap"], "unknown sort order 'cheap': use one of standard, price-asc"),
        (["items", "search", "x", "--min-price", "500", "--max-price", "100"], "the minimum price (500) is above"),
        (["items", "search", "x", "--colour", "red"], "unknown option '--colour' for 'tether items search'"),
        (["items", "search", "x", "--json=yes"], "option '--json' takes no value"),
        (["items", "search", "x", "--hits"], "option '--hits' needs a value"),
        (["items", "search", "x", "--api", "localhost:3000"], "invalid URL 'localhost:3000' for '--api'"),
    ])
    func usageErrorsExitWithTwo(arguments: [String], message: String) async throws {
        let sandbox = try APISandbox()
        let result = await sandbox.run(arguments: arguments)
        #expect(result.status == 2)
        #expect(result.stdout.isEmpty)
        #expect(result.stderr.hasPrefix("tether: "))
        #expect(result.stderr.contains(message), "\(result.stderr)")
        #expect(result.stderr.hasSuffix(" --help'\n"))
        #expect(lines(result.stderr).count == 1)
    }

    @Test func helpNeedsNoServer() async throws {
        let sandbox = try APISandbox()
        for arguments in [["items", "--help"], ["items", "search", "--help"], ["help", "items"]] {
            let result = await sandbox.run(arguments: arguments)
            #expect(result.status == 0)
            #expect(result.stdout.hasPrefix("USAGE: tether items search <keyword>..."))
            #expect(result.stdout.contains("--rakuten-app-id <id>"))
        }
        #expect(!FileManager.default.fileExists(atPath: sandbox.databaseFile.path))
    }

    // MARK: - Failures

    @Test func aServerThatIsDownIsAOneLineFailure() async throws {
        let sandbox = try APISandbox()
        let closed = try await closedServerURL()
        let result = await sandbox.run("items", "search", "ノートパソコン", "--api", closed)
        #expect(result.status == 1)
        #expect(result.stdout.isEmpty)
        #expect(result.stderr.hasPrefix("tether: item search: cannot connect to the server"), "\(result.stderr)")
        #expect(lines(result.stderr).count == 1)
    }

    @Test func theServersMessageIsShown() async throws {
        try await withAPIServer { base in
            let sandbox = try APISandbox()
            // A one-character half-width keyword is refused by the API, with its own description.
            let result = await sandbox.run("items", "search", "a", "--api", base)
            #expect(result.status == 1)
            #expect(result.stderr.hasPrefix("tether: item search: "), "\(result.stderr)")
            #expect(result.stderr.hasSuffix("(400)\n"), "\(result.stderr)")
            #expect(lines(result.stderr).count == 1)
        }
    }

    @Test func aRakutenBaseReceivesTheApplicationID() async throws {
        try await withAPIServer { base in
            let sandbox = try APISandbox(extra: ["RAKUTEN_APP_ID": "bad id!"])
            // The server accepts well-formed ids only: the one from the environment reaches it.
            let result = await sandbox.run("items", "search", "ノートパソコン", "--rakuten-base", base)
            #expect(result.status == 1)
            #expect(result.stderr.contains("applicationId"), "\(result.stderr)")
            let good = await sandbox.run(
                "items", "search", "ノートパソコン", "--rakuten-base", base, "--rakuten-app-id", "my-app-1", "--json")
            #expect(good.status == 0, "\(good.stderr)")
        }
    }
}
