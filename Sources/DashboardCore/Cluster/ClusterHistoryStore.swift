import Synchronization

/// The history's `HistoryStore` in a cluster sharing PostgreSQL (issue 19 point 5): what `ActivityHistory` stores
/// once per slot goes to `cluster_history` through the `ClusterLink` (only the leader's is written), and nothing is
/// loaded at start: the refresher reads the stored history as it joins, before it may lead.
final class ClusterHistoryStore: HistoryStore {
    /// Set once the link exists (it needs the history, which needs this store).
    private let link = Mutex<ClusterLink?>(nil)

    /// A store with no link yet: until `connect`, records are dropped (nothing leads before it).
    init() {}

    /// Gives the store its link.
    func connect(_ link: ClusterLink) { self.link.withLock { $0 = link } }

    func load() -> HistoryRecord? { nil }

    func save(_ record: HistoryRecord) { link.withLock { $0 }?.storeHistory(record) }

    /// Nothing to do: the leader's record of the current slot went out when the slot began; a shutdown loses at most
    /// the samples of that slot, which the next leader records again.
    func flush() {}
}
