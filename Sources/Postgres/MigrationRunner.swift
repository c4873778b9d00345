/// Brings a database's schema up to the migrations this binary knows, at start. One session takes a session-level
/// advisory lock (`pg_advisory_lock`, fixed key) first, so when N processes start together one applies each
/// migration and the others, once they get the lock, find nothing left to do; the server releases the lock if the
/// session dies. A database newer than the binary is refused (`PostgresError.schemaTooNew`).
public struct MigrationRunner: Sendable {
    /// The advisory lock's key: fixed, so every dashboard of a cluster takes the same one ("habits" in ASCII).
    public static let lockKey: Int64 = 0x6861_6269_7473

    /// The migrations known, in any order.
    public let migrations: [Migration]
    /// How long to wait for the lock and the whole run (another process may be migrating).
    public let timeout: Duration

    /// A runner.
    public init(migrations: [Migration], timeout: Duration = .seconds(30)) {
        self.migrations = migrations
        self.timeout = timeout
    }

    /// Applies what is missing; returns the versions it applied (empty when another process had, or none was due).
    @discardableResult
    public func run(on pool: PostgresPool) async throws -> [Int] {
        let deadline = pool.clock.now + timeout
        return try await pool.withConnection(deadline: deadline, retryIfLost: true) { connection in
            let run = { (sql: String, parameters: [String?]) in
                try await connection.run(Statement(sql, parameters, idempotent: true), deadline: deadline)
            }
            _ = try await run("SELECT pg_advisory_lock($1)", [String(Self.lockKey)])
            do {
                let applied = try await apply(run)
                _ = try await run("SELECT pg_advisory_unlock($1)", [String(Self.lockKey)])
                return applied
            } catch {
                // The lock dies with the session; dropping it is the surest unlock after a failure.
                connection.close()
                throw error
            }
        }
    }

    private func apply(
        _ run: (String, [String?]) async throws -> QueryResult
    ) async throws -> [Int] {
        _ = try await run(
            """
            CREATE TABLE IF NOT EXISTS schema_migrations (
                version integer PRIMARY KEY, name text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())
            """, [])
        let rows = try await run("SELECT version FROM schema_migrations", []).rows
        let applied = Set(rows.compactMap { $0.first.flatMap { $0 }.flatMap { Int($0) } })
        switch MigrationPlan(known: migrations, applied: applied) {
        case .refuse(let database, let known):
            throw PostgresError.schemaTooNew(database: database, known: known)
        case .apply(let due):
            for migration in due {
                _ = try await run("BEGIN", [])
                for statement in migration.statements { _ = try await run(statement, []) }
                _ = try await run(
                    "INSERT INTO schema_migrations (version, name) VALUES ($1, $2)",
                    [String(migration.version), migration.name])
                _ = try await run("COMMIT", [])
            }
            return due.map(\.version)
        }
    }
}
