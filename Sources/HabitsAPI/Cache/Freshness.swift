import Foundation

/// What the shared cache knows about one entry's age, as a pure value: every read asks `decide(now:)` what to do,
/// and every fetch reports back through `fetchStarted()`, `fetchSucceeded(at:)` and `fetchFailed(at:)`.
///
/// No I/O and no clock of its own: `CachedHabitsAPI` runs the actions (starts fetches, hands out values) and tests
/// drive the rules with plain instants.
struct Freshness: Equatable, Sendable {
    /// The times that shape the rules, from `CachePolicy`.
    struct Policy: Equatable, Sendable {
        /// How long a good answer is fresh.
        var ttl: Duration
        /// How long a failure holds retries back.
        var failureTTL: Duration
        /// How old an expired value may be and still be served at once while one refresh runs (0: never).
        var staleWhileRevalidate: Duration
    }

    /// What a read gets.
    enum Decision: Equatable, Sendable {
        /// The value, fresh.
        case fresh
        /// The value at once, marked stale or not, and whether this read starts a refresh behind the caller's back.
        case serve(isStale: Bool, startRefresh: Bool)
        /// Wait for the upstream: join the fetch in flight, or start one.
        case wait(startFetch: Bool)
        /// No value and the upstream failed a moment ago: the remembered failure.
        case failed
    }

    /// The rules' times.
    let policy: Policy
    /// Whether a good answer has ever been stored.
    private(set) var hasValue = false
    /// When the upstream answered with the value (monotonic: its age); nil before the first answer.
    private(set) var fetchedAt: ContinuousClock.Instant?
    /// When the upstream answered with the value, on the wall clock: only for "data as of".
    private(set) var fetchedDate = Date.distantPast
    /// Until when the value is fresh; nil when it is not (no value yet, or invalidated).
    private(set) var freshUntil: ContinuousClock.Instant?
    /// Until when the last failure holds retries back; nil once a fetch succeeds.
    private(set) var failedUntil: ContinuousClock.Instant?
    /// Whether a fetch is in flight.
    private(set) var isFetching = false
    /// Bumped on invalidation, so a fetch started before then cannot store its older answer.
    private(set) var generation = 0
    /// Set by invalidation (a habit was logged): the next read waits for the upstream instead of being served the
    /// old value, so the page after the log shows it.
    private(set) var mustRevalidate = false

    /// A new entry: no value yet.
    init(policy: Policy) { self.policy = policy }

    /// What a read at `now` gets. Starting a fetch is the caller's job; it reports it with `fetchStarted()`.
    func decide(now: ContinuousClock.Instant) -> Decision {
        let failing = failedUntil.map { now < $0 } ?? false
        guard hasValue, let fetchedAt else { return failing ? .failed : .wait(startFetch: !isFetching) }
        if let freshUntil, now < freshUntil { return .fresh }
        let withinBound = fetchedAt.duration(to: now) < policy.staleWhileRevalidate
        if withinBound && !mustRevalidate {
            // Stale-while-revalidate: answer now; refresh unless one runs or the upstream failed a moment ago.
            return .serve(isStale: failedUntil != nil, startRefresh: !isFetching && !failing)
        }
        // Too old (or invalidated) to serve as current: wait, unless the upstream is known to be failing.
        if failing || (failedUntil != nil && isFetching) { return .serve(isStale: true, startRefresh: false) }
        return .wait(startFetch: !isFetching)
    }

    /// A fetch started; returns the generation its answer must match to be stored.
    mutating func fetchStarted() -> Int {
        isFetching = true
        return generation
    }

    /// A fetch of `generation` answered at `now` (`date` on the wall clock). False when the entry was invalidated
    /// meanwhile (answer dropped).
    mutating func fetchSucceeded(generation: Int, at now: ContinuousClock.Instant, date: Date) -> Bool {
        guard generation == self.generation else { return false }
        hasValue = true
        fetchedAt = now
        fetchedDate = date
        freshUntil = now + policy.ttl
        failedUntil = nil
        isFetching = false
        mustRevalidate = false
        return true
    }

    /// A fetch of `generation` failed at `now`: retries wait `failureTTL`. False (and ignored) when the entry was
    /// invalidated meanwhile.
    mutating func fetchFailed(generation: Int, at now: ContinuousClock.Instant) -> Bool {
        guard generation == self.generation else { return false }
        failedUntil = now + policy.failureTTL
        isFetching = false
        return true
    }

    /// Expires the value (kept as the stale fallback) and disowns the fetch in flight.
    mutating func invalidate() {
        freshUntil = nil
        isFetching = false
        generation += 1
        mustRevalidate = true
    }
}

extension Freshness.Policy {
    /// The times `policy` gives `endpoint`.
    init(_ policy: CachePolicy, for endpoint: Endpoint) {
        self.init(
            ttl: policy.ttl(for: endpoint), failureTTL: policy.failureTTL,
            staleWhileRevalidate: policy.staleWhileRevalidate)
    }
}
