import Compression
import HTTPCore
import Testing

@testable import Dashboard

/// An entry's answer fields are made once with it (issue 21): its gzip tag, and the fields of its 200 as HTML as is
/// and gzipped, which are what an answer built from them field by field would carry.
@Suite struct RenderCacheEntryTests {
    @Test func aCompressibleEntrysFieldsNameBothRepresentationsAndVary() {
        let body = [UInt8](repeating: 65, count: Gzip.minimumSize)
        let entry = RenderCache.Entry(body: body, entityTag: EntityTag.strong(for: body))
        #expect(entry.gzipEntityTag == EntityTag.gzipVariant(of: entry.entityTag))
        #expect(entry.gzipEntityTag != entry.entityTag)
        let html = "text/html; charset=utf-8"
        #expect(
            entry.htmlFields.identity == ["Content-Type": html, "Vary": "Accept-Encoding", "ETag": entry.entityTag])
        #expect(
            entry.htmlFields.gzip
                == [
                    "Content-Type": html, "Vary": "Accept-Encoding", "Content-Encoding": "gzip",
                    "ETag": entry.gzipEntityTag,
                ])
        #expect(entry.fields(contentType: html, gzip: true) == entry.htmlFields.gzip)
        #expect(entry.fields(contentType: "text/css", gzip: false)["Content-Type"] == "text/css")
    }

    @Test func aSmallEntryGoesAsItIsWithoutVary() {
        let body = Array("<p>hi</p>".utf8)
        let entry = RenderCache.Entry(body: body, entityTag: "\"t\"")
        #expect(!entry.isCompressible)
        let plain: HTTPHeaders = ["Content-Type": "text/html; charset=utf-8", "ETag": "\"t\""]
        #expect(entry.htmlFields.identity == plain)
        #expect(entry.htmlFields.gzip == plain, "too small to gain: never gzipped")
    }
}
