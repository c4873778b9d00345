/// A `postgres://user[:password]@host[:port]/db[?sslmode=…]` URL (`--database`, `DATABASE_URL`) read into libpq's
/// keyword/value pairs: a pure value, so every accepted and refused form is tested without a server.
///
/// The host may be a percent-encoded Unix socket directory (`postgres://me@%2Ftmp%2Fpg/habits`), as libpq's own URIs
/// allow. Only the query keys libpq documents for a connection and that a deployment needs are accepted; anything
/// else is refused, so a typo (`sslmod=`) fails at start instead of silently connecting without TLS.
public struct DatabaseURL: Equatable, Sendable {
    /// libpq connection keywords and their values, in a stable order (`PQconnectStartParams` takes them as two arrays).
    public let parameters: [(key: String, value: String)]

    /// Query keys the URL may carry.
    public static let allowedQueryKeys: Set<String> = [
        "sslmode", "sslrootcert", "sslcert", "sslkey", "application_name", "connect_timeout", "target_session_attrs",
    ]

    /// Why a URL is refused: one line naming what is wrong (never the password).
    public enum ParseError: Error, Equatable, CustomStringConvertible {
        case scheme, missingHost, missingDatabase
        case badPort(String)
        case badEscape
        case unknownQueryKey(String)

        public var description: String {
            switch self {
            case .scheme: "must start with postgres:// or postgresql://"
            case .missingHost: "names no host (a name, an address, or a percent-encoded socket directory)"
            case .missingDatabase: "names no database (…/dbname)"
            case .badPort(let port): "has a port that is not 1…65535: \(port)"
            case .badEscape: "has a malformed percent escape"
            case .unknownQueryKey(let key): "has an unknown parameter \(key) (allowed: sslmode, application_name, …)"
            }
        }
    }

    /// Parses `text`.
    public init(_ text: String) throws(ParseError) {
        var rest = Substring(text)
        guard let schemeEnd = rest.range(of: "://"),
            ["postgres", "postgresql"].contains(rest[..<schemeEnd.lowerBound].lowercased())
        else { throw .scheme }
        rest = rest[schemeEnd.upperBound...]
        var query = Substring("")
        if let mark = rest.firstIndex(of: "?") {
            query = rest[rest.index(after: mark)...]
            rest = rest[..<mark]
        }
        guard let slash = rest.firstIndex(of: "/") else { throw .missingDatabase }
        let database = try Self.decode(rest[rest.index(after: slash)...])
        guard !database.isEmpty else { throw .missingDatabase }
        var authority = rest[..<slash]
        var pairs: [(key: String, value: String)] = []
        if let at = authority.lastIndex(of: "@") {
            let userInfo = authority[..<at]
            authority = authority[authority.index(after: at)...]
            if let colon = userInfo.firstIndex(of: ":") {
                pairs.append(("user", try Self.decode(userInfo[..<colon])))
                pairs.append(("password", try Self.decode(userInfo[userInfo.index(after: colon)...])))
            } else if !userInfo.isEmpty {
                pairs.append(("user", try Self.decode(userInfo)))
            }
        }
        let (host, port) = try Self.splitHostPort(authority)
        guard !host.isEmpty else { throw .missingHost }
        pairs.insert(("host", host), at: 0)
        if let port { pairs.insert(("port", port), at: 1) }
        pairs.append(("dbname", database))
        for item in query.split(separator: "&") where !item.isEmpty {
            let parts = item.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let key = try Self.decode(parts[0])
            guard Self.allowedQueryKeys.contains(key) else { throw .unknownQueryKey(key) }
            pairs.append((key, parts.count > 1 ? try Self.decode(parts[1]) : ""))
        }
        parameters = pairs
    }

    /// The value of `key`, if the URL gave one.
    public func value(_ key: String) -> String? { parameters.first { $0.key == key }?.value }

    /// The URL's target without its password, for logs and `/healthz` (`me@/tmp/pg:5432/habits`).
    public var redacted: String {
        let user = value("user").map { "\($0)@" } ?? ""
        let port = value("port").map { ":\($0)" } ?? ""
        return "\(user)\(value("host") ?? "")\(port)/\(value("dbname") ?? "")"
    }

    public static func == (left: DatabaseURL, right: DatabaseURL) -> Bool {
        left.parameters.elementsEqual(right.parameters) { $0.key == $1.key && $0.value == $1.value }
    }

    /// Splits `host[:port]`, `[v6]:port` or a decoded socket directory (which may itself hold no colon).
    private static func splitHostPort(_ authority: Substring) throws(ParseError) -> (String, String?) {
        var hostPart = authority
        var portPart: Substring?
        if authority.hasPrefix("[") {
            guard let close = authority.firstIndex(of: "]") else { throw .missingHost }
            hostPart = authority[authority.index(after: authority.startIndex)..<close]
            let after = authority[authority.index(after: close)...]
            if after.hasPrefix(":") { portPart = after.dropFirst() } else if !after.isEmpty { throw .missingHost }
        } else if let colon = authority.lastIndex(of: ":") {
            hostPart = authority[..<colon]
            portPart = authority[authority.index(after: colon)...]
        }
        if let portPart {
            guard let number = Int(portPart), (1...65_535).contains(number) else { throw .badPort(String(portPart)) }
            return (try decode(hostPart), String(number))
        }
        return (try decode(hostPart), nil)
    }

    /// Percent-decodes `text` (RFC 3986 §2.1) as UTF-8.
    private static func decode(_ text: Substring) throws(ParseError) -> String {
        var bytes: [UInt8] = []
        var iterator = text.utf8.makeIterator()
        while let byte = iterator.next() {
            guard byte == UInt8(ascii: "%") else {
                bytes.append(byte)
                continue
            }
            guard let high = iterator.next().flatMap(hexValue), let low = iterator.next().flatMap(hexValue) else {
                throw .badEscape
            }
            bytes.append(high << 4 | low)
        }
        guard let decoded = String(validating: bytes, as: UTF8.self), !decoded.utf8.contains(0) else {
            throw .badEscape
        }
        return decoded
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
