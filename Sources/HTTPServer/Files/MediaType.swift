/// Content types for static files, chosen from the file extension only (never by sniffing the bytes).
enum MediaType {
    /// The `Content-Type` for a file name; unknown extensions are `application/octet-stream`.
    static func forFileName(_ name: String) -> String {
        guard let dot = name.lastIndex(of: ".") else { return "application/octet-stream" }
        let ext = name[name.index(after: dot)...].lowercased()
        return table[ext] ?? "application/octet-stream"
    }

    /// Whether gzip shrinks this type: text, scripts, JSON and SVG do; images, fonts and PDFs are compressed already.
    static func isCompressible(_ contentType: String) -> Bool {
        contentType.hasPrefix("text/") || contentType.hasPrefix("application/json")
            || contentType.hasPrefix("application/manifest+json") || contentType.hasPrefix("application/xml")
            || contentType.hasPrefix("image/svg+xml") || contentType.hasPrefix("application/wasm")
    }

    private static let table: [String: String] = [
        "html": "text/html; charset=utf-8",
        "htm": "text/html; charset=utf-8",
        "css": "text/css; charset=utf-8",
        "js": "text/javascript; charset=utf-8",
        "mjs": "text/javascript; charset=utf-8",
        "json": "application/json",
        "map": "application/json",
        "webmanifest": "application/manifest+json",
        "txt": "text/plain; charset=utf-8",
        "xml": "application/xml",
        "svg": "image/svg+xml",
        "png": "image/png",
        "jpg": "image/jpeg",
        "jpeg": "image/jpeg",
        "gif": "image/gif",
        "webp": "image/webp",
        "avif": "image/avif",
        "ico": "image/x-icon",
        "woff": "font/woff",
        "woff2": "font/woff2",
        "ttf": "font/ttf",
        "otf": "font/otf",
        "pdf": "application/pdf",
        "wasm": "application/wasm",
    ]
}
