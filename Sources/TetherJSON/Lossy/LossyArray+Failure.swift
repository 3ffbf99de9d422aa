extension LossyArray {
    /// Why one element of a ``LossyArray`` could not be decoded, and where.
    ///
    /// ```swift
    /// import Foundation
    /// import TetherJSON
    ///
    /// struct Item: Decodable { var itemPrice: Int }
    /// let data = Data(#"{"Items": [{"itemPrice": 1}, {"itemPrice": "abc"}]}"#.utf8)
    /// let items = try TetherJSONDecoder().decode([String: LossyArray<Item>].self, from: data)["Items"]!
    /// let failure = items.failures[0]
    /// failure.index                  // 1: the second element of the JSON array
    /// failure.codingPathDescription  // "Items[1].itemPrice"
    /// failure.reason                 // "data corrupted: Cannot read \"abc\" as Int"
    /// failure.error                  // the DecodingError itself
    /// ```
    public struct Failure: Error, CustomStringConvertible {
        /// The element's position in the original JSON array (counting the elements that decoded too).
        public let index: Int

        /// The full coding path of the value that failed, from the top of the document.
        ///
        /// For a `DecodingError` this is the path of its context, and for `keyNotFound` it ends with the missing
        /// key. For any other error it is the path of the element (the array's path followed by `index`).
        public let codingPath: [any CodingKey]

        /// A short, human-readable reason, such as `type mismatch, expected Int: …` or `key not found: "itemName"`.
        public let reason: String

        /// The error the element's decoding threw.
        public let error: any Error

        /// Creates a failure for the element at `index`, taking the reason from `error`.
        ///
        /// - Parameters:
        ///   - index: The element's position in the original array.
        ///   - codingPath: The path of the element; a `DecodingError` with a longer path replaces it.
        ///   - error: The error the element's decoding threw.
        public init(index: Int, codingPath: [any CodingKey], error: any Error) {
            self.index = index
            self.error = error
            let (path, reason) = LossyFailureText.describe(error)
            self.codingPath = path.map { $0.count >= codingPath.count ? $0 : codingPath } ?? codingPath
            self.reason = reason
        }

        /// The coding path written as `Items[1].Item.itemPrice`.
        public var codingPathDescription: String {
            LossyFailureText.path(codingPath)
        }

        /// The path and the reason: `Items[1].Item.itemPrice: data corrupted: …`.
        public var description: String {
            "\(codingPathDescription): \(reason)"
        }
    }
}

/// The text of a ``LossyArray/Failure``: its path and reason.
enum LossyFailureText {
    /// The coding path of `error`, where it has one, and a short reason.
    static func describe(_ error: any Error) -> (path: [any CodingKey]?, reason: String) {
        guard let error = error as? DecodingError else {
            return (nil, String(describing: error))
        }
        switch error {
        case .typeMismatch(let type, let context):
            return (context.codingPath, "type mismatch, expected \(type)" + detail(context))
        case .valueNotFound(let type, let context):
            return (context.codingPath, "value not found, expected \(type)" + detail(context))
        case .keyNotFound(let key, let context):
            return (context.codingPath + [key], "key not found: \"\(key.stringValue)\"")
        case .dataCorrupted(let context):
            return (context.codingPath, "data corrupted" + detail(context))
        @unknown default:
            return (nil, String(describing: error))
        }
    }

    /// `Items[1].Item.itemPrice`: keys joined by dots, array indices in brackets.
    static func path(_ codingPath: [any CodingKey]) -> String {
        var text = ""
        for key in codingPath {
            if let index = key.intValue, key.stringValue == "Index \(index)" || key.stringValue == "\(index)" {
                text += "[\(index)]"
            } else {
                text += text.isEmpty ? key.stringValue : ".\(key.stringValue)"
            }
        }
        return text
    }

    private static func detail(_ context: DecodingError.Context) -> String {
        context.debugDescription.isEmpty ? "" : ": \(context.debugDescription)"
    }
}
