import Compression
import DashboardCore
import HTTPCore

extension RenderCache {
    /// One rendering.
    struct Entry: Sendable {
        /// The bytes.
        let body: [UInt8]
        /// The strong ETag of the bytes.
        let entityTag: String
        /// The ETag of their gzip representation (`EntityTag.gzipVariant`): made once with the entry, not on every
        /// request that checks `If-None-Match` or is answered gzipped (issue 21).
        let gzipEntityTag: String
        /// The fields of its 200 as HTML, as is and gzipped, with the security fields (`SecurityFields`), built once
        /// with the entry: a warm page's answer shares them rather than building its own, and `SecurityHeaders`
        /// finds its fields already there (issue 21).
        let htmlFields: (identity: HTTPHeaders, gzip: HTTPHeaders)

        /// The entry of `body`, whose strong ETag is `entityTag`.
        init(body: [UInt8], entityTag: String) {
            self.body = body
            self.entityTag = entityTag
            let gzipEntityTag = EntityTag.gzipVariant(of: entityTag)
            self.gzipEntityTag = gzipEntityTag
            let compressible = body.count >= Gzip.minimumSize
            htmlFields = (
                identity: SecurityFields.applied(
                    to: Self.fields(Self.html, compressible, gzip: false, entityTag, gzipEntityTag)),
                gzip: SecurityFields.applied(
                    to: Self.fields(Self.html, compressible, gzip: true, entityTag, gzipEntityTag))
            )
        }

        /// The media type of pages and fragments.
        static let html = "text/html; charset=utf-8"

        /// Whether the body is big enough to gain from gzip: gzip's header and trailer and the extra fields eat the
        /// gain of a small one, which goes as it is.
        var isCompressible: Bool { body.count >= Gzip.minimumSize }

        /// The fields of a 200 with these bytes as `contentType`, gzipped or not (`Vary` on whatever could be
        /// either, RFC 9110 §12.5.5).
        func fields(contentType: String, gzip: Bool) -> HTTPHeaders {
            Self.fields(contentType, isCompressible, gzip: gzip, entityTag, gzipEntityTag)
        }

        private static func fields(
            _ contentType: String, _ compressible: Bool, gzip: Bool, _ entityTag: String, _ gzipEntityTag: String
        ) -> HTTPHeaders {
            guard compressible else { return ["Content-Type": contentType, "ETag": entityTag] }
            guard gzip else { return ["Content-Type": contentType, "Vary": "Accept-Encoding", "ETag": entityTag] }
            return [
                "Content-Type": contentType, "Vary": "Accept-Encoding", "Content-Encoding": "gzip",
                "ETag": gzipEntityTag,
            ]
        }
    }
}
