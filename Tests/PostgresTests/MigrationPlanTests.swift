import Postgres
import Testing

@Suite struct MigrationPlanTests {
    private let known = [
        Migration(2, "second", ["CREATE TABLE b (x int)"]), Migration(1, "first", ["CREATE TABLE a (x int)"]),
    ]

    @Test func appliesEveryMigrationInOrderToAnEmptyDatabase() {
        #expect(MigrationPlan(known: known, applied: []) == .apply([known[1], known[0]]))
    }

    @Test func appliesOnlyWhatIsMissing() {
        #expect(MigrationPlan(known: known, applied: [1]) == .apply([known[0]]))
        #expect(MigrationPlan(known: known, applied: [1, 2]) == .apply([]))
    }

    @Test func refusesADatabaseNewerThanTheBinaryNamingBothVersions() {
        let plan = MigrationPlan(known: known, applied: [1, 2, 3])
        #expect(plan == .refuse(database: 3, known: 2))
        let message = PostgresError.schemaTooNew(database: 3, known: 2).description
        #expect(message.contains("version 3") && message.contains("2") && !message.contains("\n"))
    }
}
