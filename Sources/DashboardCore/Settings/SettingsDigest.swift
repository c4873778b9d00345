/// The 64-bit content digest of settings bytes (`Versioned.digest`): the first 8 bytes of their SHA-256.
///
/// A cryptographic hash rather than a fast one because a render cache keyed by it is shared between browsers: with
/// a hash anyone can steer, a browser could craft settings that collide with another's and be served that browser's
/// page. 64 bits of SHA-256 make that a 2^64 search.
enum SettingsDigest {
    /// The digest of `bytes`.
    static func of(_ bytes: [UInt8]) -> UInt64 {
        SHA256Hash.word(SHA256Hash.of(bytes), 0)
    }
}
