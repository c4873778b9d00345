import Foundation
import Postgres
import TestSupport
import Testing
import Timing

@testable import DashboardCore
@testable import DashboardWeb

/// A leader that steps down drops what it had queued for the cluster (`ClusterLink.writeAll`): only a leader
/// writes, so a deposed one never overwrites what the new leader stored.
extension ClusterLinkTests {
    @Test(.timeLimit(.minutes(3)))
    func aLeaderThatStepsDownDropsTheWriteItHadQueued() async throws {
        let url = try DatabaseURL(try await ThrowawayPostgres.shared().makeDatabase())
        let (leaderStore, leader, _) = try await Self.dashboard(on: url, role: .leader)
        let (_, follower, _) = try await Self.dashboard(on: url, role: .follower)
        let hangGuard = ContinuousClock.now + .seconds(60)
        // Another session holds the table, so the leader's first write waits in the database.
        let blocker = try await PostgresConnection.connect(to: url, deadline: hangGuard, clock: SystemTimeSource())
        defer { blocker.close() }
        for sql in ["BEGIN", "LOCK TABLE cluster_snapshot IN ACCESS EXCLUSIVE MODE"] {
            _ = try await blocker.run(Statement(sql, idempotent: false), deadline: hangGuard)
        }
        let first = SharedSnapshot.Status(stale: false, fetchedAt: Date(timeIntervalSince1970: 1_800_000_000))
        let second = SharedSnapshot.Status(stale: true, fetchedAt: Date(timeIntervalSince1970: 1_800_000_060))
        leader.share(Self.snapshot, status: first)
        let waiting = Statement(
            "SELECT count(*) AS n FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND datname = current_database()",
            idempotent: true)
        while try await blocker.run(waiting, deadline: hangGuard).value("n") == "0" {
            try await Task.sleep(for: .milliseconds(10))  // a hang guard bounds this wait, not a timing
        }
        // The first write is in flight; the second is queued, then the leader steps down and the table is free.
        leader.share(Self.snapshot, status: second)
        // As `Refresher` steps down: the link first, then the store.
        leader.stepDown()
        leaderStore.roleChanged(to: .follower)
        _ = try await blocker.run(Statement("COMMIT", idempotent: false), deadline: hangGuard)
        await eventually("the queue is empty") { leader.isIdle }
        let stored = try await follower.follow(shown: nil, watched: false)
        #expect(stored?.status == first, "the write in flight finished, the queued one was dropped")
    }
}
