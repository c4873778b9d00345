import Postgres
import TestSupport
import Testing
import Timing

@Suite(.enabled(if: ThrowawayPostgres.available, Comment(rawValue: ThrowawayPostgres.missingReason)))
struct MigrationRunnerTests {
    /// Without IF NOT EXISTS: applying either twice would fail.
    private let migrations = [
        Migration(1, "first", ["CREATE TABLE first (x int)", "INSERT INTO first VALUES (1)"]),
        Migration(2, "second", ["CREATE TABLE second (y int)"]),
    ]

    // A hang guard only: it counts the throwaway server's initdb and start, which took over a minute with three CI
    // runs and a release build on 2 cores.
    @Test(.timeLimit(.minutes(5)))
    func threeRunnersStartingTogetherApplyEachMigrationOnce() async throws {
        let server = try await ThrowawayPostgres.shared()
        let url = try DatabaseURL(try await server.makeDatabase())
        let runner = MigrationRunner(migrations: migrations)
        let applied = try await withThrowingTaskGroup(of: [Int].self) { group in
            for _ in 0..<3 {
                group.addTask { try await runner.run(on: PostgresPool(url: url, clock: SystemTimeSource())) }
            }
            return try await group.reduce(into: [Int]()) { $0 += $1 }
        }
        #expect(applied.sorted() == [1, 2])
        let pool = PostgresPool(url: url, clock: SystemTimeSource())
        let rows = try await pool.run(Statement("SELECT version FROM schema_migrations ORDER BY 1", idempotent: true))
        #expect(rows.rows == [["1"], ["2"]])
        #expect(try await pool.run(Statement("SELECT count(*) AS n FROM first", idempotent: true)).value("n") == "1")
        #expect(try await runner.run(on: pool) == [])
    }

    @Test func refusesADatabaseWithANewerSchema() async throws {
        let server = try await ThrowawayPostgres.shared()
        let url = try DatabaseURL(try await server.makeDatabase())
        let pool = PostgresPool(url: url, clock: SystemTimeSource())
        try await MigrationRunner(migrations: migrations).run(on: pool)
        await #expect(throws: PostgresError.schemaTooNew(database: 2, known: 1)) {
            try await MigrationRunner(migrations: [migrations[0]]).run(on: pool)
        }
    }
}
