import Postgres
import Synchronization
import TestSupport
import Testing
import Timing

/// `PostgresPool.transaction`'s rules for running a transaction again, against a real throwaway PostgreSQL: a
/// serialization failure is run again (three times in all at most), a connection lost before `COMMIT` was sent
/// reruns the whole transaction, and one lost while `COMMIT` was on its way is repeated only when idempotent.
@Suite(.enabled(if: ThrowawayPostgres.available, Comment(rawValue: ThrowawayPostgres.missingReason)))
struct PostgresTransactionRetryTests {
    /// The server's own "could not serialize" error, raised on demand.
    private let conflict = Statement(
        "DO $$ BEGIN RAISE EXCEPTION 'conflict' USING ERRCODE = 'serialization_failure'; END $$", idempotent: true)
    /// Ends the session from inside: the backend dies at the sleep's first check for interrupts, so the client
    /// sees its connection lost mid-statement.
    private let hangUp = Statement(
        "DO $$ BEGIN PERFORM pg_terminate_backend(pg_backend_pid()); PERFORM pg_sleep(30); END $$", idempotent: true)

    private func pool() async throws -> PostgresPool {
        let server = try await ThrowawayPostgres.shared()
        var configuration = PostgresPool.Configuration()
        // A hang guard: every statement here answers at once, or its session dies at once.
        configuration.timeout = .seconds(60)
        configuration.backoff = Backoff(initial: .milliseconds(1), maximum: .milliseconds(1))
        let pool = PostgresPool(
            url: try DatabaseURL(try await server.makeDatabase()), configuration: configuration,
            clock: SystemTimeSource())
        _ = try await pool.run(Statement("CREATE TABLE t (x int)", idempotent: false))
        return pool
    }

    private func rows(_ pool: PostgresPool) async throws -> [[String?]] {
        try await pool.run(Statement("SELECT x FROM t ORDER BY x", idempotent: true)).rows
    }

    /// Runs a non-idempotent transaction that inserts its attempt's number and, on its first attempt only, runs
    /// `failure`; returns how many attempts ran.
    private func insertingItsAttempt(_ pool: PostgresPool, failingFirstWith failure: Statement) async throws -> Int {
        let attempts = Mutex(0)
        try await pool.transaction(idempotent: false) { transaction in
            let attempt = attempts.withLock {
                $0 += 1
                return $0
            }
            _ = try await transaction.run(Statement("INSERT INTO t VALUES ($1)", ["\(attempt)"], idempotent: false))
            if attempt == 1 { _ = try await transaction.run(failure) }
        }
        return attempts.withLock { $0 }
    }

    @Test func aSerializationFailureRunsTheTransactionAgain() async throws {
        let pool = try await pool()
        #expect(try await insertingItsAttempt(pool, failingFirstWith: conflict) == 2)
        #expect(try await rows(pool) == [["2"]], "the first attempt was rolled back")
    }

    @Test func aSerializationFailureIsRunAtMostThreeTimesAndAnyOtherServerErrorOnce() async throws {
        let pool = try await pool()
        let attempts = Mutex(0)
        await #expect(throws: PostgresError.self) {
            try await pool.transaction(idempotent: true) { transaction in
                attempts.withLock { $0 += 1 }
                _ = try await transaction.run(conflict)
            }
        }
        #expect(attempts.withLock { $0 } == 3)
        attempts.withLock { $0 = 0 }
        await #expect(throws: PostgresError.self) {
            try await pool.transaction(idempotent: true) { transaction in
                attempts.withLock { $0 += 1 }
                _ = try await transaction.run(Statement("SELECT * FROM no_such_table", idempotent: true))
            }
        }
        #expect(attempts.withLock { $0 } == 1)
    }

    @Test func aConnectionLostBeforeCommitRerunsEvenANonIdempotentTransaction() async throws {
        let pool = try await pool()
        #expect(try await insertingItsAttempt(pool, failingFirstWith: hangUp) == 2)
        #expect(try await rows(pool) == [["2"]], "the server rolled back the session that died")
        #expect(pool.counters.lost == 1)
    }

    /// Makes the first `COMMIT` that inserts into `t` end its own session (`ThrowawayPostgres.dieDuringTheFirstCommit`).
    private func dieDuringTheFirstCommit(_ pool: PostgresPool) async throws {
        for sql in ThrowawayPostgres.dieDuringTheFirstCommit(on: "t") {
            _ = try await pool.run(Statement(sql, idempotent: false))
        }
    }

    @Test func aConnectionLostDuringCommitIsNotRepeatedForANonIdempotentTransaction() async throws {
        let pool = try await pool()
        try await dieDuringTheFirstCommit(pool)
        let attempts = Mutex(0)
        await #expect {
            try await pool.transaction(idempotent: false) { transaction in
                attempts.withLock { $0 += 1 }
                _ = try await transaction.run(Statement("INSERT INTO t VALUES (1)", idempotent: false))
            }
        } throws: { error in
            // Said as such: the caller must not tell anyone nothing was saved.
            guard let error = error as? CommitOutcomeUnknown, case .connectionLost = error.cause else { return false }
            return true
        }
        #expect(attempts.withLock { $0 } == 1, "it may have committed, so it is not run again")
    }

    @Test func aConnectionLostDuringCommitIsRepeatedForAnIdempotentTransaction() async throws {
        let pool = try await pool()
        try await dieDuringTheFirstCommit(pool)
        let attempts = Mutex(0)
        try await pool.transaction(idempotent: true) { transaction in
            attempts.withLock { $0 += 1 }
            _ = try await transaction.run(Statement("INSERT INTO t VALUES (1)", idempotent: false))
        }
        #expect(attempts.withLock { $0 } == 2)
        #expect(try await rows(pool) == [["1"]])
    }
}
