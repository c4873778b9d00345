import Foundation

/// The store's side of a cluster sharing one database (issue 19 point 4): `Refresher` tells it the part it plays and
/// hands it what the leader stored; `SnapshotState` decides what each means.
extension SnapshotStore {
    /// Connects the store to its cluster (once, at start, before the first role change).
    func attach(_ sharing: any SnapshotSharing) {
        locked.withLock { $0.sharing = sharing }
    }

    /// The part this dashboard plays now.
    var role: RefresherRole.Role { locked.withLock { $0.state.role } }

    /// The part played, for `/metrics`; nil without a database.
    var clusterRole: RefresherRole.Role? { locked.withLock { $0.sharing == nil ? nil : $0.state.role } }

    /// `/healthz`'s line about the cluster; nil without a database.
    var clusterHealth: String? {
        switch clusterRole {
        case nil: nil
        case .leader: "cluster: leader (refreshes the upstream for every dashboard)\n"
        case .follower: "cluster: follower (shows what the leader stored)\n"
        case .standalone: "cluster: standalone (the database is unreachable: fetching the upstream itself)\n"
        }
    }

    /// The version shown now, nil with no data.
    var shownVersion: UInt64? { locked.withLock { $0.state.snapshot?.version } }

    /// This dashboard's part changed.
    func roleChanged(to role: RefresherRole.Role) {
        decide { ((), $0.roleChanged(to: role, now: clock.now)) }
    }

    /// A follower read the stored snapshot (nil: the version shown) with its status: publish it.
    func published(_ snapshot: Snapshot?, status: SharedSnapshot.Status) {
        decide { ((), $0.snapshotPublished(snapshot, status: status, now: clock.now)) }
    }

    /// The leader heard a follower's demand (`watching`: a live page is watched there).
    func demandReceived(watching: Bool) {
        decide { ((), $0.demandReceived(watching: watching, now: clock.now)) }
    }
}
