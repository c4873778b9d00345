import Postgres

extension Migration {
    /// Migration 2 (issue 19 points 4 and 5): the snapshot the cluster's refresher stored and its history, one row
    /// each (`ClusterSchema` has the statements on them).
    static let cluster = Migration(
        2, "cluster snapshot and history",
        [
            """
            CREATE TABLE cluster_snapshot (
                id smallint PRIMARY KEY CHECK (id = 1), version bigint NOT NULL, stale boolean NOT NULL,
                fetched_at_ms bigint NOT NULL, document text NOT NULL, stored_at timestamptz NOT NULL DEFAULT now())
            """,
            """
            CREATE TABLE cluster_history (
                id smallint PRIMARY KEY CHECK (id = 1), slot bigint NOT NULL, document text NOT NULL,
                stored_at timestamptz NOT NULL DEFAULT now())
            """,
        ])
}
