import Testing

@testable import TetherJSON

@Test func parsesNestedDocument() throws {
    let json = try JSON(
        parsing: #"{"Items": [{"Item": {"itemName": "緑茶\n", "itemPrice": 3240, "r": 4.56}}], "n": null}"#)
    #expect(json["Items"][0]["Item"]["itemName"].string == "緑茶\n")
    #expect(json["Items"][0]["Item"]["itemPrice"].int == 3240)
    #expect(json["Items"][0]["Item"]["r"].double == 4.56)
    #expect(json["n"].isNull)
    #expect(json["missing"].isNull == false)
    #expect(json["Items"][3]["Item"].string == nil)
}

@Test func reportsSyntaxErrorLocation() {
    #expect {
        try JSON(parsing: "{\"a\": 1\n  \"b\": 2}")
    } throws: { error in
        guard let error = error as? JSONError, let location = error.location else { return false }
        return error.code == .syntax && location.line == 2 && location.column == 3 && location.offset == 10
    }
}
