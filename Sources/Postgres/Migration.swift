/// One numbered schema change: its statements run in one transaction, and its number is recorded in
/// `schema_migrations` in the same transaction, so it is applied exactly once. Numbers start at 1 and have no gaps.
public struct Migration: Sendable, Equatable {
    /// Its number.
    public var version: Int
    /// A short name, for the log and the `schema_migrations` row.
    public var name: String
    /// Its statements (one each: they go through `PQsendQueryParams`, which takes one at a time).
    public var statements: [String]

    /// A migration.
    public init(_ version: Int, _ name: String, _ statements: [String]) {
        self.version = version
        self.name = name
        self.statements = statements
    }
}
