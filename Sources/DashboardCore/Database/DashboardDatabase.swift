import Logging
import Postgres
import Synchronization
import Timing

/// The dashboard's database (`--database`): the pool, the one listener, the schema and the cluster's cookie secret.
///
/// At start `open` applies the migrations and reads the secret, waiting at most `startTimeout`. A database that
/// cannot be reached does not stop the dashboard: it starts (pages with defaults for browsers not in memory,
/// changes 503), says so in `/healthz` and `/metrics`, and keeps trying in the background until the schema and the
/// secret are there. A database whose schema is newer than this binary is the one refusal (`schemaTooNew`).
public final class DashboardDatabase: Sendable {
    /// Statements go through it.
    let pool: PostgresPool
    /// The one `LISTEN` session of the process.
    let listener: PostgresListener
    /// The cookie signer, once the secret is read.
    public let signers = CookieSignerSlot()
    private let logger: Logger
    private let clock: any TimeSource
    private let prepared = Mutex(false)
    private let retry = Mutex<Task<Void, Never>?>(nil)

    private let proposedSecret: [UInt8]?
    private let outsideSecret: [UInt8]?

    private init(
        url: DatabaseURL, logger: Logger, clock: any TimeSource, proposedSecret: [UInt8]?, outsideSecret: [UInt8]?,
        pool configuration: PostgresPool.Configuration
    ) {
        self.proposedSecret = proposedSecret
        self.outsideSecret = outsideSecret
        pool = PostgresPool(url: url, configuration: configuration, clock: clock)
        var listenerConfiguration = PostgresListener.Configuration()
        listenerConfiguration.timeout = .seconds(2)
        listener = PostgresListener(url: url, configuration: listenerConfiguration, clock: clock)
        self.logger = logger
        self.clock = clock
    }

    /// Opens the database (waiting at most the migrations' 5 s); throws only `PostgresError.schemaTooNew` and
    /// `CookieSecretMismatch`. `proposedSecret` becomes the cluster's secret if it has none yet (`--import-settings`:
    /// the directory's); `outsideSecret` is the secret from outside (`OutsideCookieSecret`), of which the database
    /// keeps only the fingerprint; `pool` is the dashboard's pool (tests on a loaded machine give its calls a hang
    /// guard's deadline).
    public static func open(
        _ url: DatabaseURL, logger: Logger, clock: any TimeSource = SystemTimeSource(),
        proposedSecret: [UInt8]? = nil, outsideSecret: [UInt8]? = nil,
        pool: PostgresPool.Configuration = PostgresPool.Configuration()
    ) async throws -> DashboardDatabase {
        let database = DashboardDatabase(
            url: url, logger: logger, clock: clock, proposedSecret: proposedSecret, outsideSecret: outsideSecret,
            pool: pool)
        database.listener.start()
        do {
            try await database.prepare()
        } catch PostgresError.schemaTooNew(let found, let known) {
            database.close()
            throw PostgresError.schemaTooNew(database: found, known: known)
        } catch let mismatch as CookieSecretMismatch {
            database.close()
            throw mismatch
        } catch {
            logger.warning(
                "database unreachable at start; serving without it and retrying",
                ["database": url.redacted, "error": String(describing: error)])
            database.retryInBackground()
        }
        return database
    }

    /// Whether the schema and the secret are there.
    public var isPrepared: Bool { prepared.withLock { $0 } }

    /// Whether the database answers now (the listener's session is up).
    public var isUp: Bool { listener.isConnected }

    /// `/healthz`'s database line.
    public var healthLine: String {
        isUp && isPrepared ? "database: up" : "database: down (pages served from memory; changes answered 503)"
    }

    /// `/metrics`' database lines.
    public var metricsText: String {
        let counters = pool.counters
        return [
            "# HELP habits_database_up Whether the settings database answers (1) or not (0).",
            "# TYPE habits_database_up gauge",
            "habits_database_up \(isUp && isPrepared ? 1 : 0)",
            "# HELP habits_database_reconnects_total Listener sessions reopened after a loss.",
            "# TYPE habits_database_reconnects_total counter",
            "habits_database_reconnects_total \(listener.reconnects)",
            "# HELP habits_database_connections_opened_total Pooled sessions opened.",
            "# TYPE habits_database_connections_opened_total counter",
            "habits_database_connections_opened_total \(counters.opened)",
            "# HELP habits_database_statement_errors_total Statements that ended in an error.",
            "# TYPE habits_database_statement_errors_total counter",
            "habits_database_statement_errors_total \(counters.statementErrors)",
            "",
        ].joined(separator: "\n")
    }

    /// Stops the retries, the listener and the pool.
    public func close() {
        retry.withLock { $0 }?.cancel()
        listener.stop()
        pool.shutdown()
    }

    private func prepare() async throws {
        try await MigrationRunner(migrations: DashboardMigrations.all, timeout: .seconds(5)).run(on: pool)
        signers.fill(
            try await DatabaseSecret.loadOrCreate(pool: pool, proposed: proposedSecret, outside: outsideSecret))
        prepared.withLock { $0 = true }
    }

    private func retryInBackground() {
        let task = Task { [self] in
            let backoff = Backoff(initial: .milliseconds(250), maximum: .seconds(2))
            await RetryLoop.run(backoff: backoff, clock: clock, pauseFirst: true) { _ in
                do {
                    try await prepare()
                    logger.notice("database reachable; settings stored there from now on", [:])
                    return .done
                } catch {
                    if case PostgresError.schemaTooNew = error {
                        logger.error("database refused", ["error": String(describing: error)])
                    }
                    if error is CookieSecretMismatch {
                        // Retrying cannot mend it; changes stay refused (503) until an operator does.
                        logger.error("database refused", ["error": String(describing: error)])
                        return .done
                    }
                    throw error
                }
            }
        }
        retry.withLock { $0 = task }
    }
}
