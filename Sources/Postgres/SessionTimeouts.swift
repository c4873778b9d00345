/// What every session the dashboard opens asks of PostgreSQL first (issue 49 point 2), so the server itself ends a
/// session whose client went silent: across a partition no FIN and no RST ever arrive, and the kernel's own keepalive
/// waits two hours. TCP keepalives after 1 s of silence, one a second, three unanswered; data unacknowledged for 3 s.
/// Found in the namespace cluster: a leader cut off kept the refresher lock on the server (nobody else could lead),
/// and a dashboard cut off mid-transaction kept a browser's row lock, so that browser's changes through every other
/// dashboard answered 503 until the cut healed.
public enum SessionTimeouts {
    /// The statement; `idleInTransaction` also ends a session left idle inside a transaction that long (its client
    /// gave up: a pooled transaction's statements follow each other at once), releasing its locks.
    public static func statement(idleInTransaction: Duration? = nil) -> Statement {
        let idle = idleInTransaction.map { String(max(1, Int($0 / .milliseconds(1)))) } ?? "0"
        return Statement(
            """
            SELECT set_config('tcp_keepalives_idle', '1', false), set_config('tcp_keepalives_interval', '1', false),
                set_config('tcp_keepalives_count', '3', false), set_config('tcp_user_timeout', '3000', false),
                set_config('idle_in_transaction_session_timeout', $1, false)
            """, [idle], idempotent: true)
    }
}
