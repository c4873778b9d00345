/// One SQL statement with its text parameters (`$1`, `$2`, …; nil is SQL NULL), sent with `PQsendQueryParams`, so
/// no value is ever spliced into SQL text. `idempotent` says whether running it twice is the same as once: only
/// then does the pool repeat it after the connection broke under it (the first run may or may not have happened).
public struct Statement: Sendable, Equatable {
    /// The SQL, one statement, parameters as `$n`.
    public var sql: String
    /// The parameters' text forms, in order.
    public var parameters: [String?]
    /// Whether it is safe to run again when its outcome is unknown.
    public var idempotent: Bool

    /// A statement; `idempotent` must be said, never assumed.
    public init(_ sql: String, _ parameters: [String?] = [], idempotent: Bool) {
        self.sql = sql
        self.parameters = parameters
        self.idempotent = idempotent
    }
}
