import Foundation
import HTTPServer
import HabitsAPI
import Logging
import Synchronization

/// Holds the current `Snapshot` and keeps it fresh off the request path (issue 9), so that a page never waits on
/// the upstream once there is data to show (issue 8 point 4).
///
/// - `view(live:)` answers at once from the current snapshot, starting a refresh when one is due
///   (`RefreshSchedule` decides). Only a request with no data at all waits, bounded by the client's total timeout;
///   and data older than a second or so (nobody watched for a while) waits at most `pageWait` for the refresh it
///   started, so the first visitor after a quiet spell sees fresh data from a healthy upstream.
/// - While a live page is watched a ticker refreshes the statistics every `refreshInterval`.
/// - Long polls `park` until the view changes (new version, the stale notice appearing or going, a browser's
///   settings changing), their timeout passes, or the store shuts down. At most `maxParked` wait at once.
/// - A refresh whose answers hash to the current digests builds nothing and changes no version.
/// - Every successful refresh records the totals in `history` (issue 10 point 4) before publishing, so the samples
///   follow the fetches on this store's clock, not the requests.
/// - With a `SnapshotPersistence` (issue 13) the store starts from the snapshot on disk, shown with the "data as of"
///   notice (its fetch time) until a refresh succeeds, and queues every new snapshot to be written there.
public final class SnapshotStore: Sendable {
    /// Timings and bounds.
    public struct Configuration: Sendable, Equatable {
        /// Statistics refresh period while watched (`--refresh-interval`).
        public var refreshInterval: Duration = .milliseconds(250)
        /// Users, habits and categories refresh period.
        public var referenceInterval: Duration = .seconds(30)
        /// How long a page with old data waits for the refresh it started (within issue 8's 50 ms).
        public var pageWait: Duration = .milliseconds(40)
        /// Most long polls parked at once; beyond it they are answered at once.
        public var maxParked = 512
        /// The active user's id.
        public var activeUserID = User.activeUserID

        /// The defaults.
        public init() {}

        var schedule: RefreshSchedule.Policy {
            var policy = RefreshSchedule.Policy()
            policy.interval = refreshInterval
            policy.referenceInterval = referenceInterval
            return policy
        }
    }

    /// How a parked long poll ended.
    public enum ParkOutcome: Equatable, Sendable {
        /// The view changed.
        case changed
        /// The wait ran out with no change.
        case timedOut
        /// Not parked: too many wait already, or the store is shutting down.
        case refused
    }

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

    private struct Reference {
        var users: [String: User]
        var habits: [String: Habit]
        var categories: [Category]
        var digest: UInt64
    }

    private struct Waiter {
        var continuation: CheckedContinuation<Bool, Never>
        /// A long poll: woken only when the view changes (and counted in `parked`).
        var isLongPoll: Bool
        var timeout: Task<Void, Never>?
    }

    private struct State {
        var schedule: RefreshSchedule
        var snapshot: Snapshot?
        var reference: Reference?
        var lastError: (any Error)?
        var generation: UInt64 = 0
        var publishedStale = false
        /// When the data of a snapshot loaded from disk was fetched (wall clock, from the file); nil once a refresh
        /// has succeeded.
        var restoredFetchedAt: Date?
        /// When the last refresh succeeded on the wall clock: only what the "data as of" notice shows (its age is
        /// the schedule's, on the monotonic clock).
        var lastSuccessDate: Date?
        var waiters: [Int: Waiter] = [:]
        var nextWaiterID = 0
        var ticker: Task<Void, Never>?
        var isShutDown = false
        var metrics = Metrics()
    }

    private let source: any DashboardData
    private let clock: any SnapshotClock
    /// What the store was created with.
    public let configuration: Configuration
    private let logger: Logger
    private let persistence: SnapshotPersistence?
    private let state: Mutex<State>
    /// Every habit's and person's total over the last hour, recorded here on each successful refresh (issue 10).
    public let history: ActivityHistory

    /// Creates a store that fetches from `source`; nothing is fetched until the first page asks. With `persistence`
    /// the snapshot on disk, if good, is loaded now and served until the upstream answers.
    public init(
        source: any DashboardData, configuration: Configuration = Configuration(),
        clock: any SnapshotClock = SystemSnapshotClock(), logger: Logger = Logger(label: "snapshot", level: .notice),
        persistence: SnapshotPersistence? = nil, history: ActivityHistory = ActivityHistory()
    ) {
        self.source = source
        self.history = history
        self.clock = clock
        self.configuration = configuration
        self.logger = logger
        self.persistence = persistence
        var initial = State(schedule: RefreshSchedule(policy: configuration.schedule))
        if let loaded = persistence?.load(activeUserID: configuration.activeUserID) {
            initial.snapshot = loaded.snapshot
            initial.restoredFetchedAt = loaded.fetchedAt
            initial.publishedStale = true
        }
        state = Mutex(initial)
    }

    /// The counters.
    public var metrics: Metrics { state.withLock { $0.metrics } }

    /// The store's clock's monotonic time (long polls measure their wait with it, "Happening now" its ages).
    public var now: ContinuousClock.Instant { clock.now }

    /// The store's clock's wall-clock time (what the history's slots and the times pages show are counted in).
    public var date: Date { clock.date }

    // MARK: - Reading

    /// The view to build a response from. `live` marks a live page or fragment (which keeps the ticker running).
    /// Throws only when there is no data at all and the upstream fails.
    public func view(live: Bool = false) async throws -> SnapshotView {
        while true {
            let (decision, started) = state.withLock { state -> (ViewDecision, Refresh?) in
                let now = clock.now
                if live { state.schedule.watched(now: now) }
                let started = startIfDue(&state, now: now)
                if live { ensureTicker(&state) }
                guard let snapshot = state.snapshot else {
                    if state.isShutDown {
                        return (.fail(HTTPError(.serviceUnavailable, "The dashboard is stopping.")), started)
                    }
                    if !state.schedule.inFlight, let error = state.lastError { return (.fail(error), started) }
                    return (.waitForRefresh(state.generation), started)
                }
                if state.schedule.worthWaiting(now: now) { return (.waitBriefly(state.generation), started) }
                // Data from disk and a first refresh under way: a healthy upstream replaces it within the wait.
                if state.restoredFetchedAt != nil, state.schedule.inFlight, state.schedule.failures == 0 {
                    return (.waitBriefly(state.generation), started)
                }
                return (.ready(makeView(state, snapshot: snapshot, now: now)), started)
            }
            if let started { launch(started) }
            switch decision {
            case .ready(let view):
                return view
            case .fail(let error):
                throw error
            case .waitForRefresh:
                await waitForRefresh(timeout: nil)
                if let view = state.withLock({ state in
                    state.snapshot.map { makeView(state, snapshot: $0, now: clock.now) }
                }) {
                    return view
                }
                if let error = state.withLock({ $0.lastError }) { throw error }
            case .waitBriefly:
                await waitForRefresh(timeout: configuration.pageWait)
                return try state.withLock { state in
                    guard let snapshot = state.snapshot else { throw HabitsAPIError.transport("no data") }
                    return makeView(state, snapshot: snapshot, now: clock.now)
                }
            }
        }
    }

    /// The current view without starting anything, or nil with no data yet.
    public var currentView: SnapshotView? {
        state.withLock { state in state.snapshot.map { makeView(state, snapshot: $0, now: clock.now) } }
    }

    private enum ViewDecision {
        case ready(SnapshotView)
        case fail(any Error)
        case waitForRefresh(UInt64)
        case waitBriefly(UInt64)
    }

    private func makeView(_ state: State, snapshot: Snapshot, now: ContinuousClock.Instant) -> SnapshotView {
        let notice =
            isStale(state, now: now)
            ? StaleNotice(dataFetchedAt: state.restoredFetchedAt ?? state.lastSuccessDate ?? clock.date) : nil
        return SnapshotView(snapshot: snapshot, stale: notice, generation: state.generation)
    }

    /// Whether what is shown is stale: loaded from disk and not yet confirmed, or the schedule says so.
    private func isStale(_ state: State, now: ContinuousClock.Instant) -> Bool {
        state.restoredFetchedAt != nil || state.schedule.isStale(now: now)
    }

    // MARK: - Changes

    /// After a change upstream made here (a habit logged): refreshes now and waits (at most `timeout`) for a
    /// refresh that started after this call, so the next page shows the change.
    public func refreshAfterChange(timeout: Duration = .seconds(3)) async {
        let started = state.withLock { state in
            state.isShutDown ? nil : startForced(&state, now: clock.now)
        }
        if let started { launch(started) }
        let deadline = clock.now + timeout
        // The forced refresh runs now or right after the one in flight; both end with a wake-up.
        while state.withLock({ !$0.isShutDown && ($0.schedule.inFlight || $0.schedule.pendingForced) }) {
            let left = clock.now.duration(to: deadline)
            guard left > .zero else { return }
            await waitForRefresh(timeout: left)
        }
    }

    /// A browser's settings changed: wake the long polls so each can check whether its own page changed.
    public func settingsChanged() {
        let woken = state.withLock { state in
            state.generation &+= 1
            return takeWaiters(&state, all: true)
        }
        resume(woken)
    }

    /// Parks a long poll until the view's generation moves past `generation`, `timeout` passes, or shutdown.
    public func park(after generation: UInt64, timeout: Duration) async -> ParkOutcome {
        // Fixed before the poll counts as parked, so whoever sees it parked and moves the clock moves it past this.
        let wake = clock.now + timeout
        let id = state.withLock { state -> Int? in
            guard !state.isShutDown, state.metrics.parked < configuration.maxParked else { return nil }
            state.nextWaiterID += 1
            return state.nextWaiterID
        }
        guard let id else { return .refused }
        // A cancelled poll (the server makes room at its cap, issue 23) ends as if its time were up, and frees its
        // place at once.
        let changed = await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
                let immediate = state.withLock { state -> Bool in
                    if state.isShutDown || state.generation != generation { return true }
                    state.waiters[id] = Waiter(continuation: continuation, isLongPoll: true, timeout: nil)
                    state.metrics.parked += 1
                    ensureTicker(&state)
                    return false
                }
                if immediate {
                    continuation.resume(returning: true)
                    return
                }
                if Task.isCancelled {
                    expire(id)
                    return
                }
                armTimeout(for: id, at: wake)
            }
        } onCancel: {
            expire(id)
        }
        if state.withLock({ $0.isShutDown }) { return .changed }
        return changed ? .changed : .timedOut
    }

    /// Returns at `deadline` on the store's clock, or when the task is cancelled (a poll answered after a delay).
    public func pause(until deadline: ContinuousClock.Instant) async {
        await clock.sleep(until: deadline)
    }

    /// Stops the ticker and answers every parked long poll at once; later ones are refused (graceful shutdown).
    public func shutdown() {
        let (woken, ticker) = state.withLock { state in
            state.isShutDown = true
            defer { state.ticker = nil }
            return (takeWaiters(&state, all: true), state.ticker)
        }
        ticker?.cancel()
        resume(woken)
        persistence?.flush()
    }

    // MARK: - Waiting

    /// Waits for the next refresh to end (or for `timeout`, or shutdown).
    private func waitForRefresh(timeout: Duration?) async {
        let wake = timeout.map { clock.now + $0 }
        let id = state.withLock { state -> Int in
            state.nextWaiterID += 1
            return state.nextWaiterID
        }
        _ = await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
            let immediate = state.withLock { state -> Bool in
                if state.isShutDown || !state.schedule.inFlight { return true }
                state.waiters[id] = Waiter(continuation: continuation, isLongPoll: false, timeout: nil)
                return false
            }
            if immediate {
                continuation.resume(returning: true)
                return
            }
            guard let wake else { return }
            armTimeout(for: id, at: wake)
        }
    }

    /// Ends waiter `id`'s wait at `wake`, unless something wakes it first. The waiter may already be gone (woken
    /// meanwhile): then the timeout is cancelled at once.
    private func armTimeout(for id: Int, at wake: ContinuousClock.Instant) {
        let timeoutTask = Task { [clock] in
            await clock.sleep(until: wake)
            self.expire(id)
        }
        let stillWaiting = state.withLock { state -> Bool in
            guard state.waiters[id] != nil else { return false }
            state.waiters[id]?.timeout = timeoutTask
            return true
        }
        if !stillWaiting { timeoutTask.cancel() }
    }

    private func expire(_ id: Int) {
        let waiter = state.withLock { state -> Waiter? in
            guard let waiter = state.waiters.removeValue(forKey: id) else { return nil }
            if waiter.isLongPoll { state.metrics.parked -= 1 }
            return waiter
        }
        waiter?.continuation.resume(returning: false)
    }

    /// Removes the waiters to wake: all of them, or only those waiting for a refresh to end.
    private func takeWaiters(_ state: inout State, all: Bool) -> [Waiter] {
        var woken: [Waiter] = []
        for (id, waiter) in state.waiters where all || !waiter.isLongPoll {
            woken.append(waiter)
            state.waiters[id] = nil
            if waiter.isLongPoll { state.metrics.parked -= 1 }
        }
        return woken
    }

    private func resume(_ waiters: [Waiter]) {
        for waiter in waiters {
            waiter.timeout?.cancel()
            waiter.continuation.resume(returning: true)
        }
    }

    // MARK: - Refreshing

    private typealias Refresh = RefreshSchedule.Refresh

    /// Starts a refresh if the schedule says one is due (marking it running); the caller launches it.
    private func startIfDue(_ state: inout State, now: ContinuousClock.Instant) -> Refresh? {
        guard !state.isShutDown else { return nil }
        let refresh = state.schedule.start(now: now)
        if refresh != .none { state.metrics.refreshes += 1 }
        return refresh.asRefresh
    }

    private func launch(_ refresh: Refresh) {
        Task { await self.run(refresh) }
    }

    /// Keeps a ticker running while anyone watches (called with the lock held).
    private func ensureTicker(_ state: inout State) {
        guard state.ticker == nil, !state.isShutDown else { return }
        state.ticker = Task { await self.tick() }
    }

    /// While watched: start each refresh when due, sleep until the next one may start.
    private func tick() async {
        while !Task.isCancelled {
            let (started, wake) = state.withLock { state -> (Refresh?, ContinuousClock.Instant?) in
                let now = clock.now
                guard !state.isShutDown, state.schedule.isWatched(now: now, parked: state.metrics.parked) else {
                    state.ticker = nil
                    return (nil, nil)
                }
                let started = startIfDue(&state, now: now)
                // Never less than a fifth of the interval: while a refresh runs the next start is not allowed yet.
                let pause = max(now.duration(to: state.schedule.nextWake(now: now)), configuration.refreshInterval / 5)
                return (started, now + pause)
            }
            if let started { launch(started) }
            guard let wake else { return }
            await clock.sleep(until: wake)
        }
    }

    /// Fetches, builds a snapshot if anything changed, publishes, wakes waiters.
    private func run(_ refresh: Refresh) async {
        let outcome: Result<Snapshot?, any Error>
        do {
            outcome = .success(try await fetchAndBuild(refresh))
        } catch {
            outcome = .failure(error)
        }
        recordHistory(outcome)
        let (woken, again, toSave) = state.withLock { state -> ([Waiter], Refresh?, Snapshot?) in
            let now = clock.now
            var toSave: Snapshot?
            state.metrics.completed += 1
            let oldVersion = state.snapshot?.version
            switch outcome {
            case .success(let snapshot):
                if let snapshot {
                    state.snapshot = snapshot
                    state.metrics.builds += 1
                }
                // A new version, or the data from disk confirmed (so the file's fetch time moves on too).
                if snapshot != nil || state.restoredFetchedAt != nil { toSave = state.snapshot }
                state.restoredFetchedAt = nil
                state.lastSuccessDate = clock.date
                let complete = state.snapshot.map { Self.referenceIsComplete($0) } ?? true
                state.schedule.succeeded(
                    now: now, referenceFetched: refresh == .everything, referenceComplete: complete)
                state.lastError = nil
            case .failure(let error):
                state.schedule.failed(now: now)
                state.lastError = error
                state.metrics.failures += 1
                if state.schedule.failures == 1 || state.schedule.failures.isMultiple(of: 10) {
                    logger.warning(
                        "snapshot refresh failed",
                        ["error": String(describing: error), "failures": "\(state.schedule.failures)"])
                }
            }
            let stale = isStale(state, now: now)
            let changed = state.snapshot?.version != oldVersion || stale != state.publishedStale
            state.publishedStale = stale
            if changed { state.generation &+= 1 }
            let again = state.schedule.pendingForced ? startForced(&state, now: now) : nil
            return (takeWaiters(&state, all: changed), again, toSave)
        }
        if let toSave { persistence?.save(toSave, fetchedAt: clock.date) }
        resume(woken)
        if let again { launch(again) }
    }

    /// Records the snapshot a refresh built, or confirmed unchanged, before it is published: every page of a version
    /// then draws the same history, and the samples follow the fetches, not the requests.
    private func recordHistory(_ outcome: Result<Snapshot?, any Error>) {
        guard case .success(let built) = outcome,
            let snapshot = built ?? state.withLock({ $0.snapshot })
        else { return }
        history.record(snapshot, at: clock.date)
    }

    private func startForced(_ state: inout State, now: ContinuousClock.Instant) -> Refresh? {
        let refresh = state.schedule.start(now: now, forced: true)
        if refresh != .none { state.metrics.refreshes += 1 }
        return refresh.asRefresh
    }

    /// The new snapshot, or nil when the answers hash to what the current one was built from.
    private func fetchAndBuild(_ refresh: Refresh) async throws -> Snapshot? {
        async let statistics = source.combinedStatistics()
        var fetched: Reference?
        if refresh == .everything {
            async let users = source.users()
            async let habits = source.habits()
            async let categories = source.categories()
            let reference = (users: try await users, habits: try await habits, categories: try await categories)
            guard !reference.users.isStale, !reference.habits.isStale, !reference.categories.isStale else {
                throw HabitsAPIError.transport("the upstream did not answer; only an older answer is cached")
            }
            fetched = Reference(
                users: reference.users.value, habits: reference.habits.value,
                categories: reference.categories.value,
                digest: ContentDigest.reference(
                    users: reference.users.value, habits: reference.habits.value,
                    categories: reference.categories.value
                ).value)
        }
        let answer = try await statistics
        guard !answer.isStale else {
            throw HabitsAPIError.transport("the upstream did not answer; only an older answer is cached")
        }
        let statisticsDigest = ContentDigest.statistics(answer.value).value
        let (current, reference) = state.withLock { state in
            if let fetched { state.reference = fetched }
            return (state.snapshot, state.reference)
        }
        guard let reference else { throw HabitsAPIError.transport("no reference data") }
        if let current, current.referenceVersion == reference.digest, current.statisticsVersion == statisticsDigest {
            return nil
        }
        return Snapshot(
            inputs: SnapshotInputs(
                users: reference.users, habits: reference.habits, categories: reference.categories,
                statistics: answer.value),
            referenceVersion: reference.digest, statisticsVersion: statisticsDigest,
            activeUserID: configuration.activeUserID)
    }

    /// Whether the reference data knows every user and habit the statistics name (the active user need not be in
    /// `/users`).
    private static func referenceIsComplete(_ snapshot: Snapshot) -> Bool {
        let inputs = snapshot.inputs
        for entry in inputs.statistics.userStatistics
        where entry.user.id != snapshot.activeUserID && inputs.users[entry.user.id] == nil {
            return false
        }
        for entry in inputs.statistics.habitStatistics where inputs.habits[entry.habit.name] == nil {
            return false
        }
        return true
    }
}

extension RefreshSchedule.Refresh {
    /// nil for `.none`.
    fileprivate var asRefresh: Self? { self == .none ? nil : self }
}
