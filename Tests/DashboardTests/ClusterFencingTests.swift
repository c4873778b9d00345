import Foundation
import Postgres
import Synchronization
import TestSupport
import Testing
import Timing

@testable import DashboardCore
@testable import DashboardWeb

/// The refresher's fencing (issue 49 point 3) on a real, throwaway PostgreSQL: each leadership takes a larger epoch
/// with the lock, every write of the snapshot and history carries it, and the database refuses a deposed leader's.
@Suite(.enabled(if: ThrowawayPostgres.available, Comment(rawValue: ThrowawayPostgres.missingReason)))
struct ClusterFencingTests {
    /// What the two shared rows hold.
    struct Rows: Equatable {
        var version: UInt64?
        var snapshotEpoch: Int64?
        var slot: Int?
        var historyEpoch: Int64?
    }

    static let start = Date(timeIntervalSince1970: 1_800_000_000)

    static func pool(_ url: DatabaseURL) -> PostgresPool {
        var configuration = PostgresPool.Configuration()
        configuration.timeout = .seconds(60)  // a hang guard: a loaded machine can hold a task back for seconds
        return PostgresPool(url: url, configuration: configuration, clock: SystemTimeSource())
    }

    static func rows(_ pool: PostgresPool) async throws -> Rows {
        let result = try await pool.run(
            Statement(
                """
                SELECT s.version, s.epoch AS snapshot_epoch, h.slot, h.epoch AS history_epoch
                FROM (SELECT 1) AS one LEFT JOIN cluster_snapshot s ON s.id = 1 LEFT JOIN cluster_history h ON h.id = 1
                """, idempotent: true))
        return Rows(
            version: result.value("version").flatMap { Int64($0) }.map { SharedSnapshot.version(column: $0) },
            snapshotEpoch: result.value("snapshot_epoch").flatMap { Int64($0) },
            slot: result.value("slot").flatMap { Int($0) },
            historyEpoch: result.value("history_epoch").flatMap { Int64($0) })
    }

    static func status(_ seconds: TimeInterval) -> SharedSnapshot.Status {
        SharedSnapshot.Status(stale: false, fetchedAt: start + seconds)
    }

    /// A history whose latest slot is `seconds` after `start`.
    static func record(_ seconds: Int, yoga: Int) -> HistoryRecord {
        var history = TrendHistory()
        history.record(habitTotals: ["Yoga": yoga], userTotals: [:], second: Int(start.timeIntervalSince1970) + seconds)
        return HistoryRecord(history: history, moments: MomentLog())
    }

    @Test func aDeposedLeadersLateWritesAreRefusedAndAFollowerReadsTheNewLeaders() async throws {
        let url = try DatabaseURL(try await ThrowawayPostgres.shared().makeDatabase())
        let (_, a, _) = try await ClusterLinkTests.dashboard(on: url, role: .leader)
        let epochA = try #require(a.epoch)
        let told = Mutex(0)
        a.onDeposed { told.withLock { $0 += 1 } }
        a.share(SharedHistoryTests.snapshot(1), status: Self.status(0))
        a.storeHistory(Self.record(0, yoga: 1))
        await eventually("A's writes were tried") { a.isIdle }
        // A's session is gone (the helper closed it): B takes the lock, with the next epoch, and writes.
        let (_, b, _) = try await ClusterLinkTests.dashboard(on: url, role: .leader)
        #expect(b.epoch == epochA + 1)
        let bSnapshot = SharedHistoryTests.snapshot(2)
        let bHistory = Self.record(10, yoga: 2)
        b.share(bSnapshot, status: Self.status(10))
        b.storeHistory(bHistory)
        await eventually("B's writes were tried") { b.isIdle }
        // A is heard again, still with epoch N: a newer version and a later slot than B's, which no version or slot
        // guard would stop.
        a.share(SharedHistoryTests.snapshot(3), status: Self.status(20))
        a.storeHistory(Self.record(20, yoga: 3))
        await eventually("A's late writes were tried") { a.isIdle }
        let expected = Rows(
            version: bSnapshot.version, snapshotEpoch: epochA + 1, slot: bHistory.history.fine.latestSlot,
            historyEpoch: epochA + 1)
        #expect(try await Self.rows(Self.pool(url)) == expected)
        let (_, follower, followerHistory) = try await ClusterLinkTests.dashboard(on: url, role: .follower)
        let read = try await follower.follow(shown: nil, watched: false)
        #expect(read?.snapshot?.version == bSnapshot.version && read?.status == Self.status(10))
        #expect(followerHistory.latestSlot == bHistory.history.fine.latestSlot)
        #expect(told.withLock { $0 } == 1, "the refresher is told once")
        #expect(a.epoch == nil, "A writes nothing more")
    }

    @Test func theDatabaseRefusesEachWriteOfAnOlderEpochEvenBeforeTheNewLeaderWrote() async throws {
        let url = try DatabaseURL(try await ThrowawayPostgres.shared().makeDatabase())
        let pool = Self.pool(url)
        try await MigrationRunner(migrations: DashboardMigrations.all).run(on: pool)
        let old = try await ClusterLinkTests.takeLead(on: url)
        let new = try await ClusterLinkTests.takeLead(on: url)
        let row = { (count: Int) in
            try SharedSnapshot(snapshot: SharedHistoryTests.snapshot(count), status: Self.status(0), upstream: "u")
        }
        // Nothing stored by the new leader yet: the old epoch's write is refused all the same.
        let early = try await pool.run(ClusterSchema.store(try row(1), epoch: old))
        #expect(early.value("stored") == "0" && early.value("leader") == String(new))
        #expect(try await Self.rows(pool) == Rows())
        let stored = try await pool.run(ClusterSchema.store(try row(2), epoch: new))
        #expect(stored.value("stored") == "1" && stored.value("leader") == String(new))
        let history = try await pool.run(ClusterSchema.store(history: [1, 2], slot: 10, epoch: new))
        #expect(history.value("stored") == "1")
        let lateSnapshot = try await pool.run(ClusterSchema.store(try row(3), epoch: old))
        let lateHistory = try await pool.run(ClusterSchema.store(history: [3], slot: 20, epoch: old))
        #expect(lateSnapshot.value("stored") == "0" && lateHistory.value("stored") == "0")
        let expected = Rows(
            version: try row(2).version, snapshotEpoch: new, slot: 10, historyEpoch: new)
        #expect(try await Self.rows(pool) == expected)
        // The current leader's own older slot is kept out by the slot guard, and says it still leads.
        let behind = try await pool.run(ClusterSchema.store(history: [4], slot: 5, epoch: new))
        #expect(behind.value("stored") == "0" && behind.value("leader") == String(new))
    }

    @Test func theEpochOnlyGrowsAcrossLeadershipsAndALostTryLeavesItAlone() async throws {
        let url = try DatabaseURL(try await ThrowawayPostgres.shared().makeDatabase())
        try await MigrationRunner(migrations: DashboardMigrations.all).run(on: Self.pool(url))
        let first = try await ClusterLinkTests.takeLead(on: url)
        #expect(first == 1, "a fresh database starts at 0")
        let guardTime = ContinuousClock.now + .seconds(60)
        let holder = try await PostgresConnection.connect(to: url, deadline: guardTime, clock: SystemTimeSource())
        var held = try await holder.run(ClusterSchema.tryLock, deadline: guardTime)
        for _ in 0..<1200 where held.value("held") != "t" {  // the helper's session may not be gone yet
            try await Task.sleep(for: .milliseconds(50))
            held = try await holder.run(ClusterSchema.tryLock, deadline: guardTime)
        }
        #expect(held.value("epoch") == String(first + 1))
        let other = try await PostgresConnection.connect(to: url, deadline: guardTime, clock: SystemTimeSource())
        let lost = try await other.run(ClusterSchema.tryLock, deadline: guardTime)
        #expect(lost.value("held") == "f" && lost.value("epoch") == nil)
        other.close()
        holder.close()
        var epochs = [first, first + 1]
        for _ in 0..<3 { epochs.append(try await ClusterLinkTests.takeLead(on: url)) }
        #expect(epochs == Array(first...(first + 4)), "one more per leadership, never reused")
    }

    @Test func aRefresherWhoseWriteIsRefusedStepsDownAndLeadsAgainWithALargerEpoch() async throws {
        let url = try DatabaseURL(try await ThrowawayPostgres.shared().makeDatabase())
        let (store, link, _) = try await ClusterLinkTests.dashboard(on: url, role: .follower)
        let listener = PostgresListener(url: url, clock: SystemTimeSource())
        let refresher = Refresher(
            url: url, link: link, store: store, listener: listener, statementTimeout: .seconds(30),
            clock: SystemTimeSource(), logger: .silent)
        refresher.start()
        defer {
            refresher.stop()
            listener.stop()
        }
        await eventually("it leads") { refresher.role == .leader && link.epoch != nil }
        let first = try #require(link.epoch)
        // Another leadership began meanwhile, as when this dashboard's session was lost and another took the lock.
        _ = try await Self.pool(url).run(
            Statement("UPDATE cluster_leader SET epoch = epoch + 1", idempotent: false))
        link.share(SharedHistoryTests.snapshot(5), status: Self.status(0))
        await eventually("it stepped down and took the lock again") {
            refresher.takeovers >= 2 && refresher.role == .leader && (link.epoch ?? 0) > first + 1
        }
    }

    @Test func aDatabaseFromBeforeFencingUpgradesAndItsFirstLeaderWritesOverTheOldRows() async throws {
        let url = try DatabaseURL(try await ThrowawayPostgres.shared().makeDatabase())
        let pool = Self.pool(url)
        _ = try await MigrationRunner(migrations: Array(DashboardMigrations.all.prefix(2))).run(on: pool)
        for insert in [
            "INSERT INTO cluster_snapshot (id, version, stale, fetched_at_ms, document) VALUES (1, 7, false, 0, 'x')",
            "INSERT INTO cluster_history (id, slot, document) VALUES (1, 5, 'x')",
        ] {
            _ = try await pool.run(Statement(insert, idempotent: false))
        }
        let applied = try await MigrationRunner(migrations: DashboardMigrations.all).run(on: pool)
        #expect(applied == Array(3...DashboardMigrations.all.count))
        #expect(try await Self.rows(pool) == Rows(version: 7, snapshotEpoch: 0, slot: 5, historyEpoch: 0))
        let epoch = try await ClusterLinkTests.takeLead(on: url)
        #expect(epoch == 1)
        let row = try SharedSnapshot(
            snapshot: SharedHistoryTests.snapshot(1), status: Self.status(0), upstream: "u")
        #expect(try await pool.run(ClusterSchema.store(row, epoch: epoch)).value("stored") == "1")
        #expect(try await pool.run(ClusterSchema.store(history: [1], slot: 6, epoch: epoch)).value("stored") == "1")
        #expect(try await Self.rows(pool) == Rows(version: row.version, snapshotEpoch: 1, slot: 6, historyEpoch: 1))
    }
}
