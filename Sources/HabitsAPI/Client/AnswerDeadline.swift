/// When an upstream call gives up, as its answer arrives (issue 23): a total time that large valid answers cannot
/// meet is the wrong bound. A `/combinedStats` of 45 000 people (6.8 MB) took 3.7 s to arrive on a loaded machine, so
/// a 3 s total timeout refused it, every refresh, and the dashboard never had data.
///
/// - Until the first byte of the answer: `totalTimeout` after the call started, as before, so a hanging upstream
///   fails as fast as ever.
/// - After it, the call lives (beyond `totalTimeout`) as long as the answer makes progress: no gap of
///   `stallTimeout` without a byte, and an average of at least `minimumRate` bytes a second (each byte received earns `1 / minimumRate` s beyond
///   `totalTimeout`), so an upstream dripping a byte a second cannot hold a call for ever.
///
/// How many bytes an answer may have is the parser's bound (`UpstreamConfiguration.maxAnswerBytes`). A pure value:
/// time arrives as arguments, so its tests move a `ManualClock`.
public struct AnswerDeadline: Sendable, Equatable {
    /// The bounds, from `UpstreamConfiguration`.
    public struct Policy: Sendable, Equatable {
        /// Longest wait for the first byte of the answer, from the start of the call.
        public var totalTimeout: Duration
        /// Longest gap between two reads that bring bytes, once the answer has started.
        public var stallTimeout: Duration
        /// The slowest average rate, bytes a second over the whole call, that an answer may arrive at (≥ 1).
        public var minimumRate: Int

        /// Creates a policy.
        public init(totalTimeout: Duration, stallTimeout: Duration, minimumRate: Int) {
            self.totalTimeout = totalTimeout
            self.stallTimeout = stallTimeout
            self.minimumRate = minimumRate
        }
    }

    /// The bounds.
    public let policy: Policy
    /// When the call started.
    public let start: ContinuousClock.Instant
    /// Bytes of the answer received so far.
    public private(set) var received = 0
    /// When bytes last arrived (the start until the first do).
    public private(set) var lastProgress: ContinuousClock.Instant

    /// A call started at `start`.
    public init(policy: Policy, start: ContinuousClock.Instant) {
        self.policy = policy
        self.start = start
        lastProgress = start
    }

    /// `count` bytes of the answer arrived at `now` (0 is no progress).
    public mutating func received(_ count: Int, at now: ContinuousClock.Instant) {
        guard count > 0 else { return }
        received += count
        lastProgress = max(lastProgress, now)
    }

    /// The instant the call gives up if nothing more arrives.
    public var deadline: ContinuousClock.Instant {
        let first = start + max(.zero, policy.totalTimeout)
        guard received > 0 else { return first }
        // Whole seconds and the remainder apart, so a huge count cannot overflow the attoseconds of a Duration.
        let rate = max(1, policy.minimumRate)
        let earned = Duration.seconds(received / rate) + .seconds(Double(received % rate) / Double(rate))
        // Progress only ever adds time: no call fails before `totalTimeout`, as before.
        return max(first, min(first + earned, lastProgress + max(.zero, policy.stallTimeout)))
    }

    /// Whether the call has given up at `now`.
    public func hasExpired(at now: ContinuousClock.Instant) -> Bool { now >= deadline }
}
