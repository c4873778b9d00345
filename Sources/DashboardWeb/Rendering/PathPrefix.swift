import DashboardCore

/// The path a proxy serves the dashboard under (`--public-url https://example.org/habits/` → `/habits`), put on every
/// URL the dashboard writes: links, form actions, assets, live-poll sources and redirects (issue 20).
///
/// The proxy strips the prefix from requests, so routes, view models and templates all speak in site paths (`/`,
/// `/habits/Yoga`) and this is the one place that turns them into public ones. Rendered HTML is rewritten as bytes:
/// a root-relative value of `href`, `action`, `src` or `data-live-src` gets the prefix. Only our templates can write
/// those attribute openings, because every template value has its `"` escaped, so text from the upstream can never
/// look like one; `live.js` reads its poll URL and form targets from those attributes, so it needs no copy of the
/// prefix.
public struct PathPrefix: Equatable, Sendable {
    /// `""` (no prefix) or a path without a trailing slash (`/habits`).
    public let value: String
    private let bytes: [UInt8]

    /// Creates a prefix; `""` changes nothing.
    public init(_ value: String) {
        self.value = value
        self.bytes = Array(value.utf8)
    }

    /// No prefix.
    public static let none = PathPrefix("")

    /// The attributes whose root-relative values are our URLs.
    private static let attributes: [[UInt8]] = ["href", "action", "src", "data-live-src"].map { Array($0.utf8) }

    /// `path` under the prefix when it is root-relative (`/x` → `/habits/x`); anything else (`//host`, `http:`,
    /// `#id`) as it is.
    public func url(_ path: String) -> String {
        guard !value.isEmpty, isRootRelative(path.utf8.first, path.utf8.dropFirst().first) else { return path }
        return value + path
    }

    /// `html` with the prefix on every root-relative URL attribute value.
    public func html(_ html: [UInt8]) -> [UInt8] {
        guard !value.isEmpty else { return html }
        var out: [UInt8] = []
        out.reserveCapacity(html.count + 256)
        var index = 0
        while index < html.count {
            let byte = html[index]
            out.append(byte)
            index += 1
            // At `="` of a known attribute, followed by a root-relative path: write the prefix before the path.
            guard byte == UInt8(ascii: "\""), index >= 2, html[index - 2] == UInt8(ascii: "="), index < html.count,
                isRootRelative(html[index], index + 1 < html.count ? html[index + 1] : nil),
                endsWithAttributeName(html, before: index - 2)
            else { continue }
            out.append(contentsOf: bytes)
        }
        return out
    }

    /// Whether `first`, `second` open a root-relative path: `/` not followed by another `/`.
    private func isRootRelative(_ first: UInt8?, _ second: UInt8?) -> Bool {
        first == UInt8(ascii: "/") && second != UInt8(ascii: "/")
    }

    /// Whether `html[..<end]` ends with ` <attribute>` for one of `attributes`.
    private func endsWithAttributeName(_ html: [UInt8], before end: Int) -> Bool {
        for name in Self.attributes where end > name.count {
            let start = end - name.count
            if html[start..<end].elementsEqual(name), html[start - 1] == UInt8(ascii: " ") { return true }
        }
        return false
    }
}
