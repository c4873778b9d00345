import Foundation

/// The events of a cluster sharing one database (issue 19 point 4). The leader refreshes as a lone dashboard does and
/// also stores each new snapshot, or a change of its status, for the others (`.share`); a follower's refreshes read
/// that stored snapshot instead of the upstream (`Outcome.followed`), and notifications publish it between them.
extension SnapshotState {
    /// Whether what is shown is stale: loaded from disk and not yet confirmed, or the schedule says so; a follower
    /// also when the stored status says so (the leader's judgement, the same on every dashboard).
    func isStale(now: ContinuousClock.Instant) -> Bool {
        if role == .follower, shared?.stale == true { return true }
        return restoredFetchedAt != nil || schedule.isStale(now: now)
    }

    /// This dashboard's part changed (`RefresherRole`). Standalone drops the stored status: what it shows is its own
    /// again. A new leader stores its status on its next refresh, even when nothing changed.
    mutating func roleChanged(to role: RefresherRole.Role, now: ContinuousClock.Instant) -> [Action] {
        guard role != self.role else { return [] }
        self.role = role
        if role == .standalone { shared = nil }
        mustShare = role == .leader
        schedule.retryNow()
        var actions: [Action] = []
        // A new leader that is watched here, or was told of watchers, keeps refreshing without waiting for a page.
        if role == .leader, schedule.isWatched(now: now, parked: metrics.parked) {
            scheduleTickIfNeeded(now: now, into: &actions)
        }
        return actions
    }

    /// A follower was told of (and read) a stored snapshot: show it with its status, waking the polls when what they
    /// show changed. `snapshot` is nil when its version is the one shown (only the status may have moved).
    mutating func snapshotPublished(
        _ published: Snapshot?, status: SharedSnapshot.Status, now: ContinuousClock.Instant
    ) -> [Action] {
        guard role == .follower, !isShutDown else { return [] }
        let oldVersion = snapshot?.version
        let oldStatus = shared
        let actions = takeStored(published, status: status)
        let stale = isStale(now: now)
        // The notice's time is in the page, so a stale status whose time moved changes the page too.
        let changed = snapshot?.version != oldVersion || stale != publishedStale || (stale && oldStatus != status)
        publishedStale = stale
        guard changed else { return actions }
        generation &+= 1
        return actions + wake { $0 == .poll }
    }

    /// Shows what the leader stored (`built` nil: the version shown) with its status, and saves a new version to
    /// disk for a restart without the database.
    mutating func takeStored(_ built: Snapshot?, status: SharedSnapshot.Status) -> [Action] {
        shared = status
        restoredFetchedAt = nil
        guard let built, built.version != snapshot?.version else { return [] }
        snapshot = built
        reference = Self.reference(of: built)
        metrics.builds += 1
        return [.save(built, fetchedAt: status.fetchedAt)]
    }

    /// The leader heard from a follower: a live page is watched there (`watching`: refresh every interval for the
    /// watch window, as for a page watched here), or a page there wants data newer than it has (refresh when due).
    mutating func demandReceived(watching: Bool, now: ContinuousClock.Instant) -> [Action] {
        guard role == .leader, !isShutDown else { return [] }
        var actions: [Action] = []
        if watching { schedule.watched(now: now) }
        startIfDue(now: now, into: &actions)
        if watching { scheduleTickIfNeeded(now: now, into: &actions) }
        return actions
    }

    /// The leader's refresh ended: store the snapshot when its version or status moved (or it has just taken over),
    /// and show the stored status itself, so its pages and its followers' are the same bytes.
    mutating func shareIfChanged(date: Date, now: ContinuousClock.Instant, into actions: inout [Action]) {
        guard let snapshot else { return }
        let status = SharedSnapshot.Status(
            stale: restoredFetchedAt != nil || schedule.isStale(now: now),
            fetchedAt: restoredFetchedAt ?? lastSuccessDate ?? date)
        let versionMoved = sharedVersion != snapshot.version
        // Unchanged and fresh, only the time would move: a row written 4 times a second for nothing would cost
        // every follower a read. A stale flag that flips is a change: the notice appears or goes everywhere.
        let staleFlipped = shared.map { $0.stale != status.stale } ?? true
        guard mustShare || versionMoved || staleFlipped else { return }
        mustShare = false
        shared = status
        sharedVersion = snapshot.version
        actions.append(.share(snapshot, status))
    }
}
