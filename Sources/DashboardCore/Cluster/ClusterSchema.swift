import Foundation
import Postgres

/// The statements on what the cluster keeps in PostgreSQL beside the settings (issue 19 points 4 and 5; the tables
/// are migration 2, `Migration.cluster`). Every value is a parameter (`$n`); nothing is spliced into SQL text.
///
/// - `cluster_snapshot`: one row, the snapshot the leader stored (`SharedSnapshot`): its version, the status every
///   dashboard shows with it, and `snapshot.json`'s document.
/// - `cluster_history`: one row, the history as `history.bin`'s bytes (base64: the columns are text) and its latest
///   10 s slot, written by the leader once per slot. Its size is the file's bound (three tiers of fixed capacity:
///   an hour of 10 s samples, a day of 5 min, 30 days of hours), so retention needs no sweep.
/// - `cluster_leader` (migration 3, `Migration.fencing`): one row, the fencing epoch, raised by each new leader as it
///   takes the lock; both rows above keep the epoch of their writer, and a write of an older epoch is refused.
enum ClusterSchema {
    /// Notified with the version (hex) when the leader stored a snapshot.
    static let snapshotChannel = "habits_snapshot"
    /// Notified with the slot when the leader stored the history.
    static let historyChannel = "habits_history"
    /// A follower's demand: `watch` (a live page is watched there) or `refresh` (it wants newer data).
    static let demandChannel = "habits_demand"

    /// The session advisory lock whose holder is the refresher ("refresh" in ASCII; the migrations' is another).
    static let refresherLock: Int64 = 0x7265_6672_6573_68

    /// Stores `row`, written by the leader of `epoch`, and notifies, in one statement (the notification goes out with
    /// the commit). Fenced (issue 49 point 3): nothing is written unless `epoch` is the current leader's and no later
    /// one's row is stored, so a deposed leader heard late cannot replace a newer leader's snapshot. One row back:
    /// `leader`, the current epoch (not `epoch`: this writer was deposed), and `stored`, 1 or 0.
    static func store(_ row: SharedSnapshot, epoch: Int64) -> Statement {
        Statement(
            """
            WITH leader AS (SELECT epoch FROM cluster_leader WHERE id = 1),
            stored AS (
                INSERT INTO cluster_snapshot (id, version, stale, fetched_at_ms, document, epoch)
                SELECT 1, $1, $2, $3, $4, $6::bigint FROM leader WHERE leader.epoch = $6::bigint
                ON CONFLICT (id) DO UPDATE SET version = EXCLUDED.version, stale = EXCLUDED.stale,
                    fetched_at_ms = EXCLUDED.fetched_at_ms, document = EXCLUDED.document, epoch = EXCLUDED.epoch,
                    stored_at = now()
                    WHERE cluster_snapshot.epoch <= EXCLUDED.epoch
                RETURNING 1),
            notified AS (SELECT pg_notify('\(snapshotChannel)', $5) FROM stored)
            \(fencedAnswer)
            """,
            [
                String(SharedSnapshot.column(row.version)), row.status.stale ? "true" : "false",
                String(SharedSnapshot.Status.millisecondsSince1970(row.status.fetchedAt)),
                String(decoding: row.document, as: UTF8.self), SnapshotFile.hex(row.version), String(epoch),
            ], idempotent: true)
    }

    /// Stores the history (`history.bin`'s bytes) of `slot`, written by the leader of `epoch`, and notifies; fenced
    /// as the snapshot is, and also kept when a later slot is stored already (a leader whose clock is behind cannot
    /// take it back). The same answer as the snapshot's: `stored` 0 with `leader` the writer's is that later slot.
    static func store(history bytes: [UInt8], slot: Int, epoch: Int64) -> Statement {
        Statement(
            """
            WITH leader AS (SELECT epoch FROM cluster_leader WHERE id = 1),
            stored AS (
                INSERT INTO cluster_history (id, slot, document, epoch)
                SELECT 1, $1, $2, $4::bigint FROM leader WHERE leader.epoch = $4::bigint
                ON CONFLICT (id) DO UPDATE SET slot = EXCLUDED.slot, document = EXCLUDED.document,
                    epoch = EXCLUDED.epoch, stored_at = now()
                    WHERE cluster_history.slot <= EXCLUDED.slot AND cluster_history.epoch <= EXCLUDED.epoch
                RETURNING 1),
            notified AS (SELECT pg_notify('\(historyChannel)', $3) FROM stored)
            \(fencedAnswer)
            """, [String(slot), Data(bytes).base64EncodedString(), String(slot), String(epoch)], idempotent: true)
    }

    /// A fenced write's one row: the current epoch and whether the row was written (the notification's CTE is
    /// volatile, so PostgreSQL runs it whole, once, even though only its count is read).
    private static let fencedAnswer =
        "SELECT (SELECT epoch FROM leader) AS leader, (SELECT count(*) FROM notified) AS stored"

    /// Reads the stored snapshot and history, each document only when it is not the one held (`shown` version,
    /// `slot` of the history held), after sending the leader `demand` (`watch`, `refresh`; nil for none): one round
    /// trip, a follower's refresh.
    static func read(shown: UInt64?, slot: Int?, demand: String?) -> Statement {
        Statement(
            """
            SELECT (SELECT pg_notify('\(demandChannel)', $3::text) WHERE $3::text IS NOT NULL) AS demand,
                s.version, s.stale, s.fetched_at_ms,
                CASE WHEN s.version = $1::bigint THEN NULL ELSE s.document END AS document,
                h.slot, CASE WHEN h.slot = $2::bigint THEN NULL ELSE h.document END AS history
            FROM (SELECT 1) AS one LEFT JOIN cluster_snapshot s ON s.id = 1 LEFT JOIN cluster_history h ON h.id = 1
            """, [shown.map { String(SharedSnapshot.column($0)) }, slot.map(String.init), demand], idempotent: true)
    }

    /// A demand for the leader: `watch` or `refresh`.
    static func demand(_ kind: String) -> Statement {
        Statement("SELECT pg_notify('\(demandChannel)', $1)", [kind], idempotent: true)
    }

    /// The refresher lock, tried on the lock session; taking it raises the fencing epoch in the same statement (issue
    /// 49 point 3), so each leadership has a larger epoch than any before it. `held`: `t` or `f`; `epoch`: the new
    /// leader's, null when the lock was not taken (the epoch is left alone).
    static let tryLock = Statement(
        """
        WITH taken AS (SELECT pg_try_advisory_lock($1) AS held),
        raised AS (
            UPDATE cluster_leader SET epoch = epoch + 1 WHERE id = 1 AND (SELECT held FROM taken) RETURNING epoch)
        SELECT (SELECT held FROM taken) AS held, (SELECT epoch FROM raised) AS epoch
        """, [String(refresherLock)], idempotent: false)

    /// A leader's check of its lock session: a session lock lasts as long as the session, so an answer is enough.
    static let check = Statement("SELECT 1 AS up", idempotent: true)
}
