import Compression
import HTTPCore
import HTTPServer

extension ComposedPage {
    /// The answer to `request`: a 304 when `If-None-Match` names the page in either encoding, else a 200 with its bytes,
    /// stitched gzip when the request accepts it. Fields as `RenderCache.Entry` gives a rendered page's.
    func response(to request: Request) -> Response {
        let tag = entityTag
        let gzipTag = EntityTag.gzipVariant(of: tag)
        let gzip = count >= Gzip.minimumSize && AcceptEncoding.allowsGzip(request.headers["Accept-Encoding"])
        if let condition = request.headers["If-None-Match"],
            IfNoneMatch.matches(condition, etag: tag) || IfNoneMatch.matches(condition, etag: gzipTag)
        {
            guard count >= Gzip.minimumSize else { return Response(status: .notModified, headers: ["ETag": tag]) }
            return Response(status: .notModified, headers: ["ETag": gzip ? gzipTag : tag, "Vary": "Accept-Encoding"])
        }
        let type = RenderCache.Entry.html
        guard count >= Gzip.minimumSize else {
            return Response(status: .ok, headers: ["Content-Type": type, "ETag": tag], body: body)
        }
        guard gzip else {
            return Response(
                status: .ok, headers: ["Content-Type": type, "Vary": "Accept-Encoding", "ETag": tag], body: body)
        }
        return Response(
            status: .ok,
            headers: ["Content-Type": type, "Vary": "Accept-Encoding", "Content-Encoding": "gzip", "ETag": gzipTag],
            body: gzipBody)
    }
}
