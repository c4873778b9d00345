import Foundation
import HabitsAPI
import TestSupport
import Testing

@testable import DashboardCore
@testable import DashboardWeb

/// The store started over a snapshot on disk (issue 13): served at once with the notice of its fetch time while the
/// upstream is away, the notice gone within one refresh once it answers, new versions written back.
extension SnapshotStoreTests {
    func persistedStore(directory: String, data: ScriptedData) -> (SnapshotStore, SnapshotPersistence) {
        let persistence = SnapshotPersistence(
            configuration: SnapshotPersistence.Configuration(directory: directory, upstream: "http://upstream"),
            clock: clock, logger: .silent)
        return (SnapshotStore(source: data, clock: clock, logger: .silent, persistence: persistence), persistence)
    }

    func writeFile(directory: String, fetchedAt: Date) throws -> Snapshot {
        let snapshot = SnapshotPersistenceTests.fixtureSnapshot()
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let file = SnapshotFile(snapshot: snapshot, fetchedAt: fetchedAt, upstream: "http://upstream")
        try Data(try file.encoded()).write(to: URL(fileURLWithPath: directory + "/snapshot.json"))
        return snapshot
    }

    static func temporaryDirectory() -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("store-disk-\(UUID().uuidString)").path
    }

    @Test func aSnapshotOnDiskIsServedAtOnceWithTheNoticeOfItsFetchTimeWhileTheUpstreamIsDown() async throws {
        let directory = Self.temporaryDirectory()
        let fetchedAt = clock.date.addingTimeInterval(-3_600)
        let saved = try writeFile(directory: directory, fetchedAt: fetchedAt)
        data.fail(with: .transport("connection refused"))
        let (store, _) = persistedStore(directory: directory, data: data)

        #expect(store.currentView?.snapshot.version == saved.version, "loaded before any upstream call")
        #expect(data.statisticsCalls == 0)
        let view = try await store.view()
        #expect(view.snapshot.version == saved.version)
        #expect(view.snapshot.inputs.statistics == Fixture.combined)
        #expect(view.stale == StaleNotice(dataFetchedAt: fetchedAt, now: clock.date))
        await eventually("the failed refresh") { store.metrics.failures == 1 }
        #expect(try await store.view().stale == StaleNotice(dataFetchedAt: fetchedAt, now: clock.date))
    }

    @Test func theNoticeGoesWithinOneRefreshOnceTheUpstreamAnswersAndTheFileIsRewritten() async throws {
        let directory = Self.temporaryDirectory()
        let fetchedAt = clock.date.addingTimeInterval(-3_600)
        _ = try writeFile(directory: directory, fetchedAt: fetchedAt)
        data.fail(with: .transport("connection refused"))
        let (store, persistence) = persistedStore(directory: directory, data: data)
        _ = try await store.view()
        await eventually("the failed refresh") { store.metrics.failures == 1 }

        data.fail(with: nil)
        data.logYoga()
        clock.advance(by: .seconds(1))  // past the first back-off
        _ = try await store.view()
        await eventually("one more refresh") { store.metrics.completed == 2 }
        let view = try await store.view()
        #expect(view.stale == nil)
        #expect(store.metrics.refreshes == 2, "one refresh after the upstream came back")
        await persistence.waitForWrites(1)
        let reloaded = try #require(persistence.load(activeUserID: User.activeUserID))
        #expect(reloaded.snapshot.version == view.snapshot.version)
        #expect(abs(reloaded.fetchedAt.timeIntervalSince(clock.date)) < 1)
    }

    /// A healthy upstream at start: the first page waits its short budget for the first refresh rather than show
    /// the notice; the same data confirmed builds nothing but moves the file's fetch time on.
    @Test func aHealthyUpstreamAtStartReplacesTheSnapshotOnDiskBeforeTheFirstPage() async throws {
        let directory = Self.temporaryDirectory()
        let saved = try writeFile(directory: directory, fetchedAt: clock.date.addingTimeInterval(-60))
        let (store, persistence) = persistedStore(directory: directory, data: data)
        let view = try await store.view()
        #expect(view.stale == nil)
        #expect(view.snapshot.version == saved.version)
        #expect(store.metrics.builds == 0)
        await persistence.waitForWrites(1)
        #expect(persistence.load(activeUserID: User.activeUserID)?.fetchedAt.timeIntervalSince(clock.date) == 0)
    }

    @Test func aNewVersionIsWrittenToDisk() async throws {
        let directory = Self.temporaryDirectory()
        let (store, persistence) = persistedStore(directory: directory, data: data)
        let view = try await store.view()
        await persistence.waitForWrites(1)
        #expect(persistence.load(activeUserID: User.activeUserID)?.snapshot.version == view.snapshot.version)
    }
}
