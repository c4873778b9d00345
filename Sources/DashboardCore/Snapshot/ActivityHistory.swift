import Foundation
import Synchronization

/// The dashboard's own history of every habit's and person's total count, and of the rank changes that concern the
/// active user, recorded by the `SnapshotStore` each time a refresh succeeds (not by requests). Home's "Happening
/// now" compares with it, the sparklines and charts draw it (issue 10 points 3 and 4, issue 22 points 1 and 2), and
/// the passed / overtaken moments come from it (issue 22 point 3).
///
/// Times are wall-clock seconds, so a restart continues the same slots; the time the dashboard was down is a gap.
/// The samples are a `TrendHistory` (10 s for an hour, 5 min for a day, 1 h for 30 days; its documentation states
/// the memory bound), the moments a `MomentLog`. With a `HistoryStore` both are loaded at start and queued to be
/// stored once per 10 s slot, off the request path; while a write is in progress the history is held twice at most.
public final class ActivityHistory: Sendable {
    /// A past moment to compare with: its time and the totals known then.
    public struct Point: Sendable {
        public var time: Date
        public var habitTotals: [String: Int]
        public var userTotals: [String: Int]
    }

    fileprivate struct State {
        var record: HistoryRecord
        var lastVersion: UInt64?
        /// The snapshot recorded last in this run: the rank changes compare the next one with it.
        var lastSnapshot: Snapshot?
        /// Shared (issue 19): what pages read, the record as stored once per slot (by this dashboard while it
        /// records, or adopted from the database), so every dashboard draws the same line; nil reads `record`.
        var shown: HistoryRecord?
        /// Times the record read was replaced within its slot (`trendKey`).
        var replaced = 0
    }

    private let state: Mutex<State>
    private let store: (any HistoryStore)?
    /// Time between samples of the finest tier.
    let spacing: Duration
    /// Samples kept per series in the finest tier.
    let capacity: Int

    /// Creates an empty history whose finest tier has `spacing` and `capacity` (the coarser tiers are the standard
    /// ones), kept nowhere.
    public convenience init(spacing: Duration = .seconds(10), capacity: Int = 361) {
        var tiers = TrendHistory.standardTiers
        tiers[0] = (Int(max(.seconds(1), spacing).components.seconds), max(2, capacity))
        self.init(history: TrendHistory(tiers: tiers), store: nil)
    }

    /// A history kept in `store`, starting from what it holds (empty when it holds nothing usable); `shared` as
    /// the property says.
    convenience init(store: any HistoryStore, shared: Bool = false) {
        let loaded = store.load()
        self.init(
            history: loaded?.history ?? TrendHistory(), moments: loaded?.moments ?? MomentLog(), store: store,
            shared: shared)
    }

    private init(
        history: TrendHistory, moments: MomentLog = MomentLog(), store: (any HistoryStore)?, shared: Bool = false
    ) {
        let fine = history.fine
        spacing = .seconds(fine.spacing)
        capacity = fine.capacity
        self.store = store
        self.shared = shared
        state = Mutex(State(record: HistoryRecord(history: history, moments: moments)))
    }

    /// Whole seconds since 1970 of `date`, rounded down.
    public static func second(_ date: Date) -> Int {
        let value = date.timeIntervalSince1970.rounded(.down)
        return value.isFinite ? Int(max(min(value, 1e15), -1e15)) : 0
    }

    /// Whether pages read the record as stored once per slot (a cluster sharing a database, issue 19) rather than
    /// the one recorded at every refresh.
    let shared: Bool

    /// The finest tier's latest slot; nil before the first sample. Pages that draw trends key their rendering on it.
    public var latestSlot: Int? { state.withLock { $0.read.history.fine.latestSlot } }

    /// What pages that draw trends key their rendering on: the latest slot, and the times the record read was replaced
    /// within it (adopted from the cluster, or stored at a takeover). The slot alone kept a dashboard back from a cut
    /// serving its own line from the render cache after adopting the stored one of the same slot, until the next
    /// slot (issue 49's fault test). Nil before the first sample.
    public var trendKey: Int? {
        state.withLock { state in state.read.history.fine.latestSlot.map { $0 | state.replaced << 40 } }
    }

    /// The time live pages word their times against ("4 min ago"): shared, the start of the latest stored slot, so
    /// the same key renders the same bytes on every dashboard; else `now`.
    public func pageDate(now: Date) -> Date {
        guard shared, let slot = latestSlot else { return now }
        return Date(timeIntervalSince1970: TimeInterval(slot * Int(spacing.components.seconds)))
    }

    /// Takes `record` (stored by the cluster's refresher) as this dashboard's history: pages draw it, and recording
    /// continues from it should this dashboard become the refresher.
    func adopt(_ record: HistoryRecord) {
        state.withLock { state in
            state.record = record
            state.shown = record
            state.replaced += 1
            state.lastVersion = nil
            state.lastSnapshot = nil
        }
    }

    /// Records `snapshot`'s totals at `date`, and the rank changes since the snapshot recorded before it. Called on
    /// every successful refresh, so consecutive slots are known while the dashboard is watched; an unchanged version
    /// in the same slot costs one comparison.
    public func record(_ snapshot: Snapshot, at date: Date) {
        let second = Self.second(date)
        let toStore = state.withLock { state -> HistoryRecord? in
            let history = state.record.history
            let slot = TrendHistory.slot(second, spacing: history.fine.spacing)
            let latest = history.fine.latestSlot
            if state.lastVersion == snapshot.version, let latest, slot <= latest { return nil }
            if let previous = state.lastSnapshot, previous.version != snapshot.version {
                let log = state.record.moments
                state.record.moments.append(
                    RankChanges.between(previous, snapshot, second: second, ledBefore: { log.hasLed($1, in: $0) }),
                    now: second)
            }
            // The record's newest samples are `lastSnapshot`'s totals (it was recorded last, into this record), so
            // within a slot only what changed since is written.
            let change = state.lastSnapshot.flatMap { TotalsChange(from: $0, to: snapshot) }
            state.lastVersion = snapshot.version
            state.lastSnapshot = snapshot
            state.record.history.record(
                habitTotals: snapshot.habitTotals, userTotals: snapshot.userTotals, second: second, change: change)
            // Stored once per slot: a coalesced write holds the record, and every change after it copies the rings.
            guard latest.map({ slot > $0 }) ?? true else { return nil }
            if shared { state.shown = state.record }
            return state.record
        }
        if let toStore { store?.save(toStore) }
    }

    /// Stores the latest record now (graceful shutdown; a dashboard taking the cluster's lead), and, shared, shows it:
    /// pages draw what was stored.
    func flush() {
        guard let store else { return }
        store.save(
            state.withLock { state in
                if shared {
                    state.shown = state.record
                    state.replaced += 1
                }
                return state.record
            })
        store.flush()
    }

    /// The oldest recorded moment no more than `window` before `time` (and before the latest): what "now" is
    /// compared with; nil when none.
    public func baseline(before time: Date, window: TimeInterval = 300) -> Point? {
        state.withLock { state in
            let fine = state.read.history.fine
            let earliest = Self.second(time - window)
            let first = TrendHistory.slot(earliest, spacing: fine.spacing)
            let slot = earliest % fine.spacing == 0 ? first : first + 1
            guard let found = fine.baseline(notBefore: slot) else { return nil }
            return Point(
                time: Date(timeIntervalSince1970: TimeInterval(found.slot * fine.spacing)),
                habitTotals: found.habitTotals, userTotals: found.userTotals)
        }
    }

    /// A habit's trend over `range`; nil when it has none yet.
    public func habitTrend(_ name: String, range: HistoryRange = .hour) -> Trend? {
        trend(name, person: false, range: range)
    }

    /// A person's trend over `range`; nil when they have none yet.
    public func personTrend(_ id: String, range: HistoryRange = .hour) -> Trend? {
        trend(id, person: true, range: range)
    }

    /// A series' total at `second` or the first one known after it: where a count stood at a browser's last visit.
    public func value(_ key: String, person: Bool, atOrAfter second: Int) -> Int? {
        state.withLock { $0.read.history.value(key, person: person, atOrAfter: second)?.value }
    }

    /// The recent rank changes.
    public var moments: MomentLog { state.withLock { $0.read.moments } }

    private func trend(_ key: String, person: Bool, range: HistoryRange) -> Trend? {
        state.withLock { $0.read.history.trend(key, person: person, range: range) }
    }
}

extension ActivityHistory.State {
    /// What pages read: the stored record when shared, else the one recorded now.
    var read: HistoryRecord { shown ?? record }
}
