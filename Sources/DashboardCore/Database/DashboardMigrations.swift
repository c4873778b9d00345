import Postgres

/// The dashboard's database schema, in order: `MigrationRunner` applies what a database lacks at start. Adding a
/// migration is one line here (the next number), its statements in a `Migration+Name.swift` of their own. A number
/// once landed never changes meaning: a later change is a new migration.
enum DashboardMigrations {
    /// Every migration this binary knows.
    static let all: [Migration] = [
        .settings,  // 1: per-browser settings and the cluster's secrets
        .cluster,  // 2: the refresher's snapshot and history
        .fencing,  // 3: the refresher's epoch, which its writes carry
    ]
}
