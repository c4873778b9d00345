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
enum ClusterSchema {
    /// Notified with the version (hex) when the leader stored a snapshot.
    static let snapshotChannel = "habits_snapshot"
    /// Notified with the slot when the leader stored the history.
    static let historyChannel = "habits_history"
    /// A follower's demand: `watch` (a live page is watched there) or `refresh` (it wants newer data).
    static let demandChannel = "habits_demand"

    /// The session advisory lock whose holder is the refresher ("refresh" in ASCII; the migrations' is another).
    static let refresherLock: Int64 = 0x7265_6672_6573_68

    /// Stores `row` and notifies, in one statement (the notification goes out with the commit).
    static func store(_ row: SharedSnapshot) -> Statement {
        Statement(
            """
            WITH stored AS (
                INSERT INTO cluster_snapshot (id, version, stale, fetched_at_ms, document) VALUES (1, $1, $2, $3, $4)
                ON CONFLICT (id) DO UPDATE SET version = EXCLUDED.version, stale = EXCLUDED.stale,
                    fetched_at_ms = EXCLUDED.fetched_at_ms, document = EXCLUDED.document, stored_at = now()
                RETURNING 1)
            SELECT pg_notify('\(snapshotChannel)', $5) FROM stored
            """,
            [
                String(SharedSnapshot.column(row.version)), row.status.stale ? "true" : "false",
                String(SharedSnapshot.Status.millisecondsSince1970(row.status.fetchedAt)),
                String(decoding: row.document, as: UTF8.self), SnapshotFile.hex(row.version),
            ], idempotent: true)
    }

    /// Stores the history (`history.bin`'s bytes) of `slot` unless a later slot is stored already (a deposed leader
    /// cannot take it back), and notifies.
    static func store(history bytes: [UInt8], slot: Int) -> Statement {
        Statement(
            """
            WITH stored AS (
                INSERT INTO cluster_history (id, slot, document) VALUES (1, $1, $2)
                ON CONFLICT (id) DO UPDATE SET slot = EXCLUDED.slot, document = EXCLUDED.document, stored_at = now()
                    WHERE cluster_history.slot <= EXCLUDED.slot
                RETURNING 1)
            SELECT pg_notify('\(historyChannel)', $3) FROM stored
            """, [String(slot), Data(bytes).base64EncodedString(), String(slot)], idempotent: true)
    }

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

    /// The refresher lock, tried on the lock session.
    static let tryLock = Statement(
        "SELECT pg_try_advisory_lock($1) AS held", [String(refresherLock)], idempotent: true)

    /// A leader's check of its lock session: a session lock lasts as long as the session, so an answer is enough.
    static let check = Statement("SELECT 1 AS up", idempotent: true)
}
