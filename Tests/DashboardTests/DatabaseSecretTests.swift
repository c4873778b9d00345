import Foundation
import Postgres
import TestSupport
import Testing

@testable import DashboardCore
@testable import DashboardWeb

/// Issue 48 point 4: a cookie secret from outside the database; the database keeps only its fingerprint.
@Suite(.enabled(if: ThrowawayPostgres.available, Comment(rawValue: ThrowawayPostgres.missingReason)))
struct DatabaseSecretTests {
    /// A prepared database on `url` with `outside` as its secret from outside.
    static func open(_ url: String, outside: [UInt8]?) async throws -> DashboardDatabase {
        let database = try await DashboardDatabase.open(try DatabaseURL(url), logger: .silent, outsideSecret: outside)
        await eventually("the schema and the secret are there") { database.isPrepared }
        return database
    }

    /// `cluster_secrets` as name → value.
    static func rows(_ database: DashboardDatabase) async throws -> [String: String] {
        let result = try await database.pool.run(
            Statement("SELECT name, value FROM cluster_secrets", [], idempotent: true))
        var rows: [String: String] = [:]
        for row in result.rows.indices { rows[result.value("name", row: row)!] = result.value("value", row: row)! }
        return rows
    }

    @Test(.timeLimit(.minutes(2)))
    func anOutsideSecretLeavesOnlyItsFingerprintInTheDatabase() async throws {
        let url = try await ThrowawayPostgres.shared().makeDatabase()
        let key = CookieSigner.randomKey()
        let database = try await Self.open(url, outside: key)
        defer { database.close() }
        let signer = CookieSigner(key: key)
        #expect(try await Self.rows(database) == ["cookie_secret_fingerprint": signer.fingerprint])
        #expect(!signer.fingerprint.contains(DatabaseSecret.hex(key)))
        let id = BrowserID.random()
        #expect(database.signers.current?.browserID(fromCookie: signer.cookieValue(for: id)) == id)
    }

    /// Two dashboards with different secrets would reject each other's cookies: the second refuses to start.
    @Test(.timeLimit(.minutes(2)))
    func aSecondDashboardWithAnotherSecretRefusesToStart() async throws {
        let url = try await ThrowawayPostgres.shared().makeDatabase()
        let first = try await Self.open(url, outside: CookieSigner.randomKey())
        defer { first.close() }
        await #expect(throws: CookieSecretMismatch.fingerprintDiffers) {
            _ = try await DashboardDatabase.open(
                try DatabaseURL(url), logger: .silent, outsideSecret: CookieSigner.randomKey())
        }
        await #expect(throws: CookieSecretMismatch.onlyFingerprintStored) {
            _ = try await DashboardDatabase.open(try DatabaseURL(url), logger: .silent)
        }
    }

    /// The move out keeps every browser's cookie: the secret the database held in clear, put in the file, is
    /// accepted and its clear copy deleted; another secret is refused.
    @Test(.timeLimit(.minutes(2)))
    func theDatabasesClearSecretMovedOutsideKeepsCookiesAndLeavesTheDatabase() async throws {
        let url = try await ThrowawayPostgres.shared().makeDatabase()
        let before = try await Self.open(url, outside: nil)
        let clear = try #require(try await Self.rows(before)["cookie_secret"])
        let cookie = try #require(before.signers.current).cookieValue(for: BrowserID.random())
        before.close()
        await #expect(throws: CookieSecretMismatch.clearSecretDiffers) {
            _ = try await DashboardDatabase.open(
                try DatabaseURL(url), logger: .silent, outsideSecret: CookieSigner.randomKey())
        }
        let after = try await Self.open(url, outside: try #require(DatabaseSecret.bytes(hex: clear)))
        defer { after.close() }
        #expect(after.signers.current?.browserID(fromCookie: cookie) != nil)
        #expect(try await Self.rows(after).keys.sorted() == ["cookie_secret_fingerprint"])
    }
}
