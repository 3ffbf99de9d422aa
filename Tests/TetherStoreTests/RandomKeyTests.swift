import Foundation
import Testing

@testable import TetherStore

@Suite struct RandomKeyTests {
    @Test func keysAreVersion4UUIDsInLowercase() throws {
        for _ in 0..<200 {
            let key = RandomKey.uuid()
            let parsed = try #require(UUID(uuidString: key), "\(key) is not a UUID")
            #expect(parsed.uuidString.lowercased() == key)
            let characters = Array(key)
            #expect(characters.count == 36)
            #expect(characters[14] == "4", "version nibble of \(key)")
            #expect("89ab".contains(characters[19]), "variant of \(key)")
        }
    }

    @Test func keysDoNotRepeat() {
        let keys = Set((0..<10_000).map { _ in RandomKey.uuid() })
        #expect(keys.count == 10_000)
    }

    @Test func typeNamesAreStableAndDistinct() {
        struct Local {}
        let first = EntityStore.typeName(Local.self)
        #expect(EntityStore.typeName(Local.self) == first)
        #expect(first == String(reflecting: Local.self))
        #expect(EntityStore.typeName(Int.self) == "Swift.Int")
    }
}
