/// A cookie to set on the client, rendered as one `Set-Cookie` field (RFC 6265 §4.1).
public struct Cookie: Sendable, Equatable {
    /// The `SameSite` attribute.
    public enum SameSite: String, Sendable {
        /// Sent on same-site requests and top-level navigations (browsers' default).
        case lax = "Lax"
        /// Sent on same-site requests only.
        case strict = "Strict"
        /// Sent everywhere; browsers require `Secure` with it.
        case none = "None"
    }

    /// The cookie name; must be an RFC 9110 token.
    public var name: String
    /// The cookie value; bytes outside RFC 6265 cookie-octets are percent-encoded when rendered.
    public var value: String
    /// Lifetime in seconds (`Max-Age`); nil for a session cookie, 0 or less deletes the cookie.
    public var maxAge: Int?
    /// The `Path` attribute.
    public var path: String?
    /// Hides the cookie from scripts.
    public var httpOnly: Bool
    /// Sends the cookie over HTTPS only.
    public var secure: Bool
    /// The `SameSite` attribute; nil leaves it out.
    public var sameSite: SameSite?

    /// Creates a cookie; the defaults suit a first-party settings cookie (`Path=/; HttpOnly; SameSite=Lax`).
    public init(
        name: String, value: String, maxAge: Int? = nil, path: String? = "/", httpOnly: Bool = true,
        secure: Bool = false, sameSite: SameSite? = .lax
    ) {
        self.name = name
        self.value = value
        self.maxAge = maxAge
        self.path = path
        self.httpOnly = httpOnly
        self.secure = secure
        self.sameSite = sameSite
    }

    /// The `Set-Cookie` field value, e.g. `browser=abc; Max-Age=31536000; Path=/; HttpOnly; SameSite=Lax`.
    ///
    /// Every byte a header could be split or an attribute injected with (CR, LF, `;`, `,`, space, quotes,
    /// control bytes) is percent-encoded, so a hostile value can never add a header or an attribute.
    public var headerValue: String {
        var out = Self.encode(name, allowed: Self.isTokenByte) + "=" + Self.encode(value, allowed: Self.isCookieOctet)
        if let maxAge { out += "; Max-Age=\(maxAge)" }
        if let path { out += "; Path=" + Self.encode(path, allowed: Self.isPathValueByte) }
        if secure { out += "; Secure" }
        if httpOnly { out += "; HttpOnly" }
        if let sameSite { out += "; SameSite=\(sameSite.rawValue)" }
        return out
    }

    /// `text` with every byte outside `allowed`, and every `%`, as `%XX`: reversible, so two values never render
    /// alike (Fuzz/FormsFuzz found the fast path letting `%` through when nothing else needed encoding).
    static func encode(_ text: String, allowed: (UInt8) -> Bool) -> String {
        guard !text.utf8.allSatisfy({ allowed($0) && $0 != UInt8(ascii: "%") }) else { return text }
        var out: [UInt8] = []
        let hex = Array("0123456789ABCDEF".utf8)
        for byte in text.utf8 {
            if allowed(byte) && byte != UInt8(ascii: "%") {
                out.append(byte)
            } else {
                out += [UInt8(ascii: "%"), hex[Int(byte >> 4)], hex[Int(byte & 0x0F)]]
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// RFC 6265 cookie-octet: visible ASCII except `"`, `,`, `;` and `\`.
    static func isCookieOctet(_ byte: UInt8) -> Bool {
        byte == 0x21 || (0x23...0x2B).contains(byte) || (0x2D...0x3A).contains(byte) || (0x3C...0x5B).contains(byte)
            || (0x5D...0x7E).contains(byte)
    }

    /// Path attribute values: any visible ASCII except `;` (RFC 6265 av-octet without CTLs).
    static func isPathValueByte(_ byte: UInt8) -> Bool {
        (0x21...0x7E).contains(byte) && byte != UInt8(ascii: ";")
    }

    /// RFC 9110 tchar.
    static func isTokenByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"):
            true
        default: Array("!#$%&'*+-.^_`|~".utf8).contains(byte)
        }
    }
}
