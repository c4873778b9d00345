import Foundation
import HTTPServer
import HabitsAPI

/// Everything the snapshot store decides, as a pure value (the shape of `ConnectionState`): one mutating method per
/// event (a view asked for, a refresh finished or failed, a poll parked or timed out, settings changed, a tick,
/// shutdown), each returning the `Action`s for `SnapshotStore` to carry out. No I/O, no clock, no locks: every event
/// carries its instants, so tests drive it with plain values.
///
/// It holds the current snapshot and reference data, the refresh `Schedule` (intervals, back-off, watching), the
/// generation that long polls wait on, the stale notice, the ids of everyone waiting and the counters.
struct SnapshotState {
    let policy: Policy
    var schedule: Schedule
    var snapshot: Snapshot?
    var reference: Reference?
    private(set) var lastError: (any Error)?
    /// Moves whenever the snapshot, the stale notice or a browser's settings change.
    var generation: UInt64 = 0
    var publishedStale = false
    /// When the data of a snapshot loaded from disk was fetched (wall clock, from the file); nil once a refresh has
    /// succeeded.
    var restoredFetchedAt: Date?
    /// When the last refresh succeeded on the wall clock: only what the "data as of" notice shows (its age is the
    /// schedule's, on the monotonic clock).
    var lastSuccessDate: Date?
    /// Everyone waiting, by id.
    private(set) var waiting: [UInt64: WaitKind] = [:]
    private var lastWaiterID: UInt64 = 0
    private var refreshesStarted = 0
    private var tickScheduled = false
    private(set) var isShutDown = false
    var metrics = SnapshotStore.Metrics()
    /// The part this dashboard plays in a cluster sharing a database (issue 19); `.standalone` without one.
    var role: RefresherRole.Role = .standalone
    /// What the cluster shows with the data (the stored status), while leading or following; nil standalone.
    var shared: SharedSnapshot.Status?
    /// A leader stores the status on its next refresh even when nothing changed (it has just taken over).
    var mustShare = false
    /// The version this dashboard stored last as the leader.
    var sharedVersion: UInt64?

    /// A state with no data, or with `restored` (a snapshot from disk and when its data was fetched), shown with the
    /// "data as of" notice until a refresh succeeds.
    init(policy: Policy = Policy(), restored: (snapshot: Snapshot, fetchedAt: Date)? = nil) {
        self.policy = policy
        schedule = Schedule(policy: policy.schedule)
        if let restored {
            snapshot = restored.snapshot
            restoredFetchedAt = restored.fetchedAt
            publishedStale = true
        }
    }

    // MARK: - Events

    /// A page or fragment asks for the view (`live`: a live one, which keeps the ticker running). `atOnce`: the request
    /// is on an event loop and must not wait (`.later` instead of a waiter or a failure, and it will ask again).
    mutating func viewRequested(live: Bool, now: ContinuousClock.Instant, date: Date, atOnce: Bool = false)
        -> (ViewAnswer, [Action])
    {
        // No data yet, or only the data from disk: the awaited path decides all of it (starting the first refresh
        // from the task that will wait for it), exactly as before there was an answer at once.
        if atOnce && (snapshot == nil || restoredFetchedAt != nil) { return (.later, []) }
        var actions: [Action] = []
        if live { schedule.watched(now: now) }
        startIfDue(now: now, into: &actions)
        if live { scheduleTickIfNeeded(now: now, into: &actions) }
        guard snapshot != nil else {
            if isShutDown { return (.fail(HTTPError(.serviceUnavailable, "The dashboard is stopping.")), actions) }
            guard schedule.inFlight else {
                return (.fail(lastError ?? HabitsAPIError.transport("no data")), actions)
            }
            return (.wait(id: addWaiter(.refresh), deadline: now + policy.upstreamWait), actions)
        }
        // Old data with a healthy refresh under way, or data from disk and a first refresh under way: a healthy
        // upstream replaces it within the page's wait.
        if schedule.isWorthWaiting
            || (restoredFetchedAt != nil && schedule.inFlight && schedule.failures == 0)
        {
            if atOnce { return (.later, actions) }
            return (.wait(id: addWaiter(.refresh), deadline: now + policy.pageWait), actions)
        }
        return (
            current(now: now, date: date).map(ViewAnswer.ready)
                ?? (atOnce ? .later : .fail(HabitsAPIError.transport("no data"))),
            actions
        )
    }

    /// A view request's wait ended (woken or timed out): the view, or the error to answer with.
    func waitEnded(timedOut: Bool = false, now: ContinuousClock.Instant, date: Date) -> Result<SnapshotView, any Error>
    {
        if let view = current(now: now, date: date) { return .success(view) }
        if isShutDown { return .failure(HTTPError(.serviceUnavailable, "The dashboard is stopping.")) }
        // The wait's bound passed with the first refresh still out: a quick 503 rather than more waiting.
        if timedOut && schedule.inFlight { return .failure(UpstreamSlow()) }
        return .failure(lastError ?? HabitsAPIError.transport("no data"))
    }

    /// The view now, or nil with no data.
    func current(now: ContinuousClock.Instant, date: Date) -> SnapshotView? {
        guard let snapshot else { return nil }
        let fetchedAt = (role == .standalone ? nil : shared?.fetchedAt) ?? restoredFetchedAt ?? lastSuccessDate ?? date
        let notice = isStale(now: now) ? StaleNotice(dataFetchedAt: fetchedAt, now: date) : nil
        return SnapshotView(snapshot: snapshot, stale: notice, generation: generation)
    }

    /// A change was made upstream from here (a habit logged): refresh now, or right after the one running, and wait
    /// as the returned waiter for that refresh to end. Nil: nothing to wait for (shutting down).
    mutating func changeMade(now: ContinuousClock.Instant) -> (UInt64?, [Action]) {
        guard !isShutDown else { return (nil, []) }
        var actions: [Action] = []
        startIfDue(now: now, forced: true, into: &actions)
        // Started now: that one; one running already: the next, which starts as it ends.
        let awaited = refreshesStarted + (actions.isEmpty ? 1 : 0)
        let id = addWaiter(.change(sequence: awaited))
        return (id, actions)
    }

    /// A long poll that saw `generation` asks to wait until `deadline` for it to move.
    mutating func parkRequested(
        after generation: UInt64, now: ContinuousClock.Instant, deadline: ContinuousClock.Instant
    ) -> (ParkAnswer, [Action]) {
        // How many may park is `ParkingQuota`'s decision, taken before a poll gets here.
        guard !isShutDown else { return (.refused, []) }
        guard generation == self.generation else { return (.changed, []) }
        metrics.parked += 1
        var actions: [Action] = []
        scheduleTickIfNeeded(now: now, into: &actions)
        return (.wait(id: addWaiter(.poll), deadline: deadline), actions)
    }

    /// Waiter `id`'s deadline came. Nothing when it was woken before.
    mutating func waitTimedOut(_ id: UInt64) -> [Action] {
        guard let kind = waiting.removeValue(forKey: id) else { return [] }
        if kind == .poll { metrics.parked -= 1 }
        return [.resume([id], changed: false)]
    }

    /// A browser's settings changed: every long poll checks whether its own page changed.
    mutating func settingsChanged() -> [Action] {
        generation &+= 1
        return wake { $0 == .poll }
    }

    /// The ticker's instant came: start a refresh when due and schedule the next tick, or stop while nobody watches.
    mutating func tick(now: ContinuousClock.Instant) -> [Action] {
        tickScheduled = false
        guard !isShutDown, schedule.isWatched(now: now, parked: metrics.parked) else { return [] }
        var actions: [Action] = []
        startIfDue(now: now, into: &actions)
        // Never less than a fifth of the interval: while a refresh runs the next start is not allowed yet.
        let pause = max(now.duration(to: schedule.nextWake(now: now)), policy.schedule.interval / 5)
        tickScheduled = true
        actions.append(.tick(at: now + pause))
        return actions
    }

    /// The refresh `job` ended with `outcome`: publish what it brought, wake whom it concerns, save a new snapshot,
    /// start the refresh a change asked for meanwhile.
    mutating func refreshFinished(
        _ job: Job, _ outcome: Outcome, now: ContinuousClock.Instant, date: Date
    ) -> [Action] {
        var actions: [Action] = []
        metrics.completed += 1
        let oldVersion = snapshot?.version
        switch outcome {
        case .fetched(let built, let fetchedReference):
            if let fetchedReference { reference = fetchedReference }
            if let built {
                snapshot = built
                metrics.builds += 1
            }
            // A new version, or the data from disk confirmed (so the file's fetch time moves on too).
            if let snapshot, built != nil || restoredFetchedAt != nil {
                actions.append(.save(snapshot, fetchedAt: date))
            }
            restoredFetchedAt = nil
            lastSuccessDate = date
            let complete = snapshot.map(Self.referenceIsComplete) ?? true
            schedule.succeeded(now: now, referenceFetched: job.fetchesReference, referenceComplete: complete)
            lastError = nil
        case .followed(let built, let status):
            actions += takeStored(built, status: status)
            lastSuccessDate = date
            schedule.succeeded(now: now, referenceFetched: false, referenceComplete: true)
            lastError = nil
        case .failed(let error):
            schedule.failed(now: now)
            lastError = error
            metrics.failures += 1
            if schedule.failures == 1 || schedule.failures.isMultiple(of: 10) {
                actions.append(.logFailure(error, failures: schedule.failures))
            }
        }
        if role == .leader { shareIfChanged(date: date, now: now, into: &actions) }
        let stale = isStale(now: now)
        let changed = snapshot?.version != oldVersion || stale != publishedStale
        publishedStale = stale
        if changed { generation &+= 1 }
        actions += wake { kind in
            switch kind {
            case .refresh: true
            case .change(let sequence): sequence <= job.sequence
            case .poll: changed
            }
        }
        if schedule.pendingForced { startIfDue(now: now, forced: true, into: &actions) }
        return actions
    }

    /// Shutting down: every waiter is answered at once, later polls are refused, nothing more starts.
    mutating func shutdown() -> [Action] {
        isShutDown = true
        return wake { _ in true }
    }

    // MARK: - Helpers

    mutating func addWaiter(_ kind: WaitKind) -> UInt64 {
        lastWaiterID += 1
        waiting[lastWaiterID] = kind
        return lastWaiterID
    }

    /// Removes the waiters `matches` picks; the action resumes them as "changed".
    mutating func wake(_ matches: (WaitKind) -> Bool) -> [Action] {
        let woken = waiting.filter { matches($0.value) }
        guard !woken.isEmpty else { return [] }
        for (id, kind) in woken {
            waiting[id] = nil
            if kind == .poll { metrics.parked -= 1 }
        }
        return [.resume(woken.keys.sorted(), changed: true)]
    }

    mutating func startIfDue(now: ContinuousClock.Instant, forced: Bool = false, into actions: inout [Action]) {
        guard !isShutDown else { return }
        let refresh = schedule.start(now: now, forced: forced)
        guard refresh != .none else { return }
        metrics.refreshes += 1
        refreshesStarted += 1
        actions.append(
            .refresh(
                Job(
                    fetchesReference: refresh == .everything, reference: reference, current: snapshot,
                    sequence: refreshesStarted, forced: forced,
                    watched: schedule.isWatched(now: now, parked: metrics.parked))))
    }

    /// Keeps one tick scheduled while anyone watches: the first comes at once, each then schedules the next.
    mutating func scheduleTickIfNeeded(now: ContinuousClock.Instant, into actions: inout [Action]) {
        guard !tickScheduled, !isShutDown else { return }
        tickScheduled = true
        actions.append(.tick(at: now))
    }
}
