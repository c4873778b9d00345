/// What the dashboard keeps of its history across restarts (issue 22 point 1): the trend tiers and the recent rank
/// changes.
struct HistoryRecord: Equatable, Sendable {
    /// The totals at three resolutions.
    var history: TrendHistory
    /// The recent passed / overtaken / new-leader moments.
    var moments: MomentLog
}

/// Where the history lives between runs: the one seam between `ActivityHistory` and storage. `HistoryFile` keeps it
/// in `--cache-dir` beside the snapshot; a database implementation (issue 19) only has to be another conformer.
protocol HistoryStore: Sendable {
    /// The stored history, if there is a usable one (called once, at start). Never throws: what it cannot use it
    /// reports and sets aside.
    func load() -> HistoryRecord?
    /// Queues `record` to be stored; returns at once (writes happen off the request path, at a bounded rate).
    func save(_ record: HistoryRecord)
    /// Stores what is queued now, on the caller's thread (graceful shutdown).
    func flush()
}
