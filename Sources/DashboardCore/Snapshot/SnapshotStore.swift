import Foundation
import HTTPServer
import HabitsAPI
import Logging
import Synchronization
import Timing

/// Holds the current `Snapshot` and keeps it fresh off the request path (issue 9), so that a page never waits on
/// the upstream once there is data to show (issue 8 point 4).
///
/// Every decision is `SnapshotState`'s (when to refresh, who waits and for how long, when the stale notice shows,
/// when long polls wake); this class only carries out its actions: it runs refreshes, resumes waiters, arms their
/// timers and the ticker on the clock, queues snapshots for `SnapshotPersistence` and records `history`.
///
/// - `view(live:)` answers at once from the current snapshot, starting a refresh when one is due. Only a request with
///   no data at all waits, bounded by the client's total timeout; data older than a second or so waits at most
///   `pageWait` for the refresh it started, so the first visitor after a quiet spell sees fresh data.
/// - Long polls `park` until the view changes (new version, the stale notice appearing or going, a browser's
///   settings changing), their timeout passes, or the store shuts down. How many may wait is decided before (`ParkingQuota`).
/// - Every successful refresh records the totals in `history` (issue 10 point 4) before publishing, so the samples
///   follow the fetches on this store's clock, not the requests. That one call is the whole seam to the history.
final class SnapshotStore: Sendable {
    struct Locked {
        var state: SnapshotState
        /// The continuations of the waiters `state` names.
        var waiters = WaiterRegistry<SnapshotState.WaitKind, Bool>()
        var ticker: Task<Void, Never>?
        /// The cluster this store shares a database with (issue 19); nil: it fetches for itself.
        var sharing: (any SnapshotSharing)?
    }

    private let source: any HabitsAPI
    let clock: any TimeSource
    /// What the store was created with.
    public let configuration: Configuration
    private let logger: Logger
    private let persistence: SnapshotPersistence?
    let locked: Mutex<Locked>
    /// `state.generation` as of the last event, readable without the lock (`generation`).
    private let publishedGeneration = Atomic<UInt64>(0)
    /// Every habit's and person's total over the last hour, recorded here on each successful refresh (issue 10).
    public let history: ActivityHistory

    /// Creates a store that fetches from `source`; nothing is fetched until the first page asks. With `persistence`
    /// the snapshot on disk, if good, is loaded now and served until the upstream answers.
    public init(
        source: any HabitsAPI, configuration: Configuration = Configuration(),
        clock: any TimeSource = SystemTimeSource(), logger: Logger = Logger(label: "snapshot", level: .notice),
        persistence: SnapshotPersistence? = nil, history: ActivityHistory = ActivityHistory()
    ) {
        self.source = source
        self.history = history
        self.clock = clock
        self.configuration = configuration
        self.logger = logger
        self.persistence = persistence
        let restored = persistence?.load(activeUserID: configuration.activeUserID).map { ($0.snapshot, $0.fetchedAt) }
        locked = Mutex(Locked(state: SnapshotState(policy: configuration.policy, restored: restored)))
    }

    /// The generation long polls wait on (it moves with a new version, the stale notice, a changed setting), read
    /// without the lock: part of the epoch under which the server gives an answer again (DashboardWeb's
    /// `AnswerEpoch+Dashboard.swift`).
    public var generation: UInt64 { publishedGeneration.load(ordering: .acquiring) }

    /// The counters.
    public var metrics: Metrics { locked.withLock { $0.state.metrics } }

    /// The store's clock's monotonic time (long polls measure their wait with it, "Happening now" its ages).
    public var now: ContinuousClock.Instant { clock.now }

    /// The store's clock's wall-clock time (what the history's slots and the times pages show are counted in).
    public var date: Date { clock.date }

    /// Returns at `deadline` on the store's clock, or when the task is cancelled (a poll answered after a delay).
    public func pause(until deadline: ContinuousClock.Instant) async {
        await clock.sleep(until: deadline)
    }

    // MARK: - Events

    /// The view to build a response from. `live` marks a live page or fragment (which keeps the ticker running).
    /// Throws only when there is no data at all and the upstream fails.
    ///
    /// A request that must wait for a refresh (the first one, with no data yet, or a brief one for data a little old)
    /// waits on the upstream, and says so in `activity`: at the connection cap the server may then give it up for a
    /// newcomer (issue 23 point 1) rather than count it as a handler at work.
    public func view(live: Bool = false, activity: RequestActivity? = nil) async throws -> SnapshotView {
        let answer = decide { $0.viewRequested(live: live, now: clock.now, date: clock.date) }
        switch answer {
        case .ready(let view):
            return view
        case .fail(let error):
            throw error
        case .wait(let id, let deadline):
            let woken: Bool
            if let activity {
                woken = await activity.waitingOnUpstream(since: clock.now) { await wait(id, until: deadline) }
            } else {
                woken = await wait(id, until: deadline)
            }
            return try locked.withLock { $0.state.waitEnded(timedOut: !woken, now: clock.now, date: clock.date) }.get()
        case .later:
            preconditionFailure("only a view asked for at once is answered later")
        }
    }

    /// The view `view(live:)` would give at once, or nil when that would wait or fail (then ask `view(live:)`): what
    /// a request answered on an event loop reads (issue 21).
    public func viewAtOnce(live: Bool = false) -> SnapshotView? {
        let answer = decide { $0.viewRequested(live: live, now: clock.now, date: clock.date, atOnce: true) }
        guard case .ready(let view) = answer else { return nil }
        return view
    }

    /// The current view without starting anything, or nil with no data yet.
    public var currentView: SnapshotView? {
        locked.withLock { $0.state.current(now: clock.now, date: clock.date) }
    }

    /// After a change upstream made here (a habit logged): refreshes now and waits (at most `timeout`) for a
    /// refresh that started after this call, so the next page shows the change; past it the change's answer goes
    /// out at once, and the page after it shows what the snapshot has.
    public func refreshAfterChange(timeout: Duration = .seconds(3)) async {
        let deadline = clock.now + timeout
        guard let id = decide({ $0.changeMade(now: clock.now) }) else { return }
        _ = await wait(id, until: deadline)
    }

    /// A browser's settings changed: wake the long polls so each can check whether its own page changed.
    public func settingsChanged() {
        decide { ((), $0.settingsChanged()) }
    }

    /// Parks a long poll until the view's generation moves past `generation`, `timeout` passes, or shutdown.
    public func park(after generation: UInt64, timeout: Duration) async -> ParkOutcome {
        // Fixed before the poll counts as parked, so whoever sees it parked and moves the clock moves it past this.
        let now = clock.now
        switch decide({ $0.parkRequested(after: generation, now: now, deadline: now + timeout) }) {
        case .refused: return .refused
        case .changed: return .changed
        case .wait(let id, let deadline): return await wait(id, until: deadline) ? .changed : .timedOut
        }
    }

    /// Stops the ticker and answers every parked long poll at once; later ones are refused (graceful shutdown).
    public func shutdown() {
        let ticker = locked.withLock { locked in
            defer { locked.ticker = nil }
            return locked.ticker
        }
        ticker?.cancel()
        decide { ((), $0.shutdown()) }
        persistence?.flush()
    }

    // MARK: - Carrying out

    /// Runs one event on the state under the lock, then carries out its actions outside it.
    @discardableResult
    func decide<Answer>(_ event: (inout SnapshotState) -> (Answer, [SnapshotState.Action])) -> Answer {
        let (answer, actions, woken) = locked.withLock { locked in
            let (answer, actions) = event(&locked.state)
            publishedGeneration.store(locked.state.generation, ordering: .releasing)
            return (answer, actions, take(actions, from: &locked.waiters))
        }
        perform(actions, woken)
        return answer
    }

    /// Removes the waiters a `.resume` names, under the lock, so nobody else can resume them too.
    private func take(
        _ actions: [SnapshotState.Action], from waiters: inout WaiterRegistry<SnapshotState.WaitKind, Bool>
    ) -> [(WaiterRegistry<SnapshotState.WaitKind, Bool>.Waiter, Bool)] {
        var woken: [(WaiterRegistry<SnapshotState.WaitKind, Bool>.Waiter, Bool)] = []
        for case .resume(let ids, let changed) in actions {
            for id in ids { if let waiter = waiters.remove(id: id) { woken.append((waiter, changed)) } }
        }
        return woken
    }

    private func perform(
        _ actions: [SnapshotState.Action], _ woken: [(WaiterRegistry<SnapshotState.WaitKind, Bool>.Waiter, Bool)]
    ) {
        for (waiter, changed) in woken { waiter.resume(changed) }
        for action in actions {
            switch action {
            case .refresh(let job):
                Task { await self.run(job) }
            case .resume:
                break  // done above, with the waiters taken under the lock
            case .save(let snapshot, let fetchedAt):
                persistence?.save(snapshot, fetchedAt: fetchedAt)
            case .tick(let instant):
                let ticker = clock.after(instant) { self.decide { ((), $0.tick(now: self.clock.now)) } }
                locked.withLock { $0.ticker = ticker }
            case .logFailure(let error, let failures):
                logger.warning(
                    "snapshot refresh failed", ["error": String(describing: error), "failures": "\(failures)"])
            case .share(let snapshot, let status):
                locked.withLock { $0.sharing }?.share(snapshot, status: status)
            }
        }
    }

    /// Suspends waiter `id` until the state resumes it or `deadline` passes: true when what it waited for happened.
    /// A cancelled waiter (the server makes room at its cap by cancelling a parked poll, issue 23) ends as if its
    /// time were up, and frees its place at once.
    private func wait(_ id: UInt64, until deadline: ContinuousClock.Instant?) async -> Bool {
        await InterruptibleWait.value { wait(id, until: deadline, then: $0) }
    }

    /// Waits for waiter `id` (in the state's list since the decision that answered `.wait`) holding no task: `then`
    /// gets true when it is woken, at once when it was woken before this, and false at `deadline` or when the closure
    /// returned interrupts it. The one registration of a waiter, for tasks (`wait(_:until:)`) and parked polls alike.
    func wait(
        _ id: UInt64, until deadline: ContinuousClock.Instant?, then: @escaping @Sendable (Bool) -> Void
    ) -> @Sendable () -> Void {
        let registered = locked.withLock { locked -> Bool in
            // Woken between the decision and now: it is no longer in the state's list.
            guard let kind = locked.state.waiting[id] else { return false }
            locked.waiters.add(id: id, kind, resume: then, until: deadline, on: clock) { id in
                self.decide { ((), $0.waitTimedOut(id)) }
            }
            return true
        }
        guard registered else {
            then(true)
            return {}
        }
        return { self.decide { ((), $0.waitTimedOut(id)) } }
    }

    // MARK: - Refreshing

    /// Fetches, builds a snapshot if anything changed, records the history, then reports to the state: one lock.
    private func run(_ job: SnapshotState.Job) async {
        let (role, sharing) = locked.withLock { ($0.state.role, $0.sharing) }
        let outcome: SnapshotState.Outcome
        do {
            if role == .follower, let sharing, !job.forced,
                let (built, status) = try await sharing.follow(shown: job.current?.version, watched: job.watched)
            {
                outcome = .followed(built: built, status: status)
            } else {
                // A follower fetches a change made here itself, so the page after it shows it (issue 19); it asks
                // the leader to refresh too, so every dashboard shows it within a notification's time.
                if role == .follower { sharing?.askForRefresh() }
                let (built, reference) = try await fetchAndBuild(job)
                if role != .follower, let shown = built ?? job.current { history.record(shown, at: clock.date) }
                outcome = .fetched(built: built, reference: reference)
            }
        } catch {
            outcome = .failed(error)
        }
        decide { ((), $0.refreshFinished(job, outcome, now: clock.now, date: clock.date)) }
    }

    /// The new snapshot (nil when the answers hash to what the current one was built from) and the reference data
    /// fetched (nil when not due).
    private func fetchAndBuild(_ job: SnapshotState.Job) async throws -> (Snapshot?, SnapshotState.Reference?) {
        async let statistics = source.combinedStatistics()
        var fetched: SnapshotState.Reference?
        if job.fetchesReference {
            async let users = source.users()
            async let habits = source.habits()
            async let categories = source.categories()
            let reference = (users: try await users, habits: try await habits, categories: try await categories)
            fetched = SnapshotState.Reference(
                users: reference.users, habits: reference.habits, categories: reference.categories,
                digest: ContentDigest.reference(
                    users: reference.users, habits: reference.habits, categories: reference.categories
                ).value)
        }
        let answer = try await statistics
        let statisticsDigest = ContentDigest.statistics(answer).value
        guard let reference = fetched ?? job.reference else { throw HabitsAPIError.transport("no reference data") }
        if let current = job.current, current.referenceVersion == reference.digest,
            current.statisticsVersion == statisticsDigest
        {
            return (nil, fetched)
        }
        let snapshot = Snapshot(
            inputs: SnapshotInputs(
                users: reference.users, habits: reference.habits, categories: reference.categories,
                statistics: answer),
            referenceVersion: reference.digest, statisticsVersion: statisticsDigest,
            activeUserID: configuration.activeUserID, previous: job.current)
        return (snapshot, fetched)
    }
}
