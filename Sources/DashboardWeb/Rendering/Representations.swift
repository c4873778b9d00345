import Compression
import HTTPCore
import HTTPServer

/// A page's two representations, as is and gzipped, by their strong ETags (RFC 9110 §8.8.3): what a rendered entry
/// (`RenderCache.Entry`) and a composed page (`ComposedPage`) both answer with, so that `If-None-Match`, the 304 and a
/// 200's fields are decided in one place.
///
/// Both tags name the same content, so `If-None-Match` with either one means "I have this page": a page embeds its
/// fragment's identity tag, and `live.js` keeps whichever tag it last saw.
struct Representations: Sendable {
    /// The identity tag.
    let entityTag: String
    /// The gzip tag: the identity one with `-gzip` inside the quotes (`EntityTag.gzipVariant`).
    let gzipEntityTag: String
    /// Whether the body is big enough to gain from gzip (`Gzip.minimumSize`).
    let isCompressible: Bool

    /// The representations of a body of `count` bytes whose identity tag is `entityTag`.
    init(entityTag: String, count: Int) {
        self.entityTag = entityTag
        gzipEntityTag = EntityTag.gzipVariant(of: entityTag)
        isCompressible = count >= Gzip.minimumSize
    }

    /// Whether `request`'s `If-None-Match` names either representation.
    func areNamed(by request: Request) -> Bool {
        guard let condition = request.headers["If-None-Match"] else { return false }
        return IfNoneMatch.matches(condition, etag: entityTag) || IfNoneMatch.matches(condition, etag: gzipEntityTag)
    }

    /// Whether the answer to `request` is gzipped.
    func gzips(_ request: Request) -> Bool {
        isCompressible && AcceptEncoding.allowsGzip(request.headers["Accept-Encoding"])
    }

    /// A 304 with only what RFC 9110 §15.4.5 asks of it: the selected representation's ETag, and `Vary` (the server
    /// adds `Date`; `SecurityHeaders` adds `Cache-Control` and `nosniff`). Under 300 bytes.
    func notModified(_ request: Request) -> Response {
        guard isCompressible else { return Response(status: .notModified, headers: ["ETag": entityTag]) }
        let tag = gzips(request) ? gzipEntityTag : entityTag
        return Response(status: .notModified, headers: ["ETag": tag, "Vary": "Accept-Encoding"])
    }

    /// The fields of a 200 as `contentType`, gzipped or not (`Vary` on whatever could be either, RFC 9110 §12.5.5).
    func fields(contentType: String, gzip: Bool) -> HTTPHeaders {
        guard isCompressible else { return ["Content-Type": contentType, "ETag": entityTag] }
        guard gzip else { return ["Content-Type": contentType, "Vary": "Accept-Encoding", "ETag": entityTag] }
        return [
            "Content-Type": contentType, "Vary": "Accept-Encoding", "Content-Encoding": "gzip", "ETag": gzipEntityTag,
        ]
    }
}
