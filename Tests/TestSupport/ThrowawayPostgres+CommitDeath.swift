extension ThrowawayPostgres {
    /// The statements that make the first `COMMIT` after them that wrote `events` on `table` end its own session,
    /// before the answer: a deferred trigger runs inside `COMMIT` and terminates its backend the first time (a
    /// sequence counts the deaths, as it is not rolled back with the transaction). The commit's outcome is then
    /// unknown to the client, which is what the transaction-retry and unconfirmed-change tests need.
    public static func dieDuringTheFirstCommit(on table: String, events: String = "INSERT") -> [String] {
        [
            "CREATE SEQUENCE deaths",
            """
            CREATE FUNCTION die_once() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN
                IF nextval('deaths') = 1 THEN
                    PERFORM pg_terminate_backend(pg_backend_pid()); PERFORM pg_sleep(30);
                END IF;
                RETURN NULL;
            END $$
            """,
            """
            CREATE CONSTRAINT TRIGGER die_at_commit AFTER \(events) ON \(table)
                DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION die_once()
            """,
        ]
    }
}
