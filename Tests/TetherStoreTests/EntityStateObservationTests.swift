import Foundation
import Observation
import Testing
import TetherHTTP
import TetherStore
import TetherStoreTestSupport
import TetherSync

/// `EntityState` works with Observation (`withObservationTracking`, SwiftUI): a read registers the property, and a
/// change to that property, and only that one, tells the tracker.
@MainActor
@Suite struct EntityStateObservationTests {
    private func store() -> EntityStore {
        var configuration = EntityStore.Configuration()
        configuration.collectionInterval = nil
        return EntityStore(
            client: HTTPClient(baseURL: URL(string: "http://offline.invalid")!), configuration: configuration)
    }

    @Test func aTrackedReadIsToldOfTheChange() async {
        let store = store()
        store.insert([Note(id: 1, title: "first", body: "", updatedAt: nil)])
        let state = store.entity(Note.self, id: 1)
        let told = Locked(0)
        let title = withObservationTracking {
            state.value?.title
        } onChange: {
            told.withLock { $0 += 1 }
        }
        #expect(title == "first")
        #expect(told.withLock { $0 } == 0)
        store.insert([Note(id: 1, title: "second", body: "", updatedAt: nil)])
        #expect(told.withLock { $0 } == 1)
        #expect(state.value?.title == "second")
    }

    @Test func eachPropertyIsTrackedOnItsOwn() async {
        let store = store()
        store.insert([Note(id: 2, title: "a", body: "", updatedAt: nil)])
        let state = store.entity(Note.self, id: 2)
        let told = Locked(0)
        withObservationTracking {
            _ = state.writeStatus
            _ = state.error
        } onChange: {
            told.withLock { $0 += 1 }
        }
        // A new server version changes the value and the time, not the write status or the error.
        store.insert([Note(id: 2, title: "b", body: "", updatedAt: nil)])
        #expect(told.withLock { $0 } == 0)
        #expect(state.value?.title == "b")
    }

    @Test func statesOfTwoEntityTypesKeepTheirOwnKeyPaths() async {
        let store = store()
        store.insert([Note(id: 3, title: "note", body: "", updatedAt: nil)])
        store.insert([Post(userId: 1, id: 3, title: "post", body: "")])
        let note = store.entity(Note.self, id: 3)
        let post = store.entity(Post.self, id: 3)
        let told = Locked<[String]>([])
        withObservationTracking {
            _ = note.value
        } onChange: {
            told.withLock { $0.append("note") }
        }
        withObservationTracking {
            _ = post.value
        } onChange: {
            told.withLock { $0.append("post") }
        }
        store.insert([Post(userId: 1, id: 3, title: "post 2", body: "")])
        #expect(told.withLock { $0 } == ["post"])
        #expect(note.value?.title == "note" && post.value?.title == "post 2")
    }
}
