import Postgres
import TestSupport
import Testing
import Timing

@testable import DashboardCore
@testable import DashboardWeb

@Suite(.enabled(if: ThrowawayPostgres.available, Comment(rawValue: ThrowawayPostgres.missingReason)))
struct DashboardMigrationsTests {
    @Test func theDashboardsSchemaAppliesToAFreshDatabase() async throws {
        let server = try await ThrowawayPostgres.shared()
        let pool = PostgresPool(url: try DatabaseURL(try await server.makeDatabase()), clock: SystemTimeSource())
        let applied = try await MigrationRunner(migrations: DashboardMigrations.all).run(on: pool)
        #expect(applied == Array(1...DashboardMigrations.all.count))
        let tables = try await pool.run(
            Statement(
                "SELECT count(*) AS n FROM information_schema.tables WHERE table_name IN ($1, $2)",
                ["browser_settings", "cluster_secrets"], idempotent: true))
        #expect(tables.value("n") == "2")
    }
}
