extension JSON.Kind {
    /// The kind of the JSON value `decoder` is at, when the decoder can tell without decoding it: a decoder of
    /// ``TetherJSONDecoder`` can; any other (Foundation's `JSONDecoder`) gives `nil`.
    ///
    /// A type that accepts more than one form of value (a string or an object, a number or a string) can pick the
    /// form to decode from this instead of trying each in turn: a failed `decode` throws a `DecodingError`, whose
    /// coding path and message cost more than the decoding itself. With `nil`, try the forms in turn as before.
    ///
    /// ```swift
    /// import TetherJSON
    ///
    /// /// An image URL sent as `"https://…"` or as `{"imageUrl": "https://…"}`.
    /// struct ImageURL: Decodable {
    ///     var url: String
    ///
    ///     enum CodingKeys: String, CodingKey { case imageUrl }
    ///
    ///     init(from decoder: any Decoder) throws {
    ///         // An object is decoded as one at once; a string (or a kind not known) is tried as a string first.
    ///         if JSON.Kind(peekingAt: decoder) != .object,
    ///             let url = try? decoder.singleValueContainer().decode(String.self)
    ///         {
    ///             self.url = url
    ///         } else {
    ///             url = try decoder.container(keyedBy: CodingKeys.self).decode(String.self, forKey: .imageUrl)
    ///         }
    ///     }
    /// }
    /// ```
    ///
    /// The kind is read from the decoded document only: no coding path is made and nothing throws. After the
    /// decoder's decoding has ended (a decoder kept past its `init(from:)`), the result is `nil`.
    public init?(peekingAt decoder: any Decoder) {
        guard let decoder = decoder as? TapeDecoder else { return nil }
        self.init(decoder)
    }

    /// The kind of the JSON value `container` holds, as ``init(peekingAt:)-(Decoder)`` tells it for a decoder:
    /// `nil` unless the container is one of ``TetherJSONDecoder``'s.
    public init?(peekingAt container: any SingleValueDecodingContainer) {
        guard let decoder = container as? TapeDecoder else { return nil }
        self.init(decoder)
    }

    private init?(_ decoder: TapeDecoder) {
        let state = decoder.state
        guard state.isActive else { return nil }
        switch state.tape.entries[decoder.index].tag {
        case .null: self = .null
        case .true, .false: self = .bool
        case .int, .uint, .double, .bigNumber: self = .number
        case .string: self = .string
        case .array: self = .array
        case .object: self = .object
        }
    }
}
