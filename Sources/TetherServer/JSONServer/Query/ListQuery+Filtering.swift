import TetherJSON

extension ListQuery {
    /// A `_like` pattern that is not a valid regular expression.
    struct InvalidPattern: Error {
        var pattern: String
        var reason: String
    }

    /// The elements that pass `q` and the filters, in order.
    ///
    /// json-server's rules: a filter whose key no element has (and which has no operator suffix) is dropped;
    /// `field=value` compares `value` with `String(element.field)`; repeated values are ORed, except for `_ne`,
    /// where they are ANDed; `_gte`/`_lte` use JavaScript's `<=` between the text and the value (numeric when
    /// the value is a number); `_like` is a case-insensitive regular expression; a missing or `null` field
    /// never matches. `q` keeps elements where some value at any depth contains it, ignoring case.
    func filter(_ elements: [JSON]) throws(InvalidPattern) -> [JSON] {
        var result = elements
        if let q, !q.isEmpty {
            let needle = q.lowercased()
            result = result.filter { element in
                switch element {
                case .object(let object): object.values.contains { Self.deepQuery($0, needle) }
                case .array(let values): values.contains { Self.deepQuery($0, needle) }
                default: false
                }
            }
        }
        for filter in filters where filter.key != "callback" && filter.key != "_" {
            let path = filter.path
            let op = filter.operator
            let keyPath = ValuePath(filter.key)
            if op == .equal && !elements.contains(where: { keyPath.exists(in: $0) }) { continue }
            var patterns: [Regex<AnyRegexOutput>] = []
            if op == .like {
                for value in filter.values {
                    do {
                        patterns.append(try Regex(value).ignoresCase())
                    } catch {
                        throw InvalidPattern(pattern: value, reason: "\(error)")
                    }
                }
            }
            result = result.filter { element in
                guard let value = path.value(in: element), !value.isNull else { return false }
                let text = JSValue.string(value)
                switch op {
                case .equal: return filter.values.contains(text)
                case .notEqual: return filter.values.allSatisfy { $0 != text }
                case .greaterOrEqual: return filter.values.contains { JSValue.lessOrEqual(.string($0), value) }
                case .lessOrEqual: return filter.values.contains { JSValue.lessOrEqual(value, .string($0)) }
                case .like: return patterns.contains { text.contains($0) }
                }
            }
        }
        return result
    }

    /// json-server's `deepQuery`: whether a truthy primitive somewhere in `value` contains `needle` (lowercased).
    static func deepQuery(_ value: JSON, _ needle: String) -> Bool {
        guard JSValue.isTruthy(value) else { return false }
        switch value {
        case .array(let elements): return elements.contains { deepQuery($0, needle) }
        case .object(let object): return object.values.contains { deepQuery($0, needle) }
        default: return JSValue.string(value).lowercased().contains(needle)
        }
    }

    /// `_sort=a,b&_order=asc,desc`: lodash `orderBy`, stable, `desc` (any case) descending, anything else or a
    /// missing order ascending.
    func sorted(_ elements: [JSON]) -> [JSON] {
        guard let sort, !sort.isEmpty else { return elements }
        let paths = sort.split(separator: ",", omittingEmptySubsequences: false).map { ValuePath(String($0)) }
        let orders = (order ?? "").split(separator: ",", omittingEmptySubsequences: false).map {
            $0.lowercased() == "desc" ? -1 : 1
        }
        let keyed = elements.enumerated().map { entry in
            (offset: entry.offset, element: entry.element, keys: paths.map { $0.value(in: entry.element) })
        }
        return keyed.sorted { a, b in
            for index in paths.indices {
                let result = JSValue.compareAscending(a.keys[index], b.keys[index])
                if result != 0 { return result * (index < orders.count ? orders[index] : 1) < 0 }
            }
            return a.offset < b.offset
        }.map { $0.element }
    }
}
