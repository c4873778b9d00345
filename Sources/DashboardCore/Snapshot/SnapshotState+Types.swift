import Foundation
import HabitsAPI

/// The values `SnapshotState`'s events take and give: its policy, the reference data, a refresh to run and what a
/// refresh brought.
extension SnapshotState {
    /// Timings and bounds.
    struct Policy: Equatable {
        /// When to refresh and when data is stale.
        var schedule = Schedule.Policy()
        /// How long a page with old data waits for the refresh it started (within issue 8's 50 ms).
        var pageWait: Duration = .milliseconds(40)
        /// How long a request waits on the upstream when there is no data yet (and a page after a change it made):
        /// beyond it, it gets at once what can be served without the upstream, or `UpstreamSlow` (issue 23 point 3).
        /// A hanging upstream fails each call at the client's total timeout (3 s) already; this bounds what that does
        /// not: a first refresh of several calls, queued behind others in the client's limiter. The deadline is on
        /// the store's clock, so suites drive it with their manual clock (or wait for the data, as the browser
        /// tests and `DashboardService.waitForData()` do) instead of hoping a first refresh is fast.
        var upstreamWait: Duration = .seconds(3)
    }

    /// The users, habits and categories a snapshot is built with, and their digest.
    struct Reference {
        var users: [String: User]
        var habits: [String: Habit]
        var categories: [Category]
        var digest: UInt64
    }

    /// One refresh to run: what to fetch, and what the current data is (nothing else changes it while a refresh
    /// runs, since only one runs at a time), so the fetch can tell new answers from old without asking again.
    struct Job {
        /// Fetch users, habits and categories too.
        var fetchesReference: Bool
        /// The reference data to build with when it is not fetched.
        var reference: Reference?
        /// The snapshot shown now.
        var current: Snapshot?
        /// Counts refreshes started, so a change made here waits for one that started after it.
        var sequence: Int
        /// Started for a change made here (a habit logged): a follower fetches this one itself (issue 19).
        var forced = false
        /// A live page is watched here: a follower tells the leader so.
        var watched = false
    }

    /// What a refresh brought.
    enum Outcome {
        /// The answers; `built` is nil when they hash to the current snapshot's, `reference` nil when not fetched.
        case fetched(built: Snapshot?, reference: Reference?)
        /// A follower read the stored snapshot (issue 19): `built` is nil when its version is the one shown.
        case followed(built: Snapshot?, status: SharedSnapshot.Status)
        /// It failed.
        case failed(any Error)
    }
}
