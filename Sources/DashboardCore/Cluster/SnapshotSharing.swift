/// What the snapshot store asks of the cluster it shares a database with (issue 19 point 4); `ClusterLink` is the
/// conformer, tests give fakes. A store without one (no `--database`) fetches the upstream itself, as always.
protocol SnapshotSharing: Sendable {
    /// A follower's refresh: tells the leader that this dashboard wants fresh data (`watched`: a live page is watched
    /// here, so the leader keeps refreshing every interval), then reads the stored snapshot's version and status, and
    /// the snapshot itself only when its version is not `shown`. Nil: nothing is stored yet (the store then fetches
    /// the upstream itself, so a cluster starting up shows data before its leader's first refresh is stored).
    func follow(shown: UInt64?, watched: Bool) async throws -> (snapshot: Snapshot?, status: SharedSnapshot.Status)?
    /// The leader's: stores `snapshot` with `status` for every dashboard and notifies them. Queued: returns at once.
    func share(_ snapshot: Snapshot, status: SharedSnapshot.Status)
    /// A change was made through this dashboard (a habit logged): asks the leader to refresh now.
    func askForRefresh()
}
