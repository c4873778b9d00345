import Synchronization

/// The dashboard's own history of every habit's and person's total count, recorded by the `SnapshotStore` each time
/// a refresh succeeds (not by requests), on the store's clock. Home's "Happening now" compares with it and the
/// sparklines draw it (issue 10 points 3 and 4).
///
/// One sample per `spacing` (10 s) for `capacity` slots (361: the last hour), held in a `TrendHistory`, whose
/// documentation states the memory bound: (habits + people) × ~1.55 KB, about 95 KB for the built-in data.
public final class ActivityHistory: Sendable {
    /// A past moment to compare with: its time and the totals known then.
    struct Point: Sendable {
        var time: ContinuousClock.Instant
        var habitTotals: [String: Int]
        var userTotals: [String: Int]
    }

    private struct State {
        var history: TrendHistory
        var lastVersion: UInt64?
        /// Where slot 0 starts: the first recorded moment. Slots are counted on the monotonic clock, which has no
        /// epoch of its own, and anchoring them on the first sample makes their boundaries the same in every run.
        var origin: ContinuousClock.Instant?
    }

    private let state: Mutex<State>
    /// Time between samples.
    let spacing: Duration
    /// Samples kept per series.
    let capacity: Int

    /// Creates an empty history.
    public init(spacing: Duration = .seconds(10), capacity: Int = 361) {
        self.spacing = max(.seconds(1), spacing)
        self.capacity = max(2, capacity)
        state = Mutex(State(history: TrendHistory(capacity: capacity)))
    }

    /// The slot `time` falls in, counted from `origin` (`.up` gives the first slot starting at or after it).
    private func slot(
        _ time: ContinuousClock.Instant, origin: ContinuousClock.Instant, rounding: FloatingPointRoundingRule = .down
    ) -> Int {
        let slot = (origin.duration(to: time) / spacing).rounded(rounding)
        return slot.isFinite ? Int(max(min(slot, 1e15), -1e15)) : 0
    }

    /// The slot of the latest sample; nil before the first. Pages that draw trends key their rendering on it too.
    var latestSlot: Int? { state.withLock { $0.history.latestSlot } }

    /// Records `snapshot`'s totals at `time`. Called on every successful refresh, so consecutive slots are known
    /// while the dashboard is watched; an unchanged version in the same slot costs one comparison.
    public func record(_ snapshot: Snapshot, at time: ContinuousClock.Instant) {
        state.withLock { state in
            let origin = state.origin ?? time
            state.origin = origin
            let slot = slot(time, origin: origin)
            if state.lastVersion == snapshot.version, let latest = state.history.latestSlot, slot <= latest { return }
            state.lastVersion = snapshot.version
            state.history.record(habitTotals: snapshot.habitTotals, userTotals: snapshot.userTotals, slot: slot)
        }
    }

    /// The oldest recorded moment no more than `window` before `time` (and before the latest): what "now" is
    /// compared with; nil when none.
    func baseline(before time: ContinuousClock.Instant, window: Duration = .seconds(300)) -> Point? {
        state.withLock { state in
            guard let origin = state.origin else { return nil }
            let earliest = slot(time - window, origin: origin, rounding: .up)
            guard let found = state.history.baseline(notBefore: earliest) else { return nil }
            return Point(
                time: origin + spacing * found.slot, habitTotals: found.habitTotals, userTotals: found.userTotals)
        }
    }

    /// A habit's trend; nil when it has none yet.
    func habitTrend(_ name: String) -> Trend? {
        state.withLock { $0.history.habit(name) }.map { trend($0) }
    }

    /// A person's trend; nil when they have none yet.
    func personTrend(_ id: String) -> Trend? {
        state.withLock { $0.history.person(id) }.map { trend($0) }
    }

    private func trend(_ samples: [Int?]) -> Trend {
        Trend(samples: samples, capacity: capacity, spacing: Int(spacing.components.seconds))
    }
}
