import HTTPCore
import HTTPServer
import TemplateKit
import Testing

@testable import DashboardCore
@testable import DashboardWeb

/// Every error a dashboard handler throws becomes its answer in `ErrorAnswers`: a page for people, the server's
/// plain text for machine-facing paths, with the fields the error asks for either way.
@Suite struct ErrorAnswersTests {
    /// An error that asks for `Retry-After`, like the image fetches' overload and the new-browser limit.
    struct Busy: HTTPResponseError, ErrorResponseHeaders {
        var status: HTTPStatus { .serviceUnavailable }
        var publicMessage: String { "Busy right now." }
        var responseHeaders: [(name: String, value: String)] { [("Retry-After", "5")] }
    }

    /// The dashboard's composition around a router that throws `error` for every path.
    func answer(_ target: String, throwing error: any Error) async throws -> Response {
        let renderer = try Fixture.renderer()
        let responder = SecurityHeaders(
            ErrorAnswers(next: ClosureResponder { _, _ in throw error }, renderer: renderer))
        return try await responder.respond(
            to: Request(method: .get, target: target), context: RequestContext(requestID: "1", logger: .silent)
        ).response()
    }

    /// Issue 8: a plain-text error used to quote the request (`/fragments/people/<script>` → "There is nobody with
    /// the id “<script>”"); now the body is the status's reason phrase, with nosniff.
    @Test func plainTextErrorsEchoNothingFromTheRequest() async throws {
        let response = try await answer(
            "/fragments/people/%3Cscript%3E",
            throwing: HTTPError(.notFound, "There is nobody with the id “<script>”."))
        #expect(response.status == .notFound)
        #expect(String(decoding: response.body, as: UTF8.self) == "Not Found")
        #expect(response.headers["X-Content-Type-Options"] == "nosniff")
        #expect(response.headers["Content-Type"] == "text/plain; charset=utf-8")
    }

    @Test func aPageErrorIsAPageWithTheErrorsOwnMessage() async throws {
        let response = try await answer("/people/nobody", throwing: HTTPError(.notFound, "There is nobody here."))
        #expect(response.status == .notFound)
        #expect(response.headers["Content-Type"] == "text/html; charset=utf-8")
        let page = String(decoding: response.body, as: UTF8.self)
        #expect(page.contains("Page not found"))
        #expect(page.contains("There is nobody here."))
        #expect(response.headers["Content-Security-Policy"] != nil)
    }

    /// The image fetches' 503 is answered on `/images/…`, a machine-facing path: its `Retry-After` used to be
    /// dropped there, since only the page form added an error's fields.
    @Test(arguments: ["/images/user0", "/habits"])
    func theFieldsAnErrorAsksForAreSentOnBothForms(target: String) async throws {
        let response = try await answer(target, throwing: Busy())
        #expect(response.status == .serviceUnavailable)
        #expect(response.headers.values(for: "Retry-After") == ["5"])
    }

    @Test func anyOtherErrorIsABare500WithoutItsDetails() async throws {
        struct Internal: Error { var secret = "/var/lib/habits" }
        let plain = try await answer("/fragments/habits/Yoga", throwing: Internal())
        #expect(plain.status == .internalServerError)
        #expect(String(decoding: plain.body, as: UTF8.self) == "Internal Server Error")
        let page = try await answer("/habits/Yoga", throwing: Internal())
        #expect(page.status == .internalServerError)
        #expect(!String(decoding: page.body, as: UTF8.self).contains("/var/lib/habits"))
    }
}
