import Glibc

/// An IPv4 or IPv6 address, held as 16 bytes (IPv4 as `::ffff:a.b.c.d`, RFC 4291 §2.5.5.2, so a v4 peer seen
/// through a dual-stack socket and the same address written plainly are one address).
///
/// The server reads a connection's peer into one from the accepted socket's own bytes (`RequestContext.peer`), so
/// nothing after it parses the peer's text again; the text form is for addresses that arrive as text (proxies'
/// `X-Forwarded-For`, configured ranges).
public struct IPAddress: Hashable, Sendable, CustomStringConvertible {
    /// The 16 bytes, network order.
    public let bytes: [UInt8]

    /// Parses `1.2.3.4`, `::1`, and the forms peers and proxies write with a port: `1.2.3.4:80`, `[::1]:80`,
    /// `[::1]`. Nil for anything else (host names, zone ids, junk): an address is never guessed.
    public init?(_ text: some StringProtocol) {
        var host = Substring(text)
        if host.first == "[" {
            guard let close = host.firstIndex(of: "]") else { return nil }
            let rest = host[host.index(after: close)...]
            guard rest.isEmpty || (rest.first == ":" && rest.dropFirst().allSatisfy(\.isNumber) && rest.count > 1)
            else { return nil }
            host = host[host.index(after: host.startIndex)..<close]
        } else if host.filter({ $0 == ":" }).count == 1, let colon = host.firstIndex(of: ":") {
            host = host[..<colon]
        }
        var v4 = in_addr()
        var v6 = in6_addr()
        if inet_pton(AF_INET, String(host), &v4) == 1 {
            bytes = [UInt8](repeating: 0, count: 10) + [0xFF, 0xFF] + withUnsafeBytes(of: &v4) { Array($0) }
        } else if inet_pton(AF_INET6, String(host), &v6) == 1 {
            bytes = withUnsafeBytes(of: &v6) { Array($0) }
        } else {
            return nil
        }
    }

    /// Whether it is an IPv4 address.
    public var isIPv4: Bool { bytes.prefix(12) == [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xFF, 0xFF] }

    /// The canonical text (`192.0.2.1`, `2001:db8::1`).
    public var description: String {
        var text = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN))
        if isIPv4 {
            var v4 = in_addr()
            withUnsafeMutableBytes(of: &v4) { $0.copyBytes(from: bytes.suffix(4)) }
            _ = inet_ntop(AF_INET, &v4, &text, socklen_t(text.count))
        } else {
            var v6 = in6_addr()
            withUnsafeMutableBytes(of: &v6) { $0.copyBytes(from: bytes) }
            _ = inet_ntop(AF_INET6, &v6, &text, socklen_t(text.count))
        }
        return String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// The key a per-client limit counts under: an IPv4 address, or an IPv6 address's /64. One IPv6 subscriber is
    /// handed a whole /64 (RFC 6177), so counting single IPv6 addresses would give one client 2^64 allowances.
    public var clientKey: String {
        if isIPv4 { return description }
        return IPAddress(bytes: Array(bytes.prefix(8)) + [UInt8](repeating: 0, count: 8)).description + "/64"
    }

    /// The address of an IPv4 or IPv6 socket address (its port dropped); nil for any other family.
    init?(socketAddress storage: sockaddr_storage) {
        var storage = storage
        switch Int32(storage.ss_family) {
        case AF_INET:
            let v4 = withUnsafePointer(to: &storage) {
                $0.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { $0.pointee.sin_addr }
            }
            bytes = [UInt8](repeating: 0, count: 10) + [0xFF, 0xFF] + withUnsafeBytes(of: v4) { Array($0) }
        case AF_INET6:
            let v6 = withUnsafePointer(to: &storage) {
                $0.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { $0.pointee.sin6_addr }
            }
            bytes = withUnsafeBytes(of: v6) { Array($0) }
        default:
            return nil
        }
    }

    /// An address from its 16 bytes.
    public init(bytes: [UInt8]) {
        precondition(bytes.count == 16, "an address is 16 bytes")
        self.bytes = bytes
    }
}
