import Postgres

extension Migration {
    /// Migration 1 (issue 19): one row per browser holding the same JSON document as a settings file, its version
    /// (raised by one on every write: the compare-and-set and the notification's payload) and its usage as the file
    /// kept it in mtime and atime (`FileUsage`, nanoseconds since 1970), so expiry and the cap mean what they mean
    /// for files; and the secrets every dashboard of a cluster shares (the cookie key, created once).
    static let settings = Migration(
        1, "settings",
        [
            """
            CREATE TABLE browser_settings (
                browser_id text PRIMARY KEY,
                document text NOT NULL,
                version bigint NOT NULL,
                modified_ns bigint NOT NULL,
                accessed_ns bigint NOT NULL)
            """,
            "CREATE INDEX browser_settings_last_used ON browser_settings ((greatest(modified_ns, accessed_ns)))",
            "CREATE TABLE cluster_secrets (name text PRIMARY KEY, value text NOT NULL)",
        ])
}
