import Compression
import Foundation
import HTTPServer
import Testing

@testable import DashboardCore
@testable import DashboardWeb

/// Issue 14: pages, fragments and the colour sheet gzipped once per rendering, each encoding with its own ETag, and
/// the colour sheet under a versioned URL browsers keep.
extension DashboardAppTests {
    @Test func aPageIsGzippedWhenAcceptedWithItsOwnETagAndVary() async throws {
        let plain = try await get("/people")
        let gzipped = try await get("/people", headers: [("Accept-Encoding", "gzip, deflate, br")])
        #expect(plain.headers["Content-Encoding"] == nil && plain.headers["Vary"] == "Accept-Encoding")
        #expect(gzipped.headers["Content-Encoding"] == "gzip" && gzipped.headers["Vary"] == "Accept-Encoding")
        #expect(Gzip.decompress(gzipped.body) == plain.body)
        // Stitched from pieces (issue 46 point 1), each with its own deflate block and code tables: on these four
        // people about 2.8 times smaller, on the built-in data's People 6.5 times (one deflate of it: 8.9).
        #expect(gzipped.body.count * 2 < plain.body.count)
        let plainTag = try #require(plain.headers["ETag"])
        // Spelled out rather than computed with `EntityTag.gzipVariant`, the code under test (tested on its own).
        #expect(plainTag.hasPrefix("\"") && plainTag.hasSuffix("\""))
        #expect(gzipped.headers["ETag"] == String(plainTag.dropLast()) + "-gzip\"")
    }

    @Test func eitherEncodingsETagAnswers304WithTheSelectedOnesTag() async throws {
        let gzipped = try await get("/habits", headers: [("Accept-Encoding", "gzip")])
        let gzipTag = try #require(gzipped.headers["ETag"])
        let again = try await get("/habits", headers: [("Accept-Encoding", "gzip"), ("If-None-Match", gzipTag)])
        #expect(again.status == .notModified && again.body.isEmpty)
        #expect(again.headers["ETag"] == gzipTag && again.headers["Vary"] == "Accept-Encoding")
        // A client holding the identity copy (a live page embeds its fragment's identity tag) is current too.
        let identityTag = try #require(try await get("/habits").headers["ETag"])
        let mixed = try await get("/habits", headers: [("Accept-Encoding", "gzip"), ("If-None-Match", identityTag)])
        #expect(mixed.status == .notModified && mixed.headers["ETag"] == gzipTag)
    }

    @Test func aWarmCompressedPageIsServedWithoutCompressingAgain() async throws {
        let first = try await get("/people", headers: [("Accept-Encoding", "gzip")])
        let rendered = app.renderCache.bytes
        let second = try await get("/people", headers: [("Accept-Encoding", "gzip")])
        #expect(second.body == first.body)
        #expect(app.renderCache.bytes == rendered, "the second answer added nothing to the cache")
    }

    @Test func smallAnswersAreNeverCompressed() {
        let small = RenderCache.Entry(body: Array(repeating: 65, count: Gzip.minimumSize - 1), entityTag: "\"t\"")
        let request = Request(method: .get, target: "/", headers: ["Accept-Encoding": "gzip"])
        let response = app.web.pages.ok(small, request)
        #expect(response.headers["Content-Encoding"] == nil && response.headers["Vary"] == nil)
        #expect(response.body == small.body && response.headers["ETag"] == "\"t\"")
    }

    @Test func pagesLinkAVersionedColourSheetThatBrowsersKeep() async throws {
        let page = html(try await get("/habits"))
        let link = try #require(page.firstMatch(of: #/href="(/colors\.css\?v=[0-9a-f]+)"/#)?.output.1)
        let pinned = try await get(String(link))
        #expect(pinned.status == .ok && pinned.headers["Content-Type"] == "text/css; charset=utf-8")
        #expect(pinned.headers["Cache-Control"] == "public, max-age=31536000, immutable")
        let plain = try await get("/colors.css")
        #expect(plain.body == pinned.body && plain.headers["Cache-Control"] == "no-cache")
        let old = try await get("/colors.css?v=123")
        #expect(old.body == pinned.body && old.headers["Cache-Control"] == "no-cache")
    }
}
