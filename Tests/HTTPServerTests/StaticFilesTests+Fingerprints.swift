import Compression
import Foundation
import HTTPCore
import Testing

@testable import HTTPServer

/// Issue 14: fingerprinted, immutable asset names and gzip made once per file.
@Suite final class StaticFilesFingerprintTests {
    let base: URL
    let files: StaticFiles
    let context = RequestContext(requestID: "t", logger: .silent)
    /// Long enough to be worth compressing, and repetitive enough to shrink.
    let css = String(repeating: ".card { color: red; padding: 1rem }\n", count: 80)

    init() throws {
        base = FileManager.default.temporaryDirectory.appendingPathComponent("static-fp-\(UUID().uuidString)")
        try FileManager.default.createDirectory(
            at: base.appendingPathComponent("icons"), withIntermediateDirectories: true)
        try Data(css.utf8).write(to: base.appendingPathComponent("app.css"))
        try Data("<svg/>".utf8).write(to: base.appendingPathComponent("icons/star.svg"))
        try Data(repeating: 7, count: 4096).write(to: base.appendingPathComponent("photo.png"))
        files = try StaticFiles(root: base, logger: .silent)
    }

    deinit {
        do {
            try FileManager.default.removeItem(at: base)
        } catch {
            Issue.record("cleanup of \(base.path) failed: \(error)")
        }
    }

    func get(_ target: String, _ headers: HTTPHeaders = [:]) async throws -> Response {
        try await files.respond(to: Request(method: .get, target: target, headers: headers), context: context)
            .response()
    }

    @Test func fingerprintedURLsCarryTheContentDigestBeforeTheExtension() throws {
        let url = try #require(files.url(for: "app.css"))
        #expect(url.hasPrefix("/static/app.") && url.hasSuffix(".css") && url.count > "/static/app.css".count + 8)
        #expect(files.url(for: "icons/star.svg")?.hasPrefix("/static/icons/star.") == true)
        #expect(files.url(for: "missing.css") == nil)
    }

    @Test func aFingerprintedNameIsImmutableAndThePlainNameRevalidates() async throws {
        let hashed = try await get(try #require(files.url(for: "app.css")))
        #expect(hashed.status == .ok && hashed.body == Array(css.utf8))
        #expect(hashed.headers["Cache-Control"] == "public, max-age=31536000, immutable")
        let plain = try await get("/static/app.css")
        #expect(plain.body == Array(css.utf8))
        #expect(plain.headers["Cache-Control"] == "no-cache")
        #expect(try await get("/static/app.0123456789abcdef.css").status == .notFound)
    }

    @Test func aChangedFileGetsANewName() throws {
        try Data((css + "/* more */").utf8).write(to: base.appendingPathComponent("app.css"))
        let changed = try StaticFiles(root: base, logger: .silent)
        #expect(changed.url(for: "app.css") != files.url(for: "app.css"))
        #expect(changed.url(for: "icons/star.svg") == files.url(for: "icons/star.svg"))
    }

    @Test func textIsSentGzippedWhenTheClientAcceptsIt() async throws {
        let response = try await get("/static/app.css", ["Accept-Encoding": "br, gzip;q=0.8"])
        #expect(response.headers["Content-Encoding"] == "gzip")
        #expect(response.headers["Vary"] == "Accept-Encoding")
        #expect(response.body.count < css.utf8.count / 4)
        #expect(Gzip.decompress(response.body) == Array(css.utf8))
        let identity = try await get("/static/app.css")
        #expect(identity.headers["Content-Encoding"] == nil && identity.headers["Vary"] == "Accept-Encoding")
        #expect(identity.headers["ETag"] != response.headers["ETag"], "each encoding has its own validator")
    }

    @Test func eachEncodingsETagAnswers304OnlyForThatEncoding() async throws {
        let gzipped = try await get("/static/app.css", ["Accept-Encoding": "gzip"])
        let gzipTag = try #require(gzipped.headers["ETag"])
        let again = try await get("/static/app.css", ["Accept-Encoding": "gzip", "If-None-Match": gzipTag])
        #expect(again.status == .notModified && again.body.isEmpty)
        #expect(again.headers["Vary"] == "Accept-Encoding")
        let plain = try await get("/static/app.css", ["If-None-Match": gzipTag])
        #expect(plain.status == .ok && plain.headers["Content-Encoding"] == nil)
    }

    @Test func tinyFilesAndImagesAreNeverCompressed() async throws {
        let svg = try await get("/static/icons/star.svg", ["Accept-Encoding": "gzip"])
        #expect(svg.headers["Content-Encoding"] == nil && svg.headers["Vary"] == nil)
        let png = try await get("/static/photo.png", ["Accept-Encoding": "gzip"])
        #expect(png.headers["Content-Encoding"] == nil && png.body.count == 4096)
    }
}
