/// What to do with a request for a profile image (issue 23: with a hanging upstream, four addresses looping on
/// `/images/<id>` held every connection for the upstream's timeout each). A pure value, tested with a fake clock:
/// - a failed image is remembered as a failure for `failureMemory`, so its next requests fail at once;
/// - concurrent requests for one image share one upstream call;
/// - at most `maxWaiting` requests wait on the upstream at once; beyond it a request is turned away at once.
struct ImageFetchState: Sendable {
    /// The bounds.
    struct Policy: Equatable, Sendable {
        /// How long a failed image stays failed.
        var failureMemory: Duration = .seconds(30)
        /// Requests (callers and joiners) waiting on the upstream at once.
        var maxWaiting = 32
        /// Failures remembered at once (the oldest is forgotten first); bounds the memory whatever the ids.
        var maxFailures = 1024
    }

    /// What a request does.
    enum Decision: Equatable {
        /// Call the upstream, then report with `finished`.
        case fetch
        /// Wait for the call already in flight for this image.
        case join
        /// It failed a moment ago: fail at once; it may be asked again at `until`.
        case failed(until: ContinuousClock.Instant)
        /// Too many wait on the upstream already: turn the request away at once.
        case overloaded
    }

    let policy: Policy
    /// Images being fetched, with how many requests wait on each (the caller included).
    private(set) var inFlight: [String: Int] = [:]
    /// Requests waiting on the upstream in all, within `policy.maxWaiting`.
    private(set) var waits: WaitingBound
    /// Requests waiting on the upstream in all.
    var waiting: Int { waits.count }
    /// Failed images and when they may be tried again.
    private(set) var failures: [String: ContinuousClock.Instant] = [:]

    /// A state with nothing in flight.
    init(policy: Policy = Policy()) {
        self.policy = policy
        waits = WaitingBound(limit: policy.maxWaiting)
    }

    /// Decides for a request for image `id` at `now`.
    mutating func request(_ id: String, now: ContinuousClock.Instant) -> Decision {
        if let until = failures[id] {
            if now < until { return .failed(until: until) }
            failures[id] = nil
        }
        guard waits.enter() else { return .overloaded }
        if let count = inFlight[id] {
            inFlight[id] = count + 1
            return .join
        }
        inFlight[id] = 1
        return .fetch
    }

    /// The call for `id` ended (`failed` or not) at `now`: every request that waited on it stops waiting.
    mutating func finished(_ id: String, failed: Bool, now: ContinuousClock.Instant) {
        waits.leave(inFlight.removeValue(forKey: id) ?? 0)
        guard failed else { return }
        if failures.count >= policy.maxFailures, let oldest = failures.min(by: { $0.value < $1.value }) {
            failures[oldest.key] = nil
        }
        failures[id] = now + policy.failureMemory
    }
}
