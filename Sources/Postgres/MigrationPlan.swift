/// What to do with a database whose `schema_migrations` holds `applied`, given the migrations this binary knows:
/// a pure decision, so the refusal of a newer schema and the order of application are tested without a server.
public enum MigrationPlan: Equatable, Sendable {
    /// Apply these, in order (none: the schema is current).
    case apply([Migration])
    /// Refuse to start: the database is at `database`, newer than the `known` this binary has.
    case refuse(database: Int, known: Int)

    /// Decides. `known` must be numbered 1, 2, … without gaps (checked: a gap is a programming error).
    public init(known: [Migration], applied: Set<Int>) {
        let sorted = known.sorted { $0.version < $1.version }
        precondition(sorted.map(\.version) == Array(0..<sorted.count).map { $0 + 1 }, "migrations are 1, 2, … N")
        let newest = applied.max() ?? 0
        if newest > sorted.count {
            self = .refuse(database: newest, known: sorted.count)
        } else {
            self = .apply(sorted.filter { !applied.contains($0.version) })
        }
    }
}
