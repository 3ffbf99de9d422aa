import Testing
import TetherJSON

@testable import TetherServer

/// The database's versions: collections in chunks, changed through ``DatabaseChange``s, each version left as it
/// was by the changes made to the next.
@Suite("Database versions and their changes")
struct DatabaseStateTests {
    private func notes(_ count: Int) -> [JSON] {
        (1...count).map { .object(["id": JSON($0), "title": .string("n\($0)")]) }
    }

    @Test(arguments: [1, ChunkedArray.chunkSize - 1, ChunkedArray.chunkSize, ChunkedArray.chunkSize * 3 + 7])
    func chunksReadAndChangeAsOneArray(count: Int) {
        var array = ChunkedArray(notes(count))
        #expect(array.elements == notes(count))
        let copy = array
        array[count - 1] = "changed"
        array.append("added")
        #expect(array.count == count + 1)
        #expect(array[count - 1] == "changed")
        #expect(array.elements.last == "added")
        #expect(copy.elements == notes(count))
    }

    @Test func changesMakeANewVersionAndLeaveTheOldOneAlone() {
        let old = DatabaseState(root: ["notes": .array(notes(1200)), "profile": ["name": "me"]])
        var next = old
        next.apply(.put(collection: "notes", id: "700", item: ["id": 700, "title": "patched"]))
        next.apply(.put(collection: "notes", id: "1201", item: ["id": 1201, "title": "new"]))
        next.apply(.remove(collection: "notes", id: "3"))
        next.apply(.singular(name: "profile", object: ["name": "you"]))
        #expect(next.item(in: "notes", id: "700")?.item["title"] == "patched")
        #expect(next.item(in: "notes", id: "1201")?.position == 1199)
        #expect(next.item(in: "notes", id: "3") == nil)
        #expect(next.count(of: "notes") == 1200)
        #expect(next.root.keys == ["notes", "profile"])
        #expect(next.singular("profile") == ["name": "you"])
        #expect(old.item(in: "notes", id: "700")?.item["title"] == "n700")
        #expect(old.collection("notes") == notes(1200))
        #expect(old.singular("profile") == ["name": "me"])
        // A change applied again changes nothing (a record replayed over a file that holds it).
        var again = next
        again.apply(.put(collection: "notes", id: "1201", item: ["id": 1201, "title": "new"]))
        again.apply(.remove(collection: "notes", id: "3"))
        #expect(again.root == next.root)
    }
}
