/// Statements run inside one `BEGIN … COMMIT` on one pooled connection.
public struct Transaction: Sendable {
    /// The connection the transaction holds.
    let connection: PostgresConnection
    /// The deadline shared by every statement of the transaction.
    public let deadline: ContinuousClock.Instant

    /// Runs `statement` inside the transaction (its idempotency does not matter here: the transaction is the unit).
    public func run(_ statement: Statement) async throws -> QueryResult {
        try await connection.run(statement, deadline: deadline)
    }
}

extension PostgresPool {
    /// Runs `body` between `BEGIN` and `COMMIT` on one connection, all within one deadline. When `body` throws,
    /// the transaction is rolled back and the error rethrown. A connection lost before `COMMIT` was sent leaves
    /// nothing behind (the server rolls back an unfinished transaction), so the whole transaction runs again on a
    /// fresh connection; one lost while `COMMIT` was on its way is repeated only when `idempotent` says so, since it
    /// may have committed (otherwise `CommitOutcomeUnknown` is thrown). A serialization failure or deadlock is run
    /// again too, up to three times in all.
    public func transaction<T: Sendable>(
        idempotent: Bool, deadline: ContinuousClock.Instant? = nil, _ body: (Transaction) async throws -> T
    ) async throws -> T {
        let deadline = deadline ?? self.deadline()
        var attempts = 0
        while true {
            attempts += 1
            var committing = false
            do {
                return try await withConnection(deadline: deadline, retryIfLost: false) { connection in
                    let transaction = Transaction(connection: connection, deadline: deadline)
                    _ = try await transaction.run(Statement("BEGIN", idempotent: true))
                    let value: T
                    do {
                        value = try await body(transaction)
                    } catch {
                        if connection.isOpen {
                            _ = try await transaction.run(Statement("ROLLBACK", idempotent: true))
                        }
                        throw error
                    }
                    committing = true
                    _ = try await transaction.run(Statement("COMMIT", idempotent: idempotent))
                    return value
                }
            } catch let error as PostgresError {
                let lostBeforeCommit = error.dropsConnection && !committing
                let again = lostBeforeCommit || (error.dropsConnection && idempotent) || error.isSerializationFailure
                if !again || attempts >= 3 || clock.now >= deadline {
                    if committing, error.dropsConnection, !idempotent { throw CommitOutcomeUnknown(cause: error) }
                    throw error
                }
            }
        }
    }
}
