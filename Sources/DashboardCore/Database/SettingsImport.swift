import Foundation
import Postgres

/// `--import-settings DIR`: copies a settings directory into the database, so browsers that had settings keep
/// them: every `<id>.json` that decodes becomes its row (document, version 1, the file's mtime and atime as usage)
/// unless the browser has a row already, and the directory's `.cookie-secret` becomes the cluster's secret unless
/// the database has one (`directorySecret`, given to `DashboardDatabase.open`). Idempotent: a second run finds everything there and changes nothing.
public enum SettingsImport {
    /// What a run did, as the one line it prints.
    public struct Report: Equatable, Sendable, CustomStringConvertible {
        /// Rows added.
        public var imported = 0
        /// Browsers that had a row already.
        public var alreadyThere = 0
        /// Files that are not settings (corrupt, too large, not named by an id).
        public var skipped = 0
        /// What became of the directory's secret.
        public var secret = "none in the directory"

        public var description: String {
            "imported \(imported) browsers' settings (\(alreadyThere) already in the database, \(skipped) files "
                + "skipped); cookie secret: \(secret)"
        }
    }

    /// Runs the import on a prepared `database`.
    public static func run(directory: String, into database: DashboardDatabase) async throws -> Report {
        var report = Report()
        let names = try FileManager.default.contentsOfDirectory(atPath: directory).sorted()
        for name in names where name.hasSuffix(".json") {
            let bytes: [UInt8]
            let status: FileStatus
            let value: Settings
            do {
                guard let id = BrowserID(String(name.dropLast(".json".count))),
                    let read = try FileIO.readIfExists(directory + "/" + name, limit: 1 << 20)
                else { throw CocoaError(.fileReadUnknown) }
                (bytes, status) = read
                value = try JSONDecoder().decode(Settings.self, from: Data(bytes))
                _ = id
            } catch {
                report.skipped += 1  // what the file store would move aside: not settings
                continue
            }
            guard let id = BrowserID(String(name.dropLast(".json".count))) else { continue }
            let document = String(decoding: try SettingsCodec.encode(value), as: UTF8.self)
            let inserted = try await database.pool.run(
                Statement(
                    "INSERT INTO browser_settings (browser_id, document, version, modified_ns, accessed_ns) "
                        + "VALUES ($1, $2, 1, $3, $4) ON CONFLICT (browser_id) DO NOTHING",
                    [id.rawValue, document, String(status.usage.modified), String(status.usage.accessed)],
                    idempotent: true))
            if inserted.affectedRows == 1 { report.imported += 1 } else { report.alreadyThere += 1 }
        }
        if let key = try directorySecret(directory), let cluster = database.signers.current {
            report.secret =
                Self.sameKey(cluster, CookieSigner(key: key))
                ? "the directory's (cookies it signed verify)"
                : "the database already had another; browsers' cookies from this directory will not verify"
        }
        return report
    }

    /// The directory's cookie secret, if it has one, for `DashboardDatabase.open(proposedSecret:)`: the database
    /// must be opened with it, so it is the cluster's secret when the database has none yet.
    public static func directorySecret(_ directory: String) throws -> [UInt8]? {
        guard let (key, _) = try FileIO.readIfExists(directory + "/" + CookieSigner.secretFileName, limit: 4096),
            key.count == CookieSigner.keyLength
        else { return nil }
        return key
    }

    /// Whether two signers sign alike (the key itself is not exposed).
    private static func sameKey(_ left: CookieSigner, _ right: CookieSigner) -> Bool {
        let probe = BrowserID.random()
        return left.cookieValue(for: probe) == right.cookieValue(for: probe)
    }
}
