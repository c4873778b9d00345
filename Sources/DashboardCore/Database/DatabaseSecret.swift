import Postgres

/// The cluster's cookie secret in `cluster_secrets`: created once for every dashboard sharing the database (the
/// first `INSERT … ON CONFLICT DO NOTHING` wins, whole, and everyone reads the winner), so a cookie minted by one
/// dashboard verifies on all of them.
///
/// With a secret from outside (`OutsideCookieSecret`, issue 48 point 4) the database keeps only its fingerprint
/// (`CookieSigner.fingerprint`, row `cookie_secret_fingerprint`): the first dashboard's wins the same way, and a
/// dashboard whose secret has another fingerprint refuses to start (`CookieSecretMismatch`) rather than reject the
/// others' cookies. A secret the database held in clear that equals the outside one is deleted (the move out keeps
/// every browser's cookie); one that differs is a mismatch too.
enum DatabaseSecret {
    /// The row's name.
    static let name = "cookie_secret"
    /// The row of an outside secret's fingerprint.
    static let fingerprintName = "cookie_secret_fingerprint"

    /// The signer for the cluster, creating the secret when there is none; `proposed` is what to store if so (a
    /// settings directory's secret, on import). With `outside`, that secret's signer, once the database agrees.
    static func loadOrCreate(
        pool: PostgresPool, proposed: [UInt8]? = nil, outside: [UInt8]? = nil
    ) async throws -> CookieSigner {
        if let outside { return try await check(outside, pool: pool) }
        if try await value(fingerprintName, pool: pool) != nil { throw CookieSecretMismatch.onlyFingerprintStored }
        let key = proposed ?? CookieSigner.randomKey()
        _ = try await pool.run(
            Statement(
                "INSERT INTO cluster_secrets (name, value) VALUES ($1, $2) ON CONFLICT (name) DO NOTHING",
                [name, hex(key)], idempotent: true))
        guard let text = try await value(name, pool: pool), let bytes = bytes(hex: text),
            bytes.count == CookieSigner.keyLength
        else {
            throw PostgresError.server(sqlState: "22000", message: "cluster_secrets.\(name) is not a 32-byte hex key")
        }
        return CookieSigner(key: bytes)
    }

    /// The signer of the `outside` secret, once its fingerprint is the cluster's (stored if there is none yet).
    private static func check(_ outside: [UInt8], pool: PostgresPool) async throws -> CookieSigner {
        let signer = CookieSigner(key: outside)
        if let stored = try await value(name, pool: pool) {
            guard bytes(hex: stored) == outside else { throw CookieSecretMismatch.clearSecretDiffers }
        }
        _ = try await pool.run(
            Statement(
                "INSERT INTO cluster_secrets (name, value) VALUES ($1, $2) ON CONFLICT (name) DO NOTHING",
                [fingerprintName, signer.fingerprint], idempotent: true))
        guard try await value(fingerprintName, pool: pool) == signer.fingerprint else {
            throw CookieSecretMismatch.fingerprintDiffers
        }
        // The same secret, now kept outside: the clear copy goes, so the connection string no longer gives it.
        _ = try await pool.run(
            Statement("DELETE FROM cluster_secrets WHERE name = $1", [name], idempotent: true))
        return signer
    }

    /// The value of the row `row`, if there is one.
    private static func value(_ row: String, pool: PostgresPool) async throws -> String? {
        try await pool.run(
            Statement("SELECT value FROM cluster_secrets WHERE name = $1", [row], idempotent: true)
        ).value("value")
    }

    static func hex(_ bytes: [UInt8]) -> String {
        bytes.map { String($0, radix: 16).leftPadded(to: 2) }.joined()
    }

    static func bytes(hex text: String) -> [UInt8]? {
        let digits = Array(text.utf8)
        guard digits.count % 2 == 0 else { return nil }
        var bytes: [UInt8] = []
        for index in stride(from: 0, to: digits.count, by: 2) {
            guard let byte = UInt8(String(decoding: digits[index..<index + 2], as: UTF8.self), radix: 16) else {
                return nil
            }
            bytes.append(byte)
        }
        return bytes
    }
}

extension String {
    fileprivate func leftPadded(to width: Int) -> String {
        String(repeating: "0", count: max(0, width - count)) + self
    }
}
