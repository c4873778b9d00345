import Foundation
import Logging

extension DashboardState {
    /// Where settings live: the files of `--settings-dir` (with their secret, created on first start, unless
    /// `--cookie-secret-file` gives one), or with `--database` the database's rows (and the cluster's secret, once the
    /// database has given or agreed to it).
    static func settingsBackend(
        options: DashboardOptions, database: DashboardDatabase?, logger: Logger
    ) throws -> (any SettingsBackend<Settings>, CookieSignerSlot, SettingsSweeper) {
        let maxAge = TimeInterval(options.settingsMaxAgeDays) * 86_400
        guard let database else {
            let store = try SettingsStore(
                directory: URL(fileURLWithPath: options.settingsDirectory), maxFiles: options.maxSettingsFiles,
                maxAge: maxAge, defaultValue: Settings(), logger: logger)
            let signer =
                try options.cookieSecretFile.map { path throws in CookieSigner(key: try OutsideCookieSecret.read(path))
                }
                ?? CookieSigner.loadOrCreate(directory: store.directory.path, logger: logger)
            return (store, CookieSignerSlot(signer), SettingsSweeper(store: store, logger: logger))
        }
        let store = try PostgresSettingsStore(
            pool: database.pool, listener: database.listener, signers: database.signers, defaultValue: Settings(),
            maxRows: options.maxSettingsFiles, maxAge: maxAge, logger: logger)
        // At start as the file store does (expired rows, the cap, the count), then hourly; a failure is logged.
        let first = Task {
            do { try await store.sweep() } catch { logger.warning("settings sweep failed", ["error": "\(error)"]) }
        }
        _ = first
        return (store, database.signers, SettingsSweeper(logger: logger, sweep: store.sweep))
    }
}
