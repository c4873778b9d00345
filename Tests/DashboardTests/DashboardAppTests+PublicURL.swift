import Foundation
import HTTPCore
import HTTPServer
import TemplateKit
import Testing

@testable import DashboardCore
@testable import DashboardWeb

/// Issue 20: the dashboard at `https://example.org/habits/` behind a proxy that strips the prefix.
extension DashboardAppTests {
    /// The app at `publicURL`, bound to every address, with 127.0.0.1 as a trusted proxy.
    func appAt(_ publicURL: String?, trustedProxies: [AddressRange] = []) throws -> DashboardApp {
        let site = SitePolicy.forServer(
            host: "0.0.0.0", publicURL: publicURL.flatMap(PublicURL.init), trustedProxies: trustedProxies)
        return DashboardApp(
            upstream: api,
            renderer: try Fixture.renderer(prefix: site.pathPrefix),
            settings: BrowserSettings(store: store, signer: app.settings.signers.current!, site: site),
            originCheck: OriginCheck(policy: site), clock: app.clock)
    }

    func send(
        _ app: DashboardApp, _ method: HTTPMethod, _ target: String, _ headers: [(String, String)],
        form: String = "", peer: IPAddress? = nil
    ) async throws -> Response {
        var fields = headers
        if method == .post { fields.append(("Content-Type", "application/x-www-form-urlencoded")) }
        return try await app.responder.respond(
            to: Request(method: method, target: target, headers: HTTPHeaders(fields), body: Array(form.utf8)),
            context: RequestContext(requestID: "t", logger: .silent, peer: peer)
        ).response()
    }

    @Test func underAPathPrefixEveryLinkFormAssetAndLivePollCarriesIt() async throws {
        let prefixed = try appAt("https://example.org/habits/")
        let host = [("Host", "example.org")]
        var urls: [String] = []
        for page in ["/", "/habits", "/habits/Yoga", "/people", "/people/user0", "/log", "/nope"] {
            let response = try await send(prefixed, .get, page, host)
            let text = html(response)
            urls += Self.urls(in: text)
            // Every root-relative URL attribute, static assets and live sources too, starts with the prefix.
            for attribute in [" href=\"/", " src=\"/", " action=\"/", " data-live-src=\"/"] {
                var rest = text[...]
                while let found = rest.range(of: attribute) {
                    rest = rest[found.upperBound...]
                    #expect(rest.hasPrefix("habits/"), "\(page): \(attribute)\(rest.prefix(30))")
                }
            }
            #expect(response.headers["Strict-Transport-Security"] == "max-age=31536000", "\(page)")
        }
        #expect(urls.count > 20)
        for url in urls { #expect(url.hasPrefix("/habits/"), "\(url)") }
        let home = html(try await send(prefixed, .get, "/", host))
        #expect(home.contains(#"data-live-src="/habits/fragments/home""#))
        #expect(home.contains(#"href="/habits/people""#) && home.contains(#"href="/habits/""#))
    }

    /// The page's region carries the fragment's ETag; the fragment route must serve the same bytes, or the first
    /// poll would not be a 304 (and the prefix must not be put on the embedded fragment twice).
    @Test func underAPathPrefixALivePagesFragmentIsTheOneItsRouteServes() async throws {
        let prefixed = try appAt("https://example.org/habits/")
        // The fragment names the second it was drawn at (its chart's "just now"), so a page and a poll a second
        // apart differ; three pairs in a row cannot all straddle a second.
        var polls: [HTTPStatus] = []
        for _ in 0..<3 where polls.last != .notModified {
            let page = html(try await send(prefixed, .get, "/habits/Yoga", [("Host", "example.org")]))
            #expect(!page.contains("/habits/habits/people/") && page.contains(#"href="/habits/people/"#))
            let tagStart = try #require(page.range(of: #"data-live-etag=""#))
            let tag = page[tagStart.upperBound...].prefix { $0 != " " && $0 != ">" }.dropLast()
                .replacingOccurrences(of: "&quot;", with: "\"")
            let poll = try await send(
                prefixed, .get, "/fragments/habits/Yoga", [("Host", "example.org"), ("If-None-Match", tag)])
            polls.append(poll.status)
        }
        #expect(polls.last == .notModified, "\(polls)")
    }

    @Test func underAPublicURLAFormRedirectsUnderThePrefixWithASecureCookie() async throws {
        let prefixed = try appAt("https://example.org/habits/")
        let response = try await send(
            prefixed, .post, "/habits/Yoga/favorite", [("Host", "example.org"), ("Origin", "https://example.org")],
            form: "favorite=true&return=%2Fhabits")
        #expect(response.status == .seeOther)
        #expect(response.headers["Location"] == "/habits/habits")
        let setCookie = try #require(response.headers["Set-Cookie"])
        #expect(setCookie.hasSuffix("; Path=/habits/; Secure; HttpOnly; SameSite=Lax"))
        #expect(response.headers["Strict-Transport-Security"] == "max-age=31536000")
    }

    @Test func underAPublicURLOtherHostsAre421AndOtherOrigins403() async throws {
        let prefixed = try appAt("https://example.org/habits/")
        for host in ["127.0.0.1:8000", "rebind.evil.example", "example.org:8443"] {
            // Over https, the 421 carries HSTS too (issue 48).
            await #expect(throws: MisdirectedRequest(overHTTPS: true)) {
                _ = try await self.send(prefixed, .get, "/", [("Host", host)])
            }
        }
        let answer = ErrorResponse.response(for: MisdirectedRequest(overHTTPS: true), logger: .silent)
        #expect(answer.status == .misdirectedRequest)
        #expect(answer.headers["Strict-Transport-Security"] == "max-age=31536000")
        #expect(
            ErrorResponse.response(for: MisdirectedRequest(overHTTPS: false), logger: .silent).headers[
                "Strict-Transport-Security"] == nil)
        #expect(try await send(prefixed, .get, "/healthz", [("Host", "127.0.0.1:8000")]).status == .ok)
        let crossSite = try await send(
            prefixed, .post, "/habits/Yoga/favorite", [("Host", "example.org"), ("Origin", "https://evil.example")],
            form: "favorite=true")
        #expect(crossSite.status == .forbidden)
        #expect(try settingsFiles().isEmpty)
    }

    /// Without `--public-url`: http, no HSTS, no `Secure`, and only the local names even on a wildcard bind (issue 48);
    /// a trusted proxy's `X-Forwarded-Proto: https` makes the site https, anyone else's changes nothing.
    @Test func withoutAPublicURLOnlyATrustedProxyCanSayHTTPS() async throws {
        let plain = try appAt(nil, trustedProxies: AddressRange.list("127.0.0.1")!)
        let headers = [
            ("Host", "127.0.0.1:8443"), ("Origin", "https://127.0.0.1:8443"), ("X-Forwarded-Proto", "https"),
        ]
        let untrusted = try await send(
            plain, .post, "/habits/Yoga/favorite", headers, form: "favorite=true", peer: IPAddress("10.0.0.2"))
        #expect(untrusted.status == .forbidden)
        let trusted = try await send(
            plain, .post, "/habits/Yoga/favorite", headers, form: "favorite=true", peer: IPAddress("127.0.0.1"))
        #expect(trusted.status == .seeOther)
        #expect(trusted.headers["Location"] == "/habits/Yoga")
        #expect(try #require(trusted.headers["Set-Cookie"]).contains("; Path=/; Secure; HttpOnly"))
        await #expect(throws: MisdirectedRequest(overHTTPS: false)) {
            _ = try await self.send(plain, .get, "/", [("Host", "dash.example:8000")])
        }
        let home = try await send(plain, .get, "/", [("Host", "localhost:8000")])
        #expect(home.status == .ok && home.headers["Strict-Transport-Security"] == nil)
        #expect(html(home).contains(#"href="/people""#))
    }
}
