import HabitsAPI

/// The snapshot store's configuration, the outcomes of a park and its counters.
extension SnapshotStore {
    /// Timings and bounds.
    public struct Configuration: Sendable, Equatable {
        /// Statistics refresh period while watched (`--refresh-interval`).
        public var refreshInterval: Duration = .milliseconds(250)
        /// Users, habits and categories refresh period.
        public var referenceInterval: Duration = .seconds(30)
        /// How long a page with old data waits for the refresh it started (within issue 8's 50 ms).
        public var pageWait: Duration = .milliseconds(40)
        /// How long a request waits on the upstream with no data yet (`SnapshotState.Policy.upstreamWait`).
        public var upstreamWait: Duration = .seconds(3)
        /// The active user's id.
        public var activeUserID = User.activeUserID

        /// The defaults.
        public init() {}

        var policy: SnapshotState.Policy {
            var policy = SnapshotState.Policy()
            policy.schedule.interval = refreshInterval
            policy.schedule.referenceInterval = referenceInterval
            policy.pageWait = pageWait
            policy.upstreamWait = upstreamWait
            return policy
        }
    }

    /// How a parked long poll ended (`ParkOutcome`, public for the web's live polls).
    typealias ParkOutcome = DashboardCore.ParkOutcome

    /// Counters for `/metrics` and tests.
    public struct Metrics: Sendable, Equatable {
        /// Refreshes started (each is one statistics call, plus three reference calls when due).
        public var refreshes = 0
        /// Refreshes that ended (well or not).
        public var completed = 0
        /// Refreshes that failed.
        public var failures = 0
        /// Snapshots built (new content).
        public var builds = 0
        /// Long polls waiting now.
        public var parked = 0
    }
}
