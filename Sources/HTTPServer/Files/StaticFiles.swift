import Foundation
import HTTPCore
import Logging

/// Serves the files under a root directory (Public/) at a URL prefix (`/static/`), from a manifest built
/// once at startup.
///
/// Every file is served under two names (issue 14):
/// - its fingerprinted name, `app.<digest>.css`, which `url(for:)` gives templates: the name changes whenever a
///   byte does, so browsers may keep it for a year without asking again (`public, max-age=31536000, immutable`);
/// - its plain name, `app.css`, for anything that still asks for it: `no-cache`, so it is revalidated (a cheap 304
///   with the strong `ETag`) and never stale after an upgrade.
///
/// Text types are gzipped once at start and sent encoded when `Accept-Encoding` allows it, each encoding with its
/// own `ETag` and `Vary: Accept-Encoding`. GET and HEAD only; `If-None-Match` answers 304 (RFC 9110 §13.1.2).
public struct StaticFiles: HTTPResponder {
    private let manifest: FileManifest
    private let prefix: [String]
    /// Fingerprinted name → manifest key.
    private let fingerprinted: [String: String]
    /// Manifest key → fingerprinted URL.
    private let urls: [String: String]

    /// The `Cache-Control` of a plain name.
    public static let cacheControl = "no-cache"
    /// The `Cache-Control` of a fingerprinted name: its bytes can never change.
    public static let immutableCacheControl = "public, max-age=31536000, immutable"

    /// Loads every file under `root` (dotfiles and symlinks skipped); mount with
    /// `router.add(.get, "/static/*", files)`. Throws if `root` is not a readable directory.
    public init(root: URL, logger: Logger, urlPrefix: String = "/static/") throws {
        let manifest = try FileManifest(root: root, logger: logger)
        self.manifest = manifest
        prefix = urlPrefix.split(separator: "/").map(String.init)
        var fingerprinted: [String: String] = [:]
        var urls: [String: String] = [:]
        let base = "/" + prefix.joined(separator: "/") + "/"
        for (key, entry) in manifest.entries {
            let name = FileManifest.fingerprintedName(key, fingerprint: entry.fingerprint)
            fingerprinted[name] = key
            urls[key] = base + name
        }
        self.fingerprinted = fingerprinted
        self.urls = urls
    }

    /// The relative paths being served, sorted (for logs and tests).
    public var paths: [String] { manifest.entries.keys.sorted() }

    /// The fingerprinted URL of `path` (`app.css` → `/static/app.1f3a….css`) for templates to link, or nil when no
    /// such file is served.
    public func url(for path: String) -> String? { urls[path] }

    /// Awaited like any handler (it was before issue 45 point 3): served on the handler task, not the event loop.
    public func respond(to request: Request, context: RequestContext) -> Answer {
        .later { try serve(request) }
    }

    /// The file `request` names, or the 404/405 it gets.
    func serve(_ request: Request) throws -> Response {
        guard request.method == .get || request.method == .head else {
            var response = Response.text("Method Not Allowed", status: .methodNotAllowed)
            response.headers.add(name: "Allow", value: "GET, HEAD")
            return response
        }
        guard let segments = request.decodedPathSegments() else {
            throw HTTPError(.badRequest, "Malformed percent-encoding in the path.")
        }
        guard let name = Self.lookupKey(segments, prefix: prefix) else {
            return .text("Not Found", status: .notFound)
        }
        let immutable: Bool
        let entry: FileManifest.Entry
        if let plain = manifest.entries[name] {
            (entry, immutable) = (plain, false)
        } else if let key = fingerprinted[name], let hashed = manifest.entries[key] {
            (entry, immutable) = (hashed, true)
        } else {
            return .text("Not Found", status: .notFound)
        }
        let gzip = entry.gzipped != nil && AcceptEncoding.allowsGzip(request.headers["Accept-Encoding"])
        let etag = gzip ? entry.gzipETag ?? entry.etag : entry.etag
        var headers: HTTPHeaders = [
            "ETag": etag, "Cache-Control": immutable ? Self.immutableCacheControl : Self.cacheControl,
            "X-Content-Type-Options": "nosniff",
        ]
        if entry.gzipped != nil { headers.add(name: "Vary", value: "Accept-Encoding") }
        if IfNoneMatch.matches(request.headers["If-None-Match"], etag: etag) {
            return Response(status: .notModified, headers: headers)
        }
        headers.add(name: "Content-Type", value: entry.contentType)
        if gzip, let body = entry.gzipped {
            headers.add(name: "Content-Encoding", value: "gzip")
            return Response(status: .ok, headers: headers, body: body)
        }
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
}
