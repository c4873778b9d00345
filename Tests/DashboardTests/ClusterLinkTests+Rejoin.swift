import Foundation
import Postgres
import TestSupport
import Testing

@testable import DashboardCore

/// A dashboard cut off from the database records a history of its own (standalone), and when it follows again it
/// draws the stored one, even of the same slot (issue 49 point 2: every dashboard shows the same ETag within 2 s of
/// the heal; holding its own slot kept it on its own line until the leader stored the next one).
extension ClusterLinkTests {
    @Test(.timeLimit(.minutes(3)))
    func aFollowerBackFromACutAdoptsTheStoredHistoryOfTheSlotItRecordedAlone() async throws {
        let url = try DatabaseURL(try await ThrowawayPostgres.shared().makeDatabase())
        let (_, leader, leaderHistory) = try await Self.dashboard(on: url, role: .leader)
        let (followerStore, follower, followerHistory) = try await Self.dashboard(on: url, role: .follower)
        let start = Date(timeIntervalSince1970: 1_800_000_000)
        leaderHistory.record(Self.snapshot, at: start)
        await eventually("the leader's first slot is stored") { leader.isIdle }
        _ = try await follower.follow(shown: nil, watched: false)
        #expect(followerHistory.latestSlot == leaderHistory.latestSlot, "the follower adopted the stored slot")
        // Cut off: it records the next slot alone, while the leader stores its own record of that slot.
        followerStore.roleChanged(to: .standalone)
        followerHistory.record(Self.snapshot, at: start + 10)
        var stored = TrendHistory()
        let second = Int(start.timeIntervalSince1970) + 10
        stored.record(habitTotals: ["Yoga": 1], userTotals: [:], second: second)
        leader.storeHistory(HistoryRecord(history: stored, moments: MomentLog()))
        await eventually("the leader's second slot is stored") { leader.isIdle }
        #expect(
            followerHistory.value("Yoga", person: false, atOrAfter: second) != 1, "its own record, not yet the stored")
        // Healed: it follows again and reads.
        followerStore.roleChanged(to: .follower)
        _ = try await follower.follow(shown: nil, watched: false)
        #expect(followerHistory.value("Yoga", person: false, atOrAfter: second) == 1, "the stored record of that slot")
    }
}
