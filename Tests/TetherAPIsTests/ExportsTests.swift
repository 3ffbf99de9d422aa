import Testing
import TetherAPIs

@Suite struct TetherAPIsExportsTests {
    @Test func theStoreIsVisibleThroughTetherAPIs() {
        #expect(StoreError(.notFound("x")).message == "This item is no longer available.")
    }
}
