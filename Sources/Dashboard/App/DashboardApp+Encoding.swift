import Compression
import HTTPCore
import HTTPServer

/// Rendered bytes on the wire: gzip when the request accepts it (issue 14), compressed once per rendering by the
/// render cache, so a warm compressed page costs no compression.
///
/// Each encoding is its own representation with its own strong ETag (RFC 9110 §8.8.3): the gzip tag is the
/// identity tag with `-gzip` inside the quotes. Both name the same content, so `If-None-Match` with either one means
/// "I have this page": a page embeds its fragment's identity tag, and `live.js` keeps whichever tag it last saw,
/// so a poll must stay a 304 (and keep waiting) whichever it sends. The 304 carries the selected representation's
/// tag, and `Vary: Accept-Encoding` goes on every answer whose bytes could have been either.
extension DashboardApp {
    /// Whether `request`'s `If-None-Match` names `entry` in any encoding.
    func hasCurrentCopy(_ request: Request, of entry: RenderCache.Entry) -> Bool {
        let condition = request.headers["If-None-Match"]
        return IfNoneMatch.matches(condition, etag: entry.entityTag)
            || IfNoneMatch.matches(condition, etag: EntityTag.gzipVariant(of: entry.entityTag))
    }

    /// A 200 with the entry's bytes, gzipped when the request accepts it and the body is big enough to gain.
    func ok(_ entry: RenderCache.Entry, _ request: Request, contentType: String = "text/html; charset=utf-8")
        -> Response
    {
        var response = Response(status: .ok, headers: ["Content-Type": contentType], body: entry.body)
        guard Self.compressible(entry) else {
            response.headers.add(name: "ETag", value: entry.entityTag)
            return response
        }
        response.headers.add(name: "Vary", value: "Accept-Encoding")
        if AcceptEncoding.allowsGzip(request.headers["Accept-Encoding"]) {
            response.body = renderCache.gzipped(entry)
            response.headers.add(name: "Content-Encoding", value: "gzip")
            response.headers.add(name: "ETag", value: EntityTag.gzipVariant(of: entry.entityTag))
        } else {
            response.headers.add(name: "ETag", value: entry.entityTag)
        }
        return response
    }

    /// A 304 for `entry` with only what RFC 9110 §15.4.5 asks of it: the selected representation's ETag, and
    /// `Vary` (the server adds `Date`; `SecurityHeaders` adds `Cache-Control` and `nosniff`). Under 300 bytes.
    func notModified(_ entry: RenderCache.Entry, _ request: Request) -> Response {
        guard Self.compressible(entry) else {
            return Response(status: .notModified, headers: ["ETag": entry.entityTag])
        }
        let gzip = AcceptEncoding.allowsGzip(request.headers["Accept-Encoding"])
        let tag = gzip ? EntityTag.gzipVariant(of: entry.entityTag) : entry.entityTag
        return Response(status: .notModified, headers: ["ETag": tag, "Vary": "Accept-Encoding"])
    }

    /// Small bodies go as they are: gzip's header and trailer and the extra fields eat the gain.
    private static func compressible(_ entry: RenderCache.Entry) -> Bool {
        entry.body.count >= Gzip.minimumSize
    }
}
