import HabitsAPI
import Testing

@testable import HabitsSimulator

@Suite struct ImageStoreTests {
    let dataSet = DataSet(
        users: [User(id: "u1", name: "Ada One"), User(id: "u2", name: "Bo Two")],
        activeUser: User(id: "activeUser", name: "Active User"), categories: [], habits: [],
        images: ["u2": PNGEncoder.signature + [42]])

    @Test func servesTheDataFoldersImageWhenThereIsOne() throws {
        let store = ImageStore(dataSet: dataSet)
        #expect(try #require(store.image(for: "u2")).bytes == PNGEncoder.signature + [42])
    }

    @Test func generatesOnceAndServesTheSameBytesAndETag() throws {
        let store = ImageStore(dataSet: dataSet)
        let first = try #require(store.image(for: "u1"))
        let second = try #require(store.image(for: "u1"))
        #expect(first.bytes == second.bytes && first.etag == second.etag)
        #expect(first.etag.hasPrefix("\"") && first.etag.hasSuffix("\""))
        #expect(first.bytes.starts(with: PNGEncoder.signature))
        #expect(store.image(for: "activeUser") != nil)
    }

    @Test func unknownUsersHaveNoImage() {
        #expect(ImageStore(dataSet: dataSet).image(for: "nobody") == nil)
    }
}
