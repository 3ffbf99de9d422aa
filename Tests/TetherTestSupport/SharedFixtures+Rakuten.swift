extension SharedFixtures {
    /// `rakuten/search-sample.json` (formatVersion 1, three items) with two items spoiled: the second item's
    /// `itemPrice` is `"abc"` and the third item has no `genreId`; `Items` is spelled `itemsKey`.
    ///
    /// One page for the two layers that read it: TetherJSON's lossy array (two failures, with their paths) and
    /// TetherAPIs' item model (one item skipped, one missing field defaulted).
    ///
    /// - Throws: what ``text(_:replacingOnce:)`` throws, when the sample no longer holds what is spoiled.
    package static func rakutenSampleWithBrokenItems(itemsKey: String = "Items") throws -> String {
        try text(
            "rakuten/search-sample.json",
            replacingOnce: [
                (#""itemPrice": 4980,"#, #""itemPrice": "abc","#), (#""genreId": "201184","#, ""),
                (#""Items":"#, #""\#(itemsKey)":"#),
            ])
    }
}
