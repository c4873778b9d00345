import Postgres

/// The cluster's cookie secret in `cluster_secrets`: created once for every dashboard sharing the database (the
/// first `INSERT … ON CONFLICT DO NOTHING` wins, whole, and everyone reads the winner), so a cookie minted by one
/// dashboard verifies on all of them.
enum DatabaseSecret {
    /// The row's name.
    static let name = "cookie_secret"

    /// The signer for the cluster, creating the secret when there is none; `proposed` is what to store if so (a
    /// settings directory's secret, on import).
    static func loadOrCreate(pool: PostgresPool, proposed: [UInt8]? = nil) async throws -> CookieSigner {
        let key = proposed ?? CookieSigner.randomKey()
        _ = try await pool.run(
            Statement(
                "INSERT INTO cluster_secrets (name, value) VALUES ($1, $2) ON CONFLICT (name) DO NOTHING",
                [name, hex(key)], idempotent: true))
        let stored = try await pool.run(
            Statement("SELECT value FROM cluster_secrets WHERE name = $1", [name], idempotent: true))
        guard let text = stored.value("value"), let bytes = bytes(hex: text), bytes.count == CookieSigner.keyLength
        else {
            throw PostgresError.server(sqlState: "22000", message: "cluster_secrets.\(name) is not a 32-byte hex key")
        }
        return CookieSigner(key: bytes)
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
