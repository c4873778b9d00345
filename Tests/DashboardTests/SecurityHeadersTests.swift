import HTTPServer
import Testing

@testable import DashboardCore
@testable import DashboardWeb

@Suite struct SecurityHeadersTests {
    func respond(with response: Response) async throws -> Response {
        let responder = SecurityHeaders(ClosureResponder { _, _ in response })
        return try await responder.respond(
            to: Request(method: .get, target: "/"), context: RequestContext(requestID: "1", logger: .silent)
        ).response()
    }

    @Test func htmlGetsTheExactPolicyAndNoStore() async throws {
        let response = try await respond(with: .html(Array("<p>hi</p>".utf8)))
        #expect(
            response.headers["Content-Security-Policy"]
                == "default-src 'none'; script-src 'self'; connect-src 'self'; img-src 'self'; style-src 'self'; "
                + "form-action 'self'; frame-ancestors 'none'; base-uri 'none'")
        #expect(response.headers["X-Content-Type-Options"] == "nosniff")
        #expect(response.headers["Referrer-Policy"] == "same-origin")
        #expect(response.headers["Cache-Control"] == "no-store")
    }

    @Test func keepsACacheControlTheHandlerChose() async throws {
        var page = Response.html([])
        page.headers.add(name: "Cache-Control", value: "private, max-age=5")
        #expect(try await respond(with: page).headers.values(for: "Cache-Control") == ["private, max-age=5"])
    }

    @Test func nonHTMLGetsOnlyNosniff() async throws {
        var image = Response(body: [1, 2, 3])
        image.headers.add(name: "Content-Type", value: "image/png")
        image.headers.add(name: "Cache-Control", value: "public, max-age=300")
        let response = try await respond(with: image)
        #expect(response.headers["X-Content-Type-Options"] == "nosniff")
        #expect(response.headers["Content-Security-Policy"] == nil)
        #expect(response.headers["Cache-Control"] == "public, max-age=300")
    }

    @Test(arguments: [
        ("text/html", true), ("text/html; charset=utf-8", true), ("TEXT/HTML", true), ("Text/Html;x", true),
        ("text/htm", false), ("text/plain", false), ("", false), ("application/xhtml+xml", false),
        ("text\u{0F}html", false),
    ])
    func htmlIsRecognisedInAnyCase(contentType: String, isHTML: Bool) {
        #expect(SecurityHeaders<ClosureResponder>.isHTML(contentType) == isHTML)
    }

    @Test func anAnswerThatAlreadyHoldsTheFieldsIsLeftAsItIs() async throws {
        let fields = SecurityFields.applied(to: ["Content-Type": "text/html", "ETag": "\"t\""])
        var page = Response(status: .ok, headers: fields)
        page.headers.add(name: "Set-Cookie", value: "a=b")
        #expect(SecurityFields.areApplied(page.headers))
        #expect(try await respond(with: page).headers == page.headers)
    }

    @Test func anotherPolicyOrATwiceSentFieldIsStillReplaced() async throws {
        var other = Response.html([])
        other.headers.add(name: "Content-Security-Policy", value: "default-src *")
        other.headers.add(name: "Referrer-Policy", value: "same-origin")
        other.headers.add(name: "Cache-Control", value: "no-store")
        other.headers.add(name: "X-Content-Type-Options", value: "nosniff")
        #expect(!SecurityFields.areApplied(other.headers))
        let replaced = try await respond(with: other).headers
        #expect(replaced.values(for: "Content-Security-Policy") == [SecurityFields.contentSecurityPolicy])

        var twice = Response(status: .ok, headers: SecurityFields.applied(to: ["Content-Type": "text/html"]))
        twice.headers.add(name: "X-Content-Type-Options", value: "nosniff")
        #expect(!SecurityFields.areApplied(twice.headers))
        #expect(try await respond(with: twice).headers.values(for: "X-Content-Type-Options") == ["nosniff"])
        #expect(!SecurityFields.areApplied(Response.html([]).headers))
    }
}
