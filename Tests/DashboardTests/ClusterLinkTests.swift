import Foundation
import HabitsAPI
import Postgres
import TestSupport
import Testing
import Timing

@testable import DashboardCore
@testable import DashboardWeb

/// The cluster link on a real, throwaway PostgreSQL (issue 19 points 4 and 5): what a leader stores a follower
/// reads back, whole or as its version only, and a deposed leader cannot take the history back.
@Suite(.enabled(if: ThrowawayPostgres.available, Comment(rawValue: ThrowawayPostgres.missingReason)))
struct ClusterLinkTests {
    /// A migrated database, and a store and link for a dashboard playing `role` on it; a leader's link has just
    /// taken the refresher lock (and let it go at once), so it writes with the newest epoch.
    static func dashboard(on url: DatabaseURL, role: RefresherRole.Role) async throws -> (
        SnapshotStore, ClusterLink, ActivityHistory
    ) {
        let cluster = ClusterService()
        let store = SnapshotStore(source: ScriptedData(), logger: .silent, history: cluster.history)
        // Each call's deadline a hang guard: on a loaded 2-core machine a task can wait many seconds for a thread.
        var configuration = PostgresPool.Configuration()
        configuration.timeout = .seconds(60)
        let pool = PostgresPool(url: url, configuration: configuration, clock: SystemTimeSource())
        let link = cluster.link(pool: pool, snapshots: store, upstream: "u", logger: .silent)
        store.roleChanged(to: role)
        try await MigrationRunner(migrations: DashboardMigrations.all).run(on: pool)
        if role == .leader { link.lead(epoch: try await takeLead(on: url)) }
        return (store, link, cluster.history)
    }

    /// Takes the refresher lock on a session of its own, as `Refresher` does, and closes it (PostgreSQL lets the lock
    /// go); returns the epoch taken with it. A session closed just before may hold it a moment longer: asks again.
    static func takeLead(on url: DatabaseURL) async throws -> Int64 {
        for _ in 0..<1200 {
            let guardTime = ContinuousClock.now + .seconds(60)
            let session = try await PostgresConnection.connect(to: url, deadline: guardTime, clock: SystemTimeSource())
            let result = try await session.run(ClusterSchema.tryLock, deadline: guardTime)
            session.close()
            if result.value("held") == "t", let epoch = result.value("epoch").flatMap({ Int64($0) }) { return epoch }
            try await Task.sleep(for: .milliseconds(50))
        }
        throw PostgresError.timedOut
    }

    static let snapshot = Snapshot(
        inputs: SnapshotInputs(
            users: Fixture.users, habits: Fixture.habits, categories: Fixture.categories, statistics: Fixture.combined))

    @Test func whatTheLeaderStoresAFollowerReadsBackWithItsStatus() async throws {
        let url = try DatabaseURL(try await ThrowawayPostgres.shared().makeDatabase())
        let (_, leader, _) = try await Self.dashboard(on: url, role: .leader)
        let (_, follower, _) = try await Self.dashboard(on: url, role: .follower)
        #expect(try await follower.follow(shown: nil, watched: false) == nil, "nothing stored yet")
        let status = SharedSnapshot.Status(stale: true, fetchedAt: Date(timeIntervalSince1970: 1_800_000_000.5))
        leader.share(Self.snapshot, status: status)
        // The write is queued: read until it is there (a hang guard bounds the wait, not a timing).
        var read: (snapshot: Snapshot?, status: SharedSnapshot.Status)?
        for _ in 0..<2400 where read == nil {
            read = try await follower.follow(shown: nil, watched: true)
            if read == nil { try await Task.sleep(for: .milliseconds(50)) }
        }
        #expect(read?.snapshot?.version == Self.snapshot.version && read?.status == status)
        let unchanged = try await follower.follow(shown: Self.snapshot.version, watched: false)
        #expect(unchanged?.snapshot == nil && unchanged?.status == status, "the version shown: no document")
    }

    @Test func aFollowerAdoptsTheStoredHistoryAndAnOlderSlotCannotReplaceIt() async throws {
        let url = try DatabaseURL(try await ThrowawayPostgres.shared().makeDatabase())
        let (_, leader, leaderHistory) = try await Self.dashboard(on: url, role: .leader)
        let (_, follower, followerHistory) = try await Self.dashboard(on: url, role: .follower)
        let start = Date(timeIntervalSince1970: 1_800_000_000)
        leaderHistory.record(Self.snapshot, at: start)
        leaderHistory.record(Self.snapshot, at: start + 10)
        leader.share(Self.snapshot, status: SharedSnapshot.Status(stale: false, fetchedAt: start))
        for _ in 0..<2400 where followerHistory.latestSlot != leaderHistory.latestSlot {
            _ = try await follower.follow(shown: nil, watched: false)
            try await Task.sleep(for: .milliseconds(50))
        }
        #expect(followerHistory.habitTrend("Yoga")?.samples == leaderHistory.habitTrend("Yoga")?.samples)
        // A later leader with an older record (its clock behind): the stored one stays.
        let (_, old, _) = try await Self.dashboard(on: url, role: .leader)
        var older = TrendHistory()
        older.record(habitTotals: ["Yoga": 1], userTotals: [:], second: Int(start.timeIntervalSince1970) - 100)
        old.storeHistory(HistoryRecord(history: older, moments: MomentLog()))
        // The write is refused by the database: wait until it has been tried.
        await eventually("the old leader's write was tried") { old.isIdle }
        let (_, late, lateHistory) = try await Self.dashboard(on: url, role: .follower)
        _ = try await late.follow(shown: nil, watched: false)
        #expect(lateHistory.latestSlot == leaderHistory.latestSlot)
    }
}
