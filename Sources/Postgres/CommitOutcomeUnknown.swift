/// A non-idempotent transaction whose `COMMIT` was sent and never answered (its connection lost, or its deadline
/// passed meanwhile): the server may have committed it or not, so the caller must not say it was not saved (issue 49
/// point 2, found with a partition cutting a dashboard off from PostgreSQL while a change was committing).
public struct CommitOutcomeUnknown: Error, CustomStringConvertible {
    /// What ended the wait for `COMMIT`'s answer.
    public let cause: PostgresError

    /// Wraps `cause`.
    public init(cause: PostgresError) { self.cause = cause }

    public var description: String { "COMMIT sent, its outcome unknown: \(cause.description)" }
}
