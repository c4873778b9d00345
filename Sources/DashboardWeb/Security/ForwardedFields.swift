import DashboardCore
import HTTPCore

/// What a proxy says about the request it received: the scheme and the host the browser used, from RFC 7239
/// `Forwarded` (which wins when present) or `X-Forwarded-Proto` / `X-Forwarded-Host`.
///
/// Read only from a `--trusted-proxy` (`SitePolicy` decides): anyone else can send these fields. Each proxy appends
/// its element, so the right-most one is the nearest proxy's, the only one a trusted proxy vouches for.
public struct ForwardedFields: Equatable, Sendable {
    /// `http` or `https`; nil when not said (or anything else).
    public var proto: String?
    /// `host[:port]`; nil when not said.
    public var host: String?

    /// Creates the fields.
    public init(proto: String? = nil, host: String? = nil) {
        self.proto = proto
        self.host = host
    }

    /// The fields of `headers`.
    public init(_ headers: HTTPHeaders) {
        let forwarded = headers.values(for: "Forwarded")
        if !forwarded.isEmpty {
            self = Self.parseForwarded(forwarded)
            return
        }
        self.init(
            proto: Self.last(headers.values(for: "X-Forwarded-Proto")).flatMap(Self.scheme),
            host: Self.last(headers.values(for: "X-Forwarded-Host")))
    }

    /// RFC 7239 §4: `Forwarded: for=1.2.3.4;proto=https;host=example.org, for=…`; the last element's `proto` and
    /// `host`, a quoted value unquoted.
    static func parseForwarded(_ fields: [String]) -> ForwardedFields {
        guard let element = fields.flatMap({ $0.split(separator: ",") }).last else { return ForwardedFields() }
        var result = ForwardedFields()
        for pair in element.split(separator: ";") {
            guard let equals = pair.firstIndex(of: "=") else { continue }
            let name = pair[..<equals].trimmingASCIIWhitespace().lowercased()
            var value = Substring(pair[pair.index(after: equals)...].trimmingASCIIWhitespace())
            if value.count >= 2, value.first == "\"", value.last == "\"" { value = value.dropFirst().dropLast() }
            switch name {
            case "proto": result.proto = scheme(String(value))
            case "host": result.host = value.isEmpty ? nil : String(value)
            default: break
            }
        }
        return result
    }

    /// The right-most non-empty entry of a comma list spread over `fields`.
    private static func last(_ fields: [String]) -> String? {
        let entries = fields.flatMap { $0.split(separator: ",") }.map { String($0.trimmingASCIIWhitespace()) }
        return entries.last.flatMap { $0.isEmpty ? nil : $0 }
    }

    private static func scheme(_ value: String) -> String? {
        let lowered = value.lowercased()
        return lowered == "http" || lowered == "https" ? lowered : nil
    }
}
