import CCrypto

/// SHA-256 through OpenSSL's libcrypto: the one wrapper, for the settings' digests (`SettingsDigest`) and the render
/// keys' personal parts (`SettingsKey`), where a digest nobody can steer keeps one browser's page from another's.
public enum SHA256Hash {
    /// The 32-byte digest of `bytes`.
    public static func of(_ bytes: [UInt8]) -> [UInt8] {
        var digest = [UInt8](repeating: 0, count: Int(SHA256_DIGEST_LENGTH))
        bytes.withUnsafeBufferPointer { input in
            digest.withUnsafeMutableBufferPointer { output in
                _ = SHA256(input.baseAddress, input.count, output.baseAddress)
            }
        }
        return digest
    }

    /// The digest's `index`th 8 bytes, big-endian, as a number.
    public static func word(_ digest: [UInt8], _ index: Int) -> UInt64 {
        digest[index * 8..<index * 8 + 8].reduce(0) { $0 << 8 | UInt64($1) }
    }
}
