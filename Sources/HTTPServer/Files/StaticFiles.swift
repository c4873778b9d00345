import Foundation

/// Serves the files under a root directory (Public/) at a URL prefix (`/static/`), from a manifest built
/// once at startup.
///
/// GET and HEAD only. Responses carry `Content-Type` from the extension, a strong `ETag`, and
/// `Cache-Control: no-cache`: asset URLs are not fingerprinted, so a long max-age would keep a stale
/// stylesheet after an upgrade, while `no-cache` + ETag costs one cheap 304 round trip per page load
/// and is always fresh. `If-None-Match` answers 304 (RFC 9110 §13.1.2).
public struct StaticFiles: HTTPResponder {
    private let manifest: FileManifest
    private let prefix: [String]

    /// The `Cache-Control` sent with every file.
    public static let cacheControl = "no-cache"

    /// Loads every file under `root` (dotfiles and symlinks skipped); mount with
    /// `router.add(.get, "/static/*", files)`. Throws if `root` is not a readable directory.
    public init(root: URL, logger: Logger, urlPrefix: String = "/static/") throws {
        self.manifest = try FileManifest(root: root, logger: logger)
        self.prefix = urlPrefix.split(separator: "/").map(String.init)
    }

    /// The relative paths being served, sorted (for logs and tests).
    public var paths: [String] { manifest.entries.keys.sorted() }

    public func respond(to request: Request, context: RequestContext) async throws -> Response {
        guard request.method == .get || request.method == .head else {
            var response = Response.text("Method Not Allowed", status: .methodNotAllowed)
            response.headers.add(name: "Allow", value: "GET, HEAD")
            return response
        }
        guard let segments = request.decodedPathSegments() else {
            throw HTTPError(.badRequest, "Malformed percent-encoding in the path.")
        }
        guard let key = Self.lookupKey(segments, prefix: prefix), let entry = manifest.entries[key] else {
            return .text("Not Found", status: .notFound)
        }
        var headers: HTTPHeaders = [
            "ETag": entry.etag, "Cache-Control": Self.cacheControl, "X-Content-Type-Options": "nosniff",
        ]
        if let condition = request.headers["If-None-Match"], Self.matches(condition, etag: entry.etag) {
            return Response(status: .notModified, headers: headers)
        }
        headers.add(name: "Content-Type", value: entry.contentType)
        return Response(status: .ok, headers: headers, body: entry.bytes)
    }

    /// The manifest key for decoded segments, or nil when they cannot name a served file. The manifest
    /// would miss anyway; refusing `..`, dot-segments, empty segments, and segments holding `/`, `\` or NUL
    /// here keeps the rule visible.
    static func lookupKey(_ segments: [String], prefix: [String]) -> String? {
        guard segments.count > prefix.count, Array(segments[..<prefix.count]) == prefix else { return nil }
        let rest = segments[prefix.count...]
        for segment in rest {
            guard !segment.isEmpty, !segment.hasPrefix("."),
                !segment.utf8.contains(where: { $0 == UInt8(ascii: "/") || $0 == UInt8(ascii: "\\") || $0 == 0 })
            else { return nil }
        }
        return rest.joined(separator: "/")
    }

    /// `If-None-Match` uses weak comparison (RFC 9110 §13.1.2): `W/` prefixes are ignored; `*` matches.
    static func matches(_ condition: String, etag: String) -> Bool {
        for candidate in condition.split(separator: ",") {
            var tag = Request.trimmed(candidate)[...]
            if tag == "*" { return true }
            if tag.hasPrefix("W/") { tag = tag.dropFirst(2) }
            if tag == etag { return true }
        }
        return false
    }
}
