import Foundation
import HabitsAPI
import Synchronization
import TestSupport
import Testing

@testable import DashboardCore
@testable import DashboardWeb

/// The store in a cluster (issue 19 point 4), over a fake cluster link: a follower reads what is stored instead of the
/// upstream, a leader stores what it fetched, a change made on a follower is fetched there.
@Suite struct SnapshotStoreSharingTests {
    /// A cluster link that hands out a stored snapshot and records what it was asked.
    final class FakeCluster: SnapshotSharing {
        struct Calls {
            var follows: [(shown: UInt64?, watched: Bool)] = []
            var shared: [UInt64] = []
            var asked = 0
            var stored: (Snapshot, SharedSnapshot.Status)?
        }

        let calls = Mutex(Calls())

        func follow(shown: UInt64?, watched: Bool) async throws -> (
            snapshot: Snapshot?, status: SharedSnapshot.Status
        )? {
            calls.withLock { calls in
                calls.follows.append((shown, watched))
                guard let (snapshot, status) = calls.stored else { return nil }
                return (snapshot.version == shown ? nil : snapshot, status)
            }
        }

        func share(_ snapshot: Snapshot, status: SharedSnapshot.Status) {
            calls.withLock { $0.shared.append(snapshot.version) }
        }

        func askForRefresh() { calls.withLock { $0.asked += 1 } }
    }

    let clock = ManualClock(date: Date(timeIntervalSince1970: 1_800_000_000))
    let data = ScriptedData()
    let cluster = FakeCluster()
    let store: SnapshotStore

    init() {
        store = SnapshotStore(source: data, clock: clock, logger: .silent)
        store.attach(cluster)
    }

    static let stored = Snapshot(
        inputs: SnapshotInputs(
            users: Fixture.users, habits: Fixture.habits, categories: Fixture.categories, statistics: Fixture.combined))

    @Test func aFollowerShowsWhatIsStoredWithoutCallingTheUpstream() async throws {
        store.roleChanged(to: .follower)
        let status = SharedSnapshot.Status(stale: true, fetchedAt: clock.date - 90)
        cluster.calls.withLock { $0.stored = (Self.stored, status) }
        let view = try await store.view(live: true)
        #expect(view.snapshot.version == Self.stored.version)
        #expect(view.stale == StaleNotice(dataFetchedAt: status.fetchedAt, now: clock.date))
        #expect(data.statisticsCalls == 0)
        #expect(cluster.calls.withLock { $0.follows.map(\.watched) } == [true])
    }

    @Test func aFollowerWithNothingStoredYetFetchesForItselfAndRecordsNoHistory() async throws {
        store.roleChanged(to: .follower)
        _ = try await store.view()
        #expect(data.statisticsCalls == 1)
        #expect(store.history.latestSlot == nil, "only the refresher records")
    }

    @Test func theLeaderStoresWhatItFetchedOnceAndRecordsTheHistory() async throws {
        store.roleChanged(to: .leader)
        let view = try await store.view()
        await eventually("stored") { !cluster.calls.withLock { $0.shared.isEmpty } }
        #expect(cluster.calls.withLock { $0.shared } == [view.snapshot.version])
        #expect(store.history.latestSlot != nil)
    }

    @Test func aChangeMadeOnAFollowerIsFetchedThereAndTheLeaderIsAsked() async throws {
        store.roleChanged(to: .follower)
        cluster.calls.withLock { $0.stored = (Self.stored, SharedSnapshot.Status(stale: false, fetchedAt: clock.date)) }
        _ = try await store.view()
        data.logYoga()
        await store.refreshAfterChange()
        #expect(data.statisticsCalls == 1, "the change was fetched here")
        #expect(cluster.calls.withLock { $0.asked } == 1)
    }

    @Test func aPublishedSnapshotAnswersAParkedPollOfAFollower() async throws {
        store.roleChanged(to: .follower)
        cluster.calls.withLock { $0.stored = (Self.stored, SharedSnapshot.Status(stale: false, fetchedAt: clock.date)) }
        let first = try await store.view()
        let store = store
        let poll = Task { await store.park(after: first.generation, timeout: .seconds(25)) }
        await eventually("parked") { store.metrics.parked == 1 }
        let newer = try #require(store.currentView).snapshot
        #expect(newer.version == Self.stored.version)
        let changed = Snapshot(inputs: SnapshotInputs(users: TestData.users, habits: TestData.habits))
        store.published(changed, status: SharedSnapshot.Status(stale: false, fetchedAt: clock.date))
        #expect(await poll.value == .changed)
        #expect(store.currentView?.snapshot.version == changed.version)
    }
}
