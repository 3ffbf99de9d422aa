import Foundation
import TetherAPIs
import TetherHTTP
import TetherTerminal

/// `tether items search <keyword> [options]`: one page of a Rakuten Ichiba item search, as a table or JSON.
///
/// ```text
/// $ COLUMNS=72 tether items search ノートパソコン --hits 3 --sort price-asc
/// ノートパソコン: 266 items, page 1 of 89
/// NAME                               PRICE  SHOP               REVIEW
/// ARATA モバイルノートパソコン…   40,180円  PC工房 楽天市場店  ★4.49 (195)
/// Sorano ノートパソコン Laptop…   40,380円  PC工房 楽天市場店  -
/// 【限定価格】Sorano モバイルノ…  40,580円  PC工房 楽天市場店  -
/// ```
///
/// Searches go to the embedded server's item search unless an application id is given (`--rakuten-app-id` or
/// `RAKUTEN_APP_ID`); see ``APIOptions``. The ranges Rakuten checks (hits 1–30, page 1–100, the minimum price
/// not above the maximum) are checked first, as usage errors.
enum ItemsCommand: Command {
    static let name = "items"
    static let summary = "Search Rakuten Ichiba items"
    static let synopsis = "search <keyword> [options]"

    static let help = """
        USAGE: tether items search <keyword>... [--page N] [--hits N] [--sort ORDER]
                                   [--min-price YEN] [--max-price YEN] [--json] [API options]

        Searches Rakuten Ichiba items and prints one page as a table fitted to the terminal:
        name, price, shop and reviews, under a line with the number of items and pages. Several
        words are one keyword (all of them must match). Without a Rakuten application id the
        search goes to the API server's own Ichiba search (the embedded server's generated
        catalog); with one, to Rakuten.

        Exit code 0 (also when nothing matches); 1 when the search fails, with the server's
        message; 2 for a wrong command line.

        OPTIONS:
          --page <n>               The page, 1 to 100 (default 1)
          --hits <n>               Items per page, 1 to 30 (default 30)
          --sort <order>           standard (default), price-asc, price-desc, review-asc,
                                   review-desc, reviews-asc, reviews-desc, updated-asc,
                                   updated-desc, affiliate-asc, affiliate-desc, or Rakuten's own
                                   spelling (+itemPrice, -reviewAverage, ...)
          --min-price <yen>        Only items costing at least this much
          --max-price <yen>        Only items costing at most this much
          --json                   Print the page's items as a JSON array (pretty, sorted keys;
                                   the fields of Rakuten's formatVersion 2 items)
          -h, --help               Show this help

        API OPTIONS:
        \(APIOptions.help)

        """

    /// The friendly names of the sort orders, in the order the help lists them.
    static let sortAliases: [(name: String, sort: RakutenSort)] = [
        ("price-asc", .itemPriceAscending), ("price-desc", .itemPriceDescending),
        ("review-asc", .reviewAverageAscending), ("review-desc", .reviewAverageDescending),
        ("reviews-asc", .reviewCountAscending), ("reviews-desc", .reviewCountDescending),
        ("updated-asc", .updateTimestampAscending), ("updated-desc", .updateTimestampDescending),
        ("affiliate-asc", .affiliateRateAscending), ("affiliate-desc", .affiliateRateDescending),
    ]

    /// A search read from the command line.
    struct Options: Equatable, Sendable {
        var api: APIOptions
        var search: RakutenItemSearch
        var page: Int
        var json: Bool
    }

    static func run(_ arguments: ArraySlice<String>, console: Console) throws(CLIError) -> Int32 {
        guard let options = try parse(arguments, variables: APIEnvironment.variables) else {
            console.print(help)
            return ExitCode.success
        }
        let page = try APIEnvironment.run(options.api) { (environment) throws(CLIError) -> RakutenSearchResponse in
            do throws(HTTPError) {
                return try await environment.rakuten.send(options.search.request(page: options.page)).value
            } catch {
                throw APIEnvironment.failure(error, "item search")
            }
        }
        if options.json {
            console.print(try CommandOutput.json(page.items))
        } else if page.items.isEmpty {
            let keyword = options.search.keyword ?? ""
            console.print(
                page.count == 0
                    ? "No items for '\(keyword)'.\n"
                    : "No items on page \(options.page) for '\(keyword)': the last page is \(page.pageCount).\n")
        } else {
            let width = Table.terminalWidth(variables: APIEnvironment.variables)
            console.print(render(page, keyword: options.search.keyword ?? "", width: width))
        }
        return ExitCode.success
    }

    /// Reads the command line; `nil` for `--help`.
    ///
    /// - Throws: ``CLIError/usage(_:hint:)`` for a missing or unknown subcommand, a missing keyword, an unknown
    ///   option, a value out of range, an unknown sort order, or a minimum price above the maximum.
    static func parse(_ arguments: ArraySlice<String>, variables: [String: String]) throws(CLIError) -> Options? {
        var arguments = arguments
        let api = try APIOptions.parse(&arguments, environment: variables, command: "tether items search")
        guard let subcommand = arguments.popFirst() else {
            throw .usage("missing the subcommand: tether items search <keyword>", hint: "tether items --help")
        }
        if subcommand == "-h" || subcommand == "--help" { return nil }
        guard subcommand == "search" else {
            throw .usage(
                "unknown subcommand '\(subcommand)' for 'tether items' (the only one is 'search')",
                hint: "tether items --help")
        }
        let reader = try OptionReader(
            arguments, flags: ["--json"], options: ["--page", "--hits", "--sort", "--min-price", "--max-price"],
            command: "tether items search")
        if reader.helpRequested { return nil }
        let keyword = reader.positionals.joined(separator: " ")
        guard !keyword.trimmingCharacters(in: .whitespaces).isEmpty else {
            throw .usage("missing the keyword to search for", hint: reader.hint)
        }
        var search = RakutenItemSearch(keyword: keyword)
        if let hits = try reader.integer("--hits", in: 1...30) { search.hits = hits }
        if let sort = reader.value("--sort") { search.sort = try self.sort(sort, hint: reader.hint) }
        search.minPrice = try reader.integer("--min-price", in: 0...999_999_999)
        search.maxPrice = try reader.integer("--max-price", in: 0...999_999_999)
        if let minPrice = search.minPrice, let maxPrice = search.maxPrice, minPrice > maxPrice {
            throw .usage(
                "the minimum price (\(minPrice)) is above the maximum price (\(maxPrice))", hint: reader.hint)
        }
        let page = try reader.integer("--page", in: 1...100) ?? 1
        return Options(api: api, search: search, page: page, json: reader.flag("--json"))
    }

    /// The sort order called `name`: a friendly alias or Rakuten's spelling.
    ///
    /// - Throws: ``CLIError/usage(_:hint:)`` listing the valid names.
    static func sort(_ name: String, hint: String) throws(CLIError) -> RakutenSort {
        if let alias = sortAliases.first(where: { $0.name == name }) { return alias.sort }
        if let sort = RakutenSort(rawValue: name) { return sort }
        let valid = (["standard"] + sortAliases.map(\.name) + RakutenSort.allCases.dropFirst().map(\.rawValue))
        throw .usage("unknown sort order '\(name)': use one of \(valid.joined(separator: ", "))", hint: hint)
    }

    /// The page as text: the summary line, then the table fitted to `width`.
    static func render(_ page: RakutenSearchResponse, keyword: String, width: Int) -> String {
        let items = page.count == 1 ? "1 item" : "\(CommandOutput.grouped(page.count)) items"
        let summary = "\(keyword): \(items), page \(page.page) of \(max(page.pageCount, page.page))"
        var table = table(page.items, reviewCounts: true)
        // Too narrow for the review counts: the averages alone, rather than cut counts.
        if table.widths(fitting: width)[3] < table.widths(fitting: .max)[3] {
            table = self.table(page.items, reviewCounts: false)
        }
        return TextLayout.truncate(summary, toColumns: width) + "\n" + table.render(width: width)
    }

    /// The items' table: name, price, shop, review.
    private static func table(_ items: [RakutenItem], reviewCounts: Bool) -> Table {
        var table = Table(columns: [
            .init("NAME", minWidth: 10, flexible: true),
            // Prices are never cut: a minimum above any price's width.
            .init("PRICE", alignment: .right, minWidth: 16),
            .init("SHOP", minWidth: 8, maxWidth: 24, flexible: true),
            .init("REVIEW", minWidth: 5),
        ])
        for item in items {
            table.append([item.itemName, item.price.description, item.shopName, review(item, count: reviewCounts)])
        }
        return table
    }

    /// The review column: `★4.63 (1,234)` (`★4.63` without `count`), or `-` without reviews.
    static func review(_ item: RakutenItem, count: Bool = true) -> String {
        guard item.reviewCount > 0 else { return "-" }
        let hundredths = Int((item.reviewAverage * 100).rounded())
        let average = "\(hundredths / 100).\(String(hundredths % 100 + 100).dropFirst())"
        return count ? "★\(average) (\(CommandOutput.grouped(item.reviewCount)))" : "★\(average)"
    }
}
