import CCrypto

/// Signs and checks the settings cookie: `<id>.<tag>`, the 22-character `BrowserID` and a 43-character base64url
/// HMAC-SHA-256 of it under a per-installation secret (issue 8: a forged or guessed id must never reach the disk).
///
/// Without the tag any well-formed id was honoured, so a script could create one settings file per request with ids
/// of its own choosing. Now only ids this installation issued name a file; anything else, including the untagged
/// cookies of earlier versions, is treated exactly like no cookie. `.` separates the parts: it is a cookie-octet
/// (RFC 6265 §4.1.1) and not in the base64url alphabet, so the split is unambiguous.
public struct CookieSigner: Sendable {
    /// The secret's length in bytes (the HMAC-SHA-256 block size allows up to 64; 32 is the output size).
    public static let keyLength = 32

    /// The tag's length: 32 bytes as unpadded base64url.
    static let tagLength = 43

    private let key: [UInt8]

    /// A signer with `key` (exactly `keyLength` bytes).
    public init(key: [UInt8]) {
        precondition(key.count == Self.keyLength, "a cookie key is \(Self.keyLength) bytes")
        self.key = key
    }

    /// A signer with a fresh random key that lives only in memory (tests; every cookie dies with the process).
    public static func ephemeral() -> CookieSigner { CookieSigner(key: randomKey()) }

    /// A fresh random key of `keyLength` bytes.
    public static func randomKey() -> [UInt8] {
        var generator = SystemRandomNumberGenerator()
        return (0..<keyLength).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
    }

    /// The cookie value for `id`: `<id>.<tag>`.
    public func cookieValue(for id: BrowserID) -> String {
        id.rawValue + "." + String(decoding: tag(for: id), as: UTF8.self)
    }

    /// The id a cookie value names, if its tag verifies; nil for anything else (no tag, a wrong tag, a bad id).
    public func browserID(fromCookie value: String) -> BrowserID? {
        let bytes = Array(value.utf8)
        // The length is public (every valid cookie has it), so checking it first leaks nothing about the tag.
        guard bytes.count == BrowserID.length + 1 + Self.tagLength, bytes[BrowserID.length] == UInt8(ascii: ".")
        else { return nil }
        guard let id = BrowserID(String(decoding: bytes[..<BrowserID.length], as: UTF8.self)) else { return nil }
        return Self.same(tag(for: id), Array(bytes[(BrowserID.length + 1)...])) ? id : nil
    }

    /// `<value>.<tag>` for a short value signed under `label` (the last-visit cookie, issue 22); `value` must not
    /// contain a `.`.
    public func signed(_ value: String, label: String) -> String {
        value + "." + String(decoding: tag(label: label, value: value), as: UTF8.self)
    }

    /// The value of a cookie made by `signed(_:label:)` under `label`, if its tag verifies; nil for anything else.
    public func verified(_ cookie: String, label: String) -> String? {
        let bytes = Array(cookie.utf8)
        guard bytes.count > Self.tagLength + 1, bytes[bytes.count - Self.tagLength - 1] == UInt8(ascii: ".") else {
            return nil
        }
        let value = String(decoding: bytes[..<(bytes.count - Self.tagLength - 1)], as: UTF8.self)
        guard !value.contains(".") else { return nil }
        return Self.same(tag(label: label, value: value), Array(bytes.suffix(Self.tagLength))) ? value : nil
    }

    /// A fingerprint of the key, safe to store where the key must not be (issue 48 point 4): its HMAC under a fixed
    /// label, which tells two keys apart and gives nothing to sign with.
    public var fingerprint: String {
        String(decoding: tag(label: "habits-cookie-secret-fingerprint-v1", value: ""), as: UTF8.self)
    }

    /// The keyed digest of `id` a settings notification carries instead of the id (issue 48 point 4): a dashboard
    /// with the cluster's key can match it against the ids it holds; anyone else listening learns nothing.
    public func notificationDigest(of id: BrowserID) -> String {
        String(decoding: tag(label: "habits-settings-notification-v1:", value: id.rawValue), as: UTF8.self)
    }

    /// Whether two tags are equal, in constant time, so the answer's timing tells a forger nothing about how many
    /// leading bytes were right.
    private static func same(_ expected: [UInt8], _ given: [UInt8]) -> Bool {
        guard expected.count == tagLength, given.count == tagLength else { return false }
        let differs = expected.withUnsafeBytes { left in
            given.withUnsafeBytes { right in CRYPTO_memcmp(left.baseAddress, right.baseAddress, tagLength) }
        }
        return differs == 0
    }

    /// The base64url tag of `id`.
    func tag(for id: BrowserID) -> [UInt8] { tag(label: "habits-browser-id-v1:", value: id.rawValue) }

    /// The base64url tag of `value` under `label`. The message carries a label and a version, so a tag made for
    /// anything else under the same key can never pass for this one.
    private func tag(label: String, value: String) -> [UInt8] {
        let message = Array(label.utf8) + Array(value.utf8)
        var digest = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
        var length: UInt32 = 0
        let result = key.withUnsafeBytes { keyBytes in
            message.withUnsafeBytes { messageBytes in
                digest.withUnsafeMutableBytes { out in
                    HMAC(
                        EVP_sha256(), keyBytes.baseAddress, Int32(keyBytes.count),
                        messageBytes.baseAddress?.assumingMemoryBound(to: UInt8.self), messageBytes.count,
                        out.baseAddress?.assumingMemoryBound(to: UInt8.self), &length)
                }
            }
        }
        // HMAC fails only when libcrypto cannot allocate; a cookie must never be issued without its tag.
        precondition(result != nil && length == 32, "HMAC-SHA-256 failed")
        return Base64URL.encode(digest[0..<32])
    }
}
