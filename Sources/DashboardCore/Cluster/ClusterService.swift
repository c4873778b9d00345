import Logging
import Postgres
import Timing

/// A dashboard's place in a cluster sharing PostgreSQL (issue 19 points 4 and 5), built at start: the history kept
/// in the database, the link the snapshot store reads and stores through, and the refresher.
struct ClusterService: Sendable {
    /// The history every page of the cluster draws.
    let history: ActivityHistory
    private let store: ClusterHistoryStore

    /// The history half, before the snapshot store exists (the store is built with it).
    init() {
        store = ClusterHistoryStore()
        history = ActivityHistory(store: store, shared: true)
    }

    /// Links `snapshots` to `database` (its pool and its one listener) and starts the refresher; returns it, for
    /// shutdown.
    func start(
        database: DashboardDatabase, snapshots: SnapshotStore, upstream: String,
        clock: any TimeSource = SystemTimeSource(), logger: Logger
    ) -> Refresher {
        let link = link(pool: database.pool, snapshots: snapshots, upstream: upstream, logger: logger)
        let refresher = Refresher(
            url: database.pool.url, link: link, store: snapshots, listener: database.listener, clock: clock,
            logger: logger)
        refresher.start()
        return refresher
    }

    /// The link of `snapshots` and this history to the database behind `pool`, connected to both.
    func link(pool: PostgresPool, snapshots: SnapshotStore, upstream: String, logger: Logger) -> ClusterLink {
        let link = ClusterLink(pool: pool, store: snapshots, history: history, upstream: upstream, logger: logger)
        store.connect(link)
        snapshots.attach(link)
        return link
    }
}
