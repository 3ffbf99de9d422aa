import TetherHTTP1
import TetherJSON

extension ListQuery {
    /// `_page`/`_limit`, `_start`/`_end` and `_start`/`_limit` slicing, with json-server's headers.
    ///
    /// Whenever `_page`, `_limit` or `_end` is set: `X-Total-Count` (the count before slicing) and
    /// `Access-Control-Expose-Headers: X-Total-Count` (`, Link` with `_page`). With `_page` (below 1 read as 1,
    /// `_limit` defaulting to 10) a `Link` header whose URLs replace the first `page=<current>` in `fullURL`:
    /// `first`/`last` only when the result spans more than one page, `prev`/`next` only where they exist, and
    /// an empty `Link` for a page past the end.
    func paginate(_ elements: [JSON], fullURL: String) -> (elements: [JSON], headers: HTTPHeaders) {
        var headers: HTTPHeaders = [:]
        let paging = Self.isSet(page)
        if Self.isSet(end) || Self.isSet(limit) || paging {
            headers.add("X-Total-Count", String(elements.count))
            headers.add("Access-Control-Expose-Headers", paging ? "X-Total-Count, Link" : "X-Total-Count")
        }
        if paging {
            let pageNumber = max(JSValue.parseInt(page!) ?? 1, 1)
            let perPage = limit.flatMap(JSValue.parseInt).flatMap { $0 == 0 ? nil : $0 } ?? 10
            let (start, startOverflow) = (pageNumber - 1).multipliedReportingOverflow(by: perPage)
            let (end, endOverflow) = pageNumber.multipliedReportingOverflow(by: perPage)
            let range = JSValue.sliceRange(
                count: elements.count, start: startOverflow ? Int.max : start, end: endOverflow ? Int.max : end)
            let items = Array(elements[range])
            var links: [(rel: String, page: Int)] = []
            var current = "undefined"
            if !items.isEmpty {
                var first: Int?
                var last: Int?
                if items.count != elements.count {
                    current = String(pageNumber)
                    first = 1
                    last = Int((Double(elements.count) / Double(perPage)).rounded(.up))
                }
                if let first { links.append(("first", first)) }
                if pageNumber > 1 { links.append(("prev", pageNumber - 1)) }
                if end < elements.count && !endOverflow { links.append(("next", pageNumber + 1)) }
                if let last, last != 0 { links.append(("last", last)) }
            }
            let value = links.map { link in
                "<" + Self.replacingFirst("page=\(current)", with: "page=\(link.page)", in: fullURL) + ">; rel=\""
                    + link.rel + "\""
            }.joined(separator: ", ")
            headers.add("Link", value)
            return (items, headers)
        }
        let from = start.flatMap(JSValue.parseInt) ?? 0
        if Self.isSet(end) {
            return (
                Array(elements[JSValue.sliceRange(count: elements.count, start: from, end: JSValue.parseInt(end!))]),
                headers
            )
        }
        if Self.isSet(limit) {
            let upper = JSValue.parseInt(limit!).map { from.addingReportingOverflow($0).partialValue }
            return (Array(elements[JSValue.sliceRange(count: elements.count, start: from, end: upper)]), headers)
        }
        return (elements, headers)
    }

    /// JavaScript's `String.prototype.replace` with a string pattern: the first occurrence only.
    static func replacingFirst(_ target: String, with replacement: String, in text: String) -> String {
        let haystack = Array(text.utf8)
        let needle = Array(target.utf8)
        guard !needle.isEmpty, haystack.count >= needle.count else { return text }
        for start in 0...(haystack.count - needle.count)
        where haystack[start..<start + needle.count].elementsEqual(needle) {
            let result = haystack[..<start] + Array(replacement.utf8) + haystack[(start + needle.count)...]
            return String(decoding: result, as: UTF8.self)
        }
        return text
    }
}
