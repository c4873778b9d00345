/// What one response is built from: a snapshot and, when the upstream is failing, the notice to show with it.
public struct SnapshotView: Sendable {
    /// The data.
    public let snapshot: Snapshot
    /// Set while the upstream fails (or the data is older than the stale bound).
    public let stale: StaleNotice?
    /// Changes whenever the snapshot or the notice changes (and when a browser's settings change): long polls wait
    /// for it to move.
    public let generation: UInt64
}
