import TetherJSON

/// New ids for `POST /<collection>`, as json-server 0.17 makes them.
///
/// When the largest id in the collection (by JavaScript's `>`, ignoring `null` and missing ids) is a finite
/// number, the new id is that number plus one (jsonplaceholder's posts give 101); an empty collection gives 1;
/// otherwise (string ids) a random 7-character id from nanoid's URL-safe alphabet.
enum IdGenerator {
    private static let alphabet = Array("useandom-26T198340PX75pxJACKVERYMINDBUSHWOLF_GQZbfghjklqvwyzrict")

    static func nextId(in collection: some Collection<JSON>, idKey: String = "id") -> JSON {
        if collection.isEmpty { return JSON(1) }
        var largest: JSON?
        for element in collection {
            guard case .object(let object) = element, let id = object[idKey], !id.isNull else { continue }
            if let current = largest {
                if JSValue.less(current, id) { largest = id }
            } else {
                largest = id
            }
        }
        if case .number(let number)? = largest {
            if number.isInteger, let value = number.int64, value < Int64.max { return JSON(value + 1) }
            if !number.isInteger, number.double.isFinite {
                let next = number.double + 1
                if let whole = Int64(exactly: next) { return JSON(whole) }
                return JSON(next)
            }
        }
        return .string(randomId())
    }

    /// A nanoid-style random id of `length` characters.
    static func randomId(length: Int = 7) -> String {
        var generator = SystemRandomNumberGenerator()
        return String((0..<length).map { _ in alphabet[Int(generator.next() % UInt64(alphabet.count))] })
    }
}
