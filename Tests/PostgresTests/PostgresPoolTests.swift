import Postgres
import TestSupport
import Testing
import Timing

/// The pool against a real throwaway PostgreSQL (`ThrowawayPostgres`): skipped only when the binaries are missing,
/// outside CI. Wall-clock limits here are hang guards far above the expected times.
@Suite(.enabled(if: ThrowawayPostgres.available, Comment(rawValue: ThrowawayPostgres.missingReason)))
struct PostgresPoolTests {
    private func pool(_ url: String, timeout: Duration = .seconds(3)) throws -> PostgresPool {
        var configuration = PostgresPool.Configuration()
        configuration.timeout = timeout
        configuration.backoff = Backoff(initial: .milliseconds(50), maximum: .milliseconds(200))
        return PostgresPool(url: try DatabaseURL(url), configuration: configuration, clock: SystemTimeSource())
    }

    @Test func connectsAndAnswersAQuery() async throws {
        let server = try await ThrowawayPostgres.shared()
        let pool = try pool(try await server.makeDatabase())
        let result = try await pool.run(Statement("SELECT 1 + 1 AS two", idempotent: true))
        #expect(result.value("two") == "2")
    }

    /// A transaction its caller abandoned (a partition, issue 49 point 2) must not hold its locks on the server for
    /// longer than half a call's deadline: the session's own timeout ends it.
    @Test func aPooledSessionEndsATransactionLeftIdleForHalfTheDeadline() async throws {
        let server = try await ThrowawayPostgres.shared()
        let pool = try pool(try await server.makeDatabase(), timeout: .seconds(3))
        let result = try await pool.run(Statement("SHOW idle_in_transaction_session_timeout", idempotent: true))
        #expect(result.rows == [["1500ms"]])
    }

    @Test func sendsParametersAsDataNeverAsSQL() async throws {
        let server = try await ThrowawayPostgres.shared()
        let pool = try pool(try await server.makeDatabase())
        _ = try await pool.run(Statement("CREATE TABLE notes (id int, body text)", idempotent: false))
        let hostile = "O'Brien\"; DROP TABLE notes; -- Ünïcødé ✓ 🏃"
        _ = try await pool.run(Statement("INSERT INTO notes VALUES ($1, $2)", ["1", hostile], idempotent: false))
        _ = try await pool.run(Statement("INSERT INTO notes VALUES ($1, $2)", ["2", nil], idempotent: false))
        let rows = try await pool.run(Statement("SELECT body FROM notes ORDER BY id", idempotent: true)).rows
        #expect(rows == [[hostile], [nil]])
    }

    @Test func aServerErrorLeavesTheConnectionUsable() async throws {
        let server = try await ThrowawayPostgres.shared()
        let pool = try pool(try await server.makeDatabase())
        await #expect(throws: PostgresError.self) {
            try await pool.run(Statement("SELECT * FROM no_such_table", idempotent: true))
        }
        #expect(try await pool.run(Statement("SELECT 'still' AS here", idempotent: true)).value("here") == "still")
        #expect(pool.counters.opened == 1)
        #expect(pool.counters.lost == 0)
    }

    @Test func reusesOneSessionForCallsInTurn() async throws {
        let server = try await ThrowawayPostgres.shared()
        let pool = try pool(try await server.makeDatabase())
        var pids = Set<String?>()
        for _ in 0..<5 {
            pids.insert(try await pool.run(Statement("SELECT pg_backend_pid() AS pid", idempotent: true)).value("pid"))
        }
        #expect(pids.count == 1)
        #expect(pool.counters.opened == 1)
    }

    @Test func commitsATransactionAndRollsBackOneThatThrows() async throws {
        let server = try await ThrowawayPostgres.shared()
        let pool = try pool(try await server.makeDatabase())
        _ = try await pool.run(Statement("CREATE TABLE t (x int)", idempotent: false))
        try await pool.transaction(idempotent: false) { transaction in
            _ = try await transaction.run(Statement("INSERT INTO t VALUES ($1)", ["1"], idempotent: false))
        }
        struct Refused: Error {}
        await #expect(throws: Refused.self) {
            try await pool.transaction(idempotent: false) { transaction in
                _ = try await transaction.run(Statement("INSERT INTO t VALUES ($1)", ["2"], idempotent: false))
                throw Refused()
            }
        }
        #expect(try await pool.run(Statement("SELECT x FROM t", idempotent: true)).rows == [["1"]])
    }

    // A hang guard only: it counts the throwaway server's initdb and start, which took over a minute with three CI
    // runs and a release build on 2 cores.
    @Test(.timeLimit(.minutes(5)))
    func reopensItsConnectionAfterTheServerRestarts() async throws {
        let server = try await ThrowawayPostgres.make()
        defer { Task { await server.destroy() } }
        // A hang guard's deadline: on a loaded machine the insert after the restart can take over 3 s, and an insert
        // that timed out may still have run (this test is about the reconnection, not the deadline).
        let pool = try pool(server.url, timeout: .seconds(60))
        _ = try await pool.run(Statement("CREATE TABLE t (x int)", idempotent: false))
        try await server.stop()
        await #expect(throws: PostgresError.self) {
            try await pool.run(Statement("SELECT 1", idempotent: true))
        }
        try await server.start()
        // Not idempotent, yet safe: the dead idle session is noticed before anything is sent on it.
        var inserted = false
        for _ in 0..<2400 where !inserted {  // a hang guard of 120 s
            do {
                _ = try await pool.run(Statement("INSERT INTO t VALUES (1)", idempotent: false))
                inserted = true
            } catch PostgresError.unavailable {
                try await Task.sleep(for: .milliseconds(50))  // the back-off, 200 ms at most
            }
        }
        #expect(inserted)
        #expect(try await pool.run(Statement("SELECT count(*) AS n FROM t", idempotent: true)).value("n") == "1")
        #expect(pool.counters.lost >= 1)
    }

    // A hang guard only: it counts the throwaway server's initdb and start, which took over a minute with three CI
    // runs and a release build on 2 cores.
    @Test(.timeLimit(.minutes(5)))
    func aHungServerEndsTheStatementWithATimeoutAndDropsTheSession() async throws {
        let server = try await ThrowawayPostgres.make()
        defer { Task { await server.destroy() } }
        // Generous for the set-up (a loaded machine), one second for the statement the hung server never answers.
        let pool = try pool(server.url, timeout: .seconds(30))
        _ = try await pool.run(Statement("SELECT 1", idempotent: true))
        try server.pause()
        await #expect(throws: PostgresError.timedOut) {
            try await pool.run(Statement("SELECT 2", idempotent: true), deadline: pool.clock.now + .seconds(1))
        }
        #expect(pool.counters.lost == 1)
        try server.resume()
        var answered: String?
        for _ in 0..<100 where answered == nil {
            do {
                answered = try await pool.run(Statement("SELECT 3 AS x", idempotent: true)).value("x")
            } catch PostgresError.unavailable {
                try await Task.sleep(for: .milliseconds(50))
            }
        }
        #expect(answered == "3")
    }
}
