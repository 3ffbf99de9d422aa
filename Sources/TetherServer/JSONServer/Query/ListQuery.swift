import TetherJSON

/// The query of `GET /<collection>` as json-server 0.17 reads it: reserved parameters (`q`, `_sort`, `_order`,
/// `_start`, `_end`, `_limit`, `_page`, `_embed`, `_expand`, `_delay`) and field filters.
///
/// Values are kept as the text sent. A reserved parameter sent twice uses its first value, except `_sort` and
/// `_order`, whose values are joined with `,` (json-server fails on those), and `_embed`/`_expand`, which
/// repeat.
struct ListQuery: Sendable {
    /// A field filter: `field`, `field_gte`, `field_lte`, `field_ne` or `field_like`, with every value sent.
    struct Filter: Sendable {
        enum Operator: Sendable { case equal, greaterOrEqual, lessOrEqual, notEqual, like }

        var key: String
        var values: [String]

        var `operator`: Operator {
            if key.hasSuffix("_ne") { return .notEqual }
            if key.hasSuffix("_gte") { return .greaterOrEqual }
            if key.hasSuffix("_lte") { return .lessOrEqual }
            if key.hasSuffix("_like") { return .like }
            return .equal
        }

        /// The field's path: the key without its operator suffix.
        var path: ValuePath {
            for suffix in ["_lte", "_gte", "_ne", "_like"] where key.hasSuffix(suffix) {
                return ValuePath(String(key.dropLast(suffix.count)))
            }
            return ValuePath(key)
        }
    }

    var q: String?
    var start: String?
    var end: String?
    var page: String?
    var limit: String?
    var sort: String?
    var order: String?
    var embeds: [String] = []
    var expands: [String] = []
    var delay: String?
    /// Filters in the order their keys first appear.
    var filters: [Filter] = []

    private static let reserved: Set<String> = [
        "q", "_start", "_end", "_page", "_limit", "_sort", "_order", "_embed", "_expand", "_delay", "callback", "_",
    ]

    /// Reads `items`; `injected` (a nested route's `postId=1`) replaces any filter of the same key.
    init(_ items: [(name: String, value: String)], injected: (key: String, value: String)? = nil) {
        var sorts: [String] = []
        var orders: [String] = []
        for (name, value) in items {
            switch name {
            case "q": q = q ?? value
            case "_start": start = start ?? value
            case "_end": end = end ?? value
            case "_page": page = page ?? value
            case "_limit": limit = limit ?? value
            case "_sort": sorts.append(value)
            case "_order": orders.append(value)
            case "_embed": embeds.append(value)
            case "_expand": expands.append(value)
            case "_delay": delay = delay ?? value
            default: break
            }
            // `_page` stays among the filters in json-server, which then drops it like any unknown field.
            if !Self.reserved.contains(name) || name == "_page" {
                if let index = filters.firstIndex(where: { $0.key == name }) {
                    filters[index].values.append(value)
                } else {
                    filters.append(Filter(key: name, values: [value]))
                }
            }
        }
        if !sorts.isEmpty { sort = sorts.joined(separator: ",") }
        if !orders.isEmpty { order = orders.joined(separator: ",") }
        if let injected {
            if let index = filters.firstIndex(where: { $0.key == injected.key }) {
                filters[index].values = [injected.value]
            } else {
                filters.append(Filter(key: injected.key, values: [injected.value]))
            }
        }
    }

    /// JavaScript truthiness of a parameter: present and not empty.
    static func isSet(_ value: String?) -> Bool { !(value ?? "").isEmpty }
}
