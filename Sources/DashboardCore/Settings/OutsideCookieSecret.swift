import Glibc

/// The cookie secret from outside the settings store (issue 48 point 4): a file (`--cookie-secret-file PATH`) or a
/// systemd credential (`LoadCredential=cookie-secret:…`, read from `$CREDENTIALS_DIRECTORY/cookie-secret`), the
/// same on every machine of a cluster.
///
/// With `--database` the secret then never enters the database: it keeps only the secret's fingerprint
/// (`DatabaseSecret`), so whoever holds the connection string cannot forge cookies. The file holds 64 hex digits
/// (`openssl rand -hex 32`; a trailing newline is fine) or the 32 raw bytes.
public enum OutsideCookieSecret {
    /// The credential's name in the systemd unit.
    public static let credentialName = "cookie-secret"

    /// The secret's path: `option` when given, else the systemd credential when the service has one, else nil (the
    /// secret stays where it was: `.cookie-secret` in the settings directory, or the database).
    public static func path(option: String?, environment: [String: String], exists: (String) -> Bool) -> String? {
        if let option { return option }
        guard let directory = environment["CREDENTIALS_DIRECTORY"], !directory.isEmpty else { return nil }
        let path = directory + "/" + credentialName
        return exists(path) ? path : nil
    }

    /// The key in the file at `path`. Throws for a missing file, one of another form, or one that anybody may read
    /// (a group that shares it with the service is fine; every other user is not).
    public static func read(_ path: String) throws(FileIOError) -> [UInt8] {
        guard let (bytes, status) = try FileIO.readIfExists(path, limit: 4096) else {
            throw FileIOError(operation: "read the cookie secret", path: path, code: ENOENT)
        }
        if status.mode & 0o007 != 0 {
            throw FileIOError(
                operation: "read the cookie secret (it must not be readable by others)", path: path, code: EPERM)
        }
        guard let key = key(in: bytes) else {
            throw FileIOError(
                operation: "read the cookie secret (64 hex digits, e.g. `openssl rand -hex 32`)", path: path,
                code: EINVAL)
        }
        return key
    }

    /// The key a file's `bytes` hold: 64 hex digits with optional trailing white space, or exactly 32 bytes.
    static func key(in bytes: [UInt8]) -> [UInt8]? {
        var text = bytes[...]
        while let last = text.last, [0x0A, 0x0D, 0x20, 0x09].contains(last) { text = text.dropLast() }
        if text.count == 2 * CookieSigner.keyLength,
            let key = DatabaseSecret.bytes(hex: String(decoding: text, as: UTF8.self))
        {
            return key
        }
        return bytes.count == CookieSigner.keyLength ? bytes : nil
    }
}
