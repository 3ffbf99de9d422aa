/// The parameters of one Item Search request, parsed and checked in the order the API checks them.
///
/// Parameter names are case-sensitive, as in the API; for a repeated parameter the first value counts.
/// A `+` in `sort` must arrive percent-encoded (`%2B`): a literal `+` is read as a space (as the API reads it),
/// and `sort= itemPrice` is then rejected with a description that says so, instead of silently sorting wrong.
struct RakutenSearchQuery: Sendable {
    enum Version: String, Sendable {
        case v20170706 = "20170706"
        case v20220601 = "20220601"
    }

    var version: Version
    var applicationID: String
    var affiliateID: String?
    var keyword: RakutenKeyword?
    var orFlag = false
    var ngKeyword: RakutenKeyword?
    var shopCode: String?
    var itemCode: String?
    var genreID = 0
    var tagIDs: [Int] = []
    var hits = 30
    var page = 1
    var sort = RakutenSearchOrder.standard
    var minPrice: Int?
    var maxPrice: Int?
    var availability = 1
    var imageFlag = 0
    var carrier = 0
    var formatVersion = 1
    var elements: Set<String>?
    var callback: String?
    /// `postageFlag=1` means "postage included" (items whose `postageFlag` is 0); the other flags select items
    /// whose field of the same name is 1.
    var postageIncluded = false
    var creditCardFlag = false
    var giftFlag = false
    var hasReviewFlag = false
    var shipOverseasFlag = false
    var minimumPointRate: Int?

    /// Checks an `applicationId`: 1 to 128 ASCII letters, digits, `-` or `_` (and, with `allowed`, one of them).
    static func isValidApplicationID(_ id: String, allowed: Set<String>?) -> Bool {
        guard !id.isEmpty, id.utf8.count <= 128,
            id.utf8.allSatisfy({ byte in
                (byte >= 0x30 && byte <= 0x39) || (byte | 0x20 >= 0x61 && byte | 0x20 <= 0x7A) || byte == 0x2D
                    || byte == 0x5F
            })
        else { return false }
        return allowed?.contains(id) ?? true
    }

    /// Parses the search parameters (the application id was checked before).
    init(version: Version, applicationID: String, items: [(name: String, value: String)]) throws(RakutenError) {
        var values: [String: String] = [:]
        for item in items where values[item.name] == nil { values[item.name] = item.value }
        self.version = version
        self.applicationID = applicationID
        affiliateID = values["affiliateId"].flatMap { $0.isEmpty ? nil : $0 }

        if let format = values["format"], format != "json" {
            throw .wrongParameter("format is not valid: this server answers json only")
        }
        if let callback = values["callback"], !callback.isEmpty {
            guard callback.utf8.count <= 128,
                callback.utf8.allSatisfy({ b in
                    (b >= 0x30 && b <= 0x39) || (b | 0x20 >= 0x61 && b | 0x20 <= 0x7A) || b == 0x2E || b == 0x5F
                })
            else { throw .wrongParameter("callback is not valid") }
            self.callback = callback
        }

        shopCode = values["shopCode"].flatMap { $0.isEmpty ? nil : $0 }
        itemCode = values["itemCode"].flatMap { $0.isEmpty ? nil : $0 }
        genreID = try Self.integer(values, "genreId", default: 0, in: 0...999_999_999)
        do throws(RakutenKeyword.Problem) {
            keyword = try values["keyword"].flatMap { text throws(RakutenKeyword.Problem) in try RakutenKeyword(text) }
        } catch .tooLong {
            throw .keywordTooLong
        } catch {
            throw .keywordNotValid
        }
        guard keyword != nil || shopCode != nil || itemCode != nil || genreID != 0 else { throw .noSearchCondition }
        do throws(RakutenKeyword.Problem) {
            ngKeyword = try values["NGKeyword"].flatMap { text throws(RakutenKeyword.Problem) in
                try RakutenKeyword(text)
            }
        } catch .tooLong {
            throw .wrongParameter("NGKeyword must be under 128 length")
        } catch {
            throw .wrongParameter("NGKeyword is not valid")
        }

        orFlag = try Self.flag(values, "orFlag")
        hits = try Self.integer(values, "hits", default: 30, in: 1...30, "hits must be between 1 and 30")
        page = try Self.integer(values, "page", default: 1, in: 1...100, "page must be between 1 and 100")
        if let text = values["sort"] {
            guard let sort = RakutenSearchOrder(parameter: text) else {
                if text.hasPrefix(" "), RakutenSearchOrder(parameter: "+" + text.dropFirst()) != nil {
                    throw .wrongParameter("sort is not valid: send the \"+\" percent-encoded, as %2B")
                }
                throw .wrongParameter("sort is not valid")
            }
            self.sort = sort
        }
        minPrice = try Self.optionalInteger(values, "minPrice", in: 1...999_999_998)
        maxPrice = try Self.optionalInteger(values, "maxPrice", in: 1...999_999_998)
        if let minPrice, let maxPrice, maxPrice <= minPrice {
            throw .wrongParameter("maxPrice must be greater than minPrice")
        }
        availability = try Self.integer(values, "availability", default: 1, in: 0...1)
        imageFlag = try Self.integer(values, "imageFlag", default: 0, in: 0...1)
        carrier = try Self.integer(values, "carrier", default: 0, in: 0...2)
        formatVersion = try Self.integer(values, "formatVersion", default: 1, in: 1...2)
        _ = try Self.integer(values, "field", default: 1, in: 0...1)
        _ = try Self.integer(values, "purchaseType", default: 0, in: 0...2)
        if let text = values["tagId"], !text.isEmpty {
            let parts = text.split(separator: ",", omittingEmptySubsequences: false)
            let ids = parts.compactMap { Int($0) }
            guard ids.count == parts.count, ids.count <= 10 else { throw .wrongParameter("tagId is not valid") }
            tagIDs = ids
        }
        if let text = values["elements"], !text.isEmpty {
            elements = Set(text.split(separator: ",").map { String($0) })
        }
        postageIncluded = try Self.flag(values, "postageFlag")
        creditCardFlag = try Self.flag(values, "creditCardFlag")
        giftFlag = try Self.flag(values, "giftFlag")
        hasReviewFlag = try Self.flag(values, "hasReviewFlag")
        shipOverseasFlag = try Self.flag(values, "shipOverseasFlag")
        if try Self.flag(values, "pointRateFlag") {
            minimumPointRate = try Self.optionalInteger(values, "pointRate", in: 2...10) ?? 2
        }
    }

    private static func integer(
        _ values: [String: String], _ name: String, default value: Int, in range: ClosedRange<Int>,
        _ description: String? = nil
    ) throws(RakutenError) -> Int {
        try optionalInteger(values, name, in: range, description) ?? value
    }

    private static func optionalInteger(
        _ values: [String: String], _ name: String, in range: ClosedRange<Int>, _ description: String? = nil
    ) throws(RakutenError) -> Int? {
        guard let text = values[name], !text.isEmpty else { return nil }
        guard let value = Int(text), range.contains(value) else {
            throw .wrongParameter(description ?? "\(name) is not valid")
        }
        return value
    }

    private static func flag(_ values: [String: String], _ name: String) throws(RakutenError) -> Bool {
        try integer(values, name, default: 0, in: 0...1) == 1
    }
}
