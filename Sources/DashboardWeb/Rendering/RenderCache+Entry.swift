import Compression
import DashboardCore
import HTTPCore

extension RenderCache {
    /// One rendering.
    struct Entry: Sendable {
        /// The bytes.
        let body: [UInt8]
        /// Its representations by their ETags, made once with the entry, not on every request that checks
        /// `If-None-Match` or is answered gzipped (issue 21).
        let representations: Representations
        /// The fields of its 200 as HTML, as is and gzipped, with the security fields (`SecurityFields`), built once
        /// with the entry: a warm page's answer shares them rather than building its own, and `SecurityHeaders`
        /// finds its fields already there (issue 21).
        let htmlFields: (identity: HTTPHeaders, gzip: HTTPHeaders)

        /// The entry of `body`, whose strong ETag is `entityTag`.
        init(body: [UInt8], entityTag: String) {
            self.body = body
            let representations = Representations(entityTag: entityTag, count: body.count)
            self.representations = representations
            htmlFields = (
                identity: SecurityFields.applied(to: representations.fields(contentType: Self.html, gzip: false)),
                gzip: SecurityFields.applied(to: representations.fields(contentType: Self.html, gzip: true))
            )
        }

        /// The media type of pages and fragments.
        static let html = "text/html; charset=utf-8"

        /// The strong ETag of the bytes.
        var entityTag: String { representations.entityTag }
        /// The ETag of their gzip representation (`EntityTag.gzipVariant`).
        var gzipEntityTag: String { representations.gzipEntityTag }
        /// Whether the body is big enough to gain from gzip: gzip's header and trailer and the extra fields eat the
        /// gain of a small one, which goes as it is.
        var isCompressible: Bool { representations.isCompressible }

        /// The fields of a 200 with these bytes as `contentType`, gzipped or not.
        func fields(contentType: String, gzip: Bool) -> HTTPHeaders {
            representations.fields(contentType: contentType, gzip: gzip)
        }
    }
}
