import Foundation
import HTTPCore
import Testing

@testable import HTTPServer

/// Each test builds its own temporary tree: `root/` is served; `secret.txt` sits next to it and must never
/// be reachable; `root/` also holds a dotfile, a dot-directory and a symlink pointing outside.
@Suite final class StaticFilesTests {
    let base: URL
    let files: StaticFiles
    let context = RequestContext(requestID: "t", logger: .silent)

    init() throws {
        base = FileManager.default.temporaryDirectory.appendingPathComponent("static-\(UUID().uuidString)")
        let root = base.appendingPathComponent("root")
        try FileManager.default.createDirectory(
            at: root.appendingPathComponent("icons"), withIntermediateDirectories: true)
        try FileManager.default.createDirectory(
            at: root.appendingPathComponent(".git"), withIntermediateDirectories: true)
        try Data("body { color: red }".utf8).write(to: root.appendingPathComponent("app.css"))
        try Data("<svg/>".utf8).write(to: root.appendingPathComponent("icons/star.svg"))
        try Data("TOKEN=1".utf8).write(to: root.appendingPathComponent(".env"))
        try Data("[core]".utf8).write(to: root.appendingPathComponent(".git/config"))
        try Data("SECRET".utf8).write(to: base.appendingPathComponent("secret.txt"))
        try FileManager.default.createSymbolicLink(
            atPath: root.appendingPathComponent("link.txt").path,
            withDestinationPath: base.appendingPathComponent("secret.txt").path)
        files = try StaticFiles(root: root, logger: .silent)
    }

    deinit {
        do {
            try FileManager.default.removeItem(at: base)
        } catch {
            Issue.record("cleanup of \(base.path) failed: \(error)")
        }
    }

    func get(_ target: String, method: HTTPMethod = .get, headers: HTTPHeaders = [:]) async throws -> Response {
        try await files.respond(to: Request(method: method, target: target, headers: headers), context: context)
            .response()
    }

    @Test func manifestHoldsRegularFilesOnly() {
        #expect(files.paths == ["app.css", "icons/star.svg"])
    }

    @Test func servesAFileWithTypeETagAndCacheControl() async throws {
        let response = try await get("/static/app.css")
        #expect(response.status == .ok)
        #expect(response.body == Array("body { color: red }".utf8))
        #expect(response.headers["Content-Type"] == "text/css; charset=utf-8")
        #expect(response.headers["Cache-Control"] == "no-cache")
        #expect(response.headers["ETag"]?.hasPrefix("\"") == true)
        #expect(try await get("/static/icons/star.svg").headers["Content-Type"] == "image/svg+xml")
    }

    @Test func matchingIfNoneMatchGives304() async throws {
        let etag = try #require(try await get("/static/app.css").headers["ETag"])
        let cached = try await get("/static/app.css", headers: ["If-None-Match": "\"other\", W/\(etag)"])
        #expect(cached.status == .notModified)
        #expect(cached.body.isEmpty)
        #expect(cached.headers["ETag"] == etag)
        #expect(try await get("/static/app.css", headers: ["If-None-Match": "\"other\""]).status == .ok)
    }

    @Test func onlyGetAndHeadAreAllowed() async throws {
        #expect(try await get("/static/app.css", method: .head).status == .ok)
        let post = try await get("/static/app.css", method: .post)
        #expect(post.status == .methodNotAllowed)
        #expect(post.headers["Allow"] == "GET, HEAD")
    }

    /// None of these may escape the root or reveal a dotfile or symlink; every one is 404 or 400.
    @Test(arguments: [
        "/static/../secret.txt", "/static/%2e%2e/secret.txt", "/static/..%2fsecret.txt", "/static/%2e%2e%2fsecret.txt",
        "/static/%252e%252e/secret.txt", "/static/icons/../../secret.txt", "/static/app.css%00.png",
        "/static/%00", "/static//etc/passwd", "/static/%2Fetc%2Fpasswd", "/static/.env", "/static/%2eenv",
        "/static/.git/config", "/static/link.txt", "/static/", "/static", "/static/./app.css",
        "/static/icons%2fstar.svg", "/static/..\\secret.txt", "/static/%zz", "/secret.txt",
    ])
    func traversalAttemptsNeverReadOutside(target: String) async throws {
        do {
            let response = try await get(target)
            #expect(response.status == .notFound, "\(target)")
            #expect(!String(decoding: response.body, as: UTF8.self).contains("SECRET"))
        } catch let error as HTTPError {
            #expect(error.status == .badRequest, "\(target)")
        }
    }
}
