import Foundation
import Timing

extension SnapshotState {
    /// The refresh timing part of `SnapshotState`: when the snapshot is refreshed from the upstream, and whether what is
    /// shown is stale. Every question carries `now`, a monotonic instant, so setting the wall clock neither stalls
    /// refreshes nor makes data look stale.
    ///
    /// - While a live page is watched (a live request within `watchWindow`, or a long poll parked) the statistics are
    ///   refreshed every `interval`; users, habits and categories every `referenceInterval`. Nobody watching: a page
    ///   request starts a refresh when the data is older than `interval`, and nothing runs in between.
    /// - However many requests ask, a refresh starts at most once per `interval` and never while one runs, so the
    ///   upstream sees at most `1 / interval` statistics calls per second (issue 9: at most 4 at the default 0.25 s).
    /// - After a failure, retries back off exponentially from `firstBackoff` up to `maxBackoff` (issue 8 point 4), and
    ///   what is shown is stale until a refresh succeeds.
    struct Schedule: Equatable {
        /// The timings.
        struct Policy: Equatable {
            /// Statistics refresh period while watched (`--refresh-interval`).
            var interval: Duration = .milliseconds(250)
            /// Users, habits and categories change rarely.
            var referenceInterval: Duration = .seconds(30)
            /// A live request keeps the page "watched" this long.
            var watchWindow: Duration = .seconds(5)
            /// The first retry delay after a failure; doubled per further failure.
            var firstBackoff: Duration = .milliseconds(500)
            /// The longest retry delay.
            var maxBackoff: Duration = .seconds(30)
            /// Data older than this, with a refresh still unanswered, is shown with the "data as of" notice.
            var staleAfter: Duration = .seconds(30)
        }

        /// What to fetch.
        enum Refresh: Equatable {
            /// Nothing now.
            case none
            /// The statistics only.
            case statistics
            /// The statistics and the reference data.
            case everything
        }

        let policy: Policy
        /// When the last refresh started.
        private(set) var lastStarted: ContinuousClock.Instant?
        /// Whether a refresh is running.
        private(set) var inFlight = false
        /// A refresh was asked for while one ran (after a habit was logged): start one as soon as it ends.
        private(set) var pendingForced = false
        /// Failures in a row.
        private(set) var failures = 0
        /// No retry before this, after a failure.
        private(set) var retryAt: ContinuousClock.Instant?
        /// When the last refresh succeeded (its age makes the data stale; the notice's wall-clock time is the store's).
        private(set) var lastSuccess: ContinuousClock.Instant?
        /// When the reference data was last fetched.
        private(set) var referenceFetchedAt: ContinuousClock.Instant?
        /// The statistics named a user or habit the reference data lacks: fetch it again soon.
        private(set) var referenceOutdated = false
        /// Watched until then; nil before the first live request.
        private(set) var watchedUntil: ContinuousClock.Instant?

        /// A schedule with nothing fetched yet.
        init(policy: Policy = Policy()) { self.policy = policy }

        // MARK: - Events

        /// A live page or fragment was requested.
        mutating func watched(now: ContinuousClock.Instant) {
            watchedUntil = max(watchedUntil ?? now, now + policy.watchWindow)
        }

        /// Whether anyone watches a live page; `parked` counts long polls waiting now.
        func isWatched(now: ContinuousClock.Instant, parked: Int) -> Bool {
            parked > 0 || watchedUntil.map { now < $0 } ?? false
        }

        /// Whether to start a refresh now; if so it is marked running. `forced` (a habit was just logged) skips the
        /// interval but still never runs two at once.
        mutating func start(now: ContinuousClock.Instant, forced: Bool = false) -> Refresh {
            if inFlight {
                if forced { pendingForced = true }
                return .none
            }
            let due: Bool
            if forced || pendingForced {
                due = true
            } else if let retryAt {
                due = now >= retryAt
            } else if let lastStarted {
                due = now >= lastStarted + policy.interval
            } else {
                due = true
            }
            guard due else { return .none }
            inFlight = true
            pendingForced = false
            lastStarted = now
            return referenceDue(now: now) ? .everything : .statistics
        }

        /// The refresh that `start` allowed succeeded; `referenceFetched` says whether it fetched the reference data,
        /// `referenceComplete` whether that data knows every user and habit the statistics name.
        mutating func succeeded(now: ContinuousClock.Instant, referenceFetched: Bool, referenceComplete: Bool) {
            inFlight = false
            failures = 0
            retryAt = nil
            lastSuccess = now
            if referenceFetched { referenceFetchedAt = now }
            referenceOutdated = !referenceComplete
        }

        /// The refresh failed: back off.
        mutating func failed(now: ContinuousClock.Instant) {
            inFlight = false
            failures += 1
            retryAt =
                now + Backoff(initial: policy.firstBackoff, maximum: policy.maxBackoff).delay(afterFailures: failures)
        }

        /// What failed is no longer how data comes (this dashboard's part in its cluster changed): the next refresh
        /// may start at once, though the failures still count until one succeeds.
        mutating func retryNow() { retryAt = nil }

        // MARK: - Questions

        /// Whether the reference data must come with the next statistics.
        func referenceDue(now: ContinuousClock.Instant) -> Bool {
            guard let referenceFetchedAt else { return true }
            // An outdated reference is fetched again, but at most once a second: an upstream whose statistics always
            // name someone `/users` lacks must not double the call rate.
            if referenceOutdated && now >= referenceFetchedAt + max(.seconds(1), policy.interval) { return true }
            return now >= referenceFetchedAt + policy.referenceInterval
        }

        /// Whether what is shown is stale: the last refresh failed, or the data is older than `staleAfter`.
        func isStale(now: ContinuousClock.Instant) -> Bool {
            guard let lastSuccess else { return failures > 0 }
            return failures > 0 || now >= lastSuccess + policy.staleAfter
        }

        /// Whether a page should wait a moment for the refresh running now: it was started for data already old (nobody
        /// watched for a while), so a healthy upstream can give fresh data within the page's wait budget. A refresh
        /// started while the data was young (a watched page's next one) is not waited for, however long it takes: under
        /// load that sent every page to wait for data only as old as the refresh was slow (issue 21). So the answer
        /// depends on when the refresh started, not on the time now.
        var isWorthWaiting: Bool {
            guard inFlight, failures == 0, let lastSuccess, let lastStarted else { return false }
            return lastStarted >= lastSuccess + max(.seconds(1), policy.interval * 4)
        }

        /// When the refresher should look again while watched: the next allowed start.
        func nextWake(now: ContinuousClock.Instant) -> ContinuousClock.Instant {
            if let retryAt, retryAt > now { return retryAt }
            guard let lastStarted else { return now }
            return max(now, lastStarted + policy.interval)
        }
    }
}
