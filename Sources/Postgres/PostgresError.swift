/// What a database call can end in. The split decides what happens next: `connectionLost` and `timedOut` drop the
/// connection (and only an idempotent statement is tried again, on a fresh one); `server` leaves it usable;
/// `unavailable` is a fast answer while the pool waits out its back-off, so callers never queue on a dead database.
public enum PostgresError: Error, Equatable, CustomStringConvertible {
    /// The server could not be reached or refused the session (wrong password, no such database), or libpq itself
    /// is not installed.
    case connect(String)
    /// The connection broke while a statement was on it; the statement's outcome is unknown.
    case connectionLost(String)
    /// No answer before the deadline (a hung server); the connection was dropped.
    case timedOut
    /// The server answered with an error (SQLSTATE and message); the connection is still good.
    case server(sqlState: String, message: String)
    /// The pool is waiting out its back-off after failures, or every connection stayed busy past the deadline.
    case unavailable
    /// The database's schema is newer than this binary knows.
    case schemaTooNew(database: Int, known: Int)

    public var description: String {
        switch self {
        case .connect(let message): "cannot connect to the database: \(message)"
        case .connectionLost(let message): "the database connection was lost: \(message)"
        case .timedOut: "the database did not answer in time"
        case .server(let state, let message): "the database refused a statement (\(state)): \(message)"
        case .unavailable: "the database is unavailable (reconnecting)"
        case .schemaTooNew(let database, let known):
            "the database schema is version \(database), newer than this binary's \(known): upgrade the dashboard"
        }
    }

    /// Whether the connection the error came from must be dropped.
    public var dropsConnection: Bool {
        switch self {
        case .connect, .connectionLost, .timedOut: true
        case .server, .unavailable, .schemaTooNew: false
        }
    }

    /// The SQLSTATE of a serialization failure or deadlock, which a transaction may simply run again.
    public var isSerializationFailure: Bool {
        if case .server(let state, _) = self { return state == "40001" || state == "40P01" }
        return false
    }
}
