import HTTPServer

extension ComposedPage {
    /// The answer to `request`: a 304 when `If-None-Match` names the page in either encoding, else a 200 with its bytes,
    /// stitched gzip when the request accepts it; decided as a rendered entry's are (`Representations`).
    func response(to request: Request) -> Response {
        let representations = Representations(entityTag: entityTag, count: count)
        guard !representations.areNamed(by: request) else { return representations.notModified(request) }
        let gzip = representations.gzips(request)
        return Response(
            status: .ok, headers: representations.fields(contentType: RenderCache.Entry.html, gzip: gzip),
            body: gzip ? gzipBody : body)
    }
}
