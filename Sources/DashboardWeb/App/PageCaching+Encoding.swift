import Compression
import DashboardCore
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
extension PageCaching {
    /// Whether `request`'s `If-None-Match` names `entry` in any encoding.
    func hasCurrentCopy(_ request: Request, of entry: RenderCache.Entry) -> Bool {
        entry.representations.areNamed(by: request)
    }

    /// A 200 with the entry's bytes, gzipped when the request accepts it and the body is big enough to gain.
    /// HTML's fields come prepared with the entry (`RenderCache.Entry.htmlFields`).
    func ok(_ entry: RenderCache.Entry, _ request: Request, contentType: String = RenderCache.Entry.html)
        -> Response
    {
        let gzip = entry.representations.gzips(request)
        let fields =
            contentType == RenderCache.Entry.html
            ? (gzip ? entry.htmlFields.gzip : entry.htmlFields.identity)
            : entry.fields(contentType: contentType, gzip: gzip)
        return Response(status: .ok, headers: fields, body: gzip ? renderCache.gzipped(entry) : entry.body)
    }

    /// A 304 for `entry` (`Representations.notModified`).
    func notModified(_ entry: RenderCache.Entry, _ request: Request) -> Response {
        entry.representations.notModified(request)
    }
}
