import Postgres

extension Migration {
    /// Migration 3 (issue 49 point 3): the refresher's fencing token. `cluster_leader` holds the epoch, raised by one
    /// in the statement that takes the refresher lock (`ClusterSchema.tryLock`), so every leadership has a larger one
    /// than the last; the snapshot and history rows keep the epoch of the leader that wrote them, and a write from an
    /// older epoch is refused (`ClusterSchema.store`). Rows from before keep epoch 0, below any leader's.
    static let fencing = Migration(
        3, "refresher fencing epoch",
        [
            "CREATE TABLE cluster_leader (id smallint PRIMARY KEY CHECK (id = 1), epoch bigint NOT NULL)",
            "INSERT INTO cluster_leader (id, epoch) VALUES (1, 0)",
            "ALTER TABLE cluster_snapshot ADD COLUMN epoch bigint NOT NULL DEFAULT 0",
            "ALTER TABLE cluster_history ADD COLUMN epoch bigint NOT NULL DEFAULT 0",
        ])
}
