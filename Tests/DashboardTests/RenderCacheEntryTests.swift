import Compression
import HTTPCore
import HTTPServer
import Testing

@testable import DashboardCore
@testable import DashboardWeb

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
            entry.fields(contentType: html, gzip: false)
                == ["Content-Type": html, "Vary": "Accept-Encoding", "ETag": entry.entityTag])
        #expect(
            entry.fields(contentType: html, gzip: true)
                == [
                    "Content-Type": html, "Vary": "Accept-Encoding", "Content-Encoding": "gzip",
                    "ETag": entry.gzipEntityTag,
                ])
        #expect(entry.htmlFields.identity == Self.secured(entry.fields(contentType: html, gzip: false)))
        #expect(entry.htmlFields.gzip == Self.secured(entry.fields(contentType: html, gzip: true)))
        #expect(entry.fields(contentType: "text/css", gzip: false)["Content-Type"] == "text/css")
    }

    @Test func aSmallEntryGoesAsItIsWithoutVary() {
        let body = Array("<p>hi</p>".utf8)
        let entry = RenderCache.Entry(body: body, entityTag: "\"t\"")
        #expect(!entry.isCompressible)
        let plain: HTTPHeaders = ["Content-Type": "text/html; charset=utf-8", "ETag": "\"t\""]
        #expect(entry.fields(contentType: RenderCache.Entry.html, gzip: true) == plain, "too small to gain")
        #expect(entry.htmlFields.identity == Self.secured(plain))
        #expect(entry.htmlFields.gzip == Self.secured(plain), "too small to gain: never gzipped")
    }

    @Test func theSecurityFieldsComeWithTheEntrysFieldsInTheOrderTheyAreAdded() {
        let entry = RenderCache.Entry(body: Array("<p>hi</p>".utf8), entityTag: "\"t\"")
        #expect(
            entry.htmlFields.identity
                == [
                    "Content-Type": "text/html; charset=utf-8", "ETag": "\"t\"", "X-Content-Type-Options": "nosniff",
                    "Content-Security-Policy": SecurityFields.contentSecurityPolicy,
                    "Referrer-Policy": "same-origin", "Cache-Control": "no-store",
                ])
    }

    /// A warm 200 with a cookie, through `SecurityHeaders`, carries the very fields it carried when the security
    /// fields were added to each answer one by one (each field once; only where the cookie stands differs).
    @Test(arguments: [false, true])
    func aWarmAnswerCarriesTheFieldsOfOneSecuredFieldByField(gzip: Bool) {
        let body = [UInt8](repeating: 65, count: Gzip.minimumSize)
        let entry = RenderCache.Entry(body: body, entityTag: EntityTag.strong(for: body))
        let cookie = "habits_visit=1; Path=/; HttpOnly; SameSite=Lax"
        var before = Response(status: .ok, headers: entry.fields(contentType: RenderCache.Entry.html, gzip: gzip))
        before.headers.add(name: "Set-Cookie", value: cookie)
        SecurityHeaders<ClosureResponder>.apply(to: &before)
        var warm = Response(status: .ok, headers: gzip ? entry.htmlFields.gzip : entry.htmlFields.identity)
        warm.headers.add(name: "Set-Cookie", value: cookie)
        let prepared = warm.headers
        SecurityHeaders<ClosureResponder>.apply(to: &warm)
        #expect(warm.headers == prepared, "nothing added or moved on a warm answer")
        #expect(Self.sorted(warm.headers) == Self.sorted(before.headers))
        #expect(warm.headers.count == before.headers.count)
    }

    private static func secured(_ fields: HTTPHeaders) -> HTTPHeaders {
        var response = Response(status: .ok, headers: fields)
        SecurityHeaders<ClosureResponder>.apply(to: &response)
        return response.headers
    }

    private static func sorted(_ headers: HTTPHeaders) -> [String] {
        headers.map { $0.name.lowercased() + ": " + $0.value }.sorted()
    }
}
