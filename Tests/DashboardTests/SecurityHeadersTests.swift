import HTTPServer
import Testing

@testable import Dashboard

@Suite struct SecurityHeadersTests {
    func respond(with response: Response) async throws -> Response {
        let responder = SecurityHeaders(ClosureResponder { _, _ in response })
        return try await responder.respond(
            to: Request(method: .get, target: "/"), context: RequestContext(requestID: "1", logger: .silent))
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

    /// Issue 8: a plain-text error used to quote the request (`/fragments/people/<script>` → "There is nobody with
    /// the id “<script>”"); now the body is the status's reason phrase, with nosniff.
    @Test func plainTextErrorsEchoNothingFromTheRequest() async throws {
        let responder = SecurityHeaders(
            ClosureResponder { request, _ in
                throw HTTPError(.notFound, "There is nobody with the id “\(request.path)”.")
            })
        let response = try await responder.respond(
            to: Request(method: .get, target: "/fragments/people/%3Cscript%3E"),
            context: RequestContext(requestID: "1", logger: .silent))
        #expect(response.status == .notFound)
        #expect(String(decoding: response.body, as: UTF8.self) == "Not Found")
        #expect(response.headers["X-Content-Type-Options"] == "nosniff")
        #expect(response.headers["Content-Type"] == "text/plain; charset=utf-8")
    }

    @Test(arguments: [
        ("text/html", true), ("text/html; charset=utf-8", true), ("TEXT/HTML", true), ("Text/Html;x", true),
        ("text/htm", false), ("text/plain", false), ("", false), ("application/xhtml+xml", false),
        ("text\u{0F}html", false),
    ])
    func htmlIsRecognisedInAnyCase(contentType: String, isHTML: Bool) {
        #expect(SecurityHeaders<ClosureResponder>.isHTML(contentType) == isHTML)
    }
}
