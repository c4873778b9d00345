import HTTPCore
import Testing

@testable import HTTPServer

@Suite struct RouterTests {
    let context = RequestContext(requestID: "t", logger: .silent)

    func respond(_ router: Router, _ method: HTTPMethod, _ target: String) async throws -> Response {
        try await router.respond(to: Request(method: method, target: target), context: context).response()
    }

    func habitRouter() -> Router {
        var router = Router()
        router.get("/habits/:name") { _, context in .text("habit " + (context.parameters["name"] ?? "?")) }
        router.get("/habits/new") { _, _ in .text("new form") }
        router.post("/habits/:name") { _, context in .text("logged " + (context.parameters["name"] ?? "?")) }
        router.get("/users/:id/habits/:name") { _, context in
            .text("\(try context.parameters.require("id", as: Int.self)) \(context.parameters["name"] ?? "")")
        }
        router.get("/static/*") { _, context in .text("file " + (context.parameters["*"] ?? "")) }
        return router
    }

    /// A habit called `Push-ups/Sit-ups` travels as one encoded segment and must arrive whole.
    @Test func encodedSlashStaysInsideItsSegment() async throws {
        let response = try await respond(habitRouter(), .get, "/habits/Push-ups%2FSit-ups")
        #expect(response.status == .ok)
        #expect(response.body == Array("habit Push-ups/Sit-ups".utf8))
    }

    @Test func segmentsAreDecodedExactlyOnce() async throws {
        let response = try await respond(habitRouter(), .get, "/habits/100%2525")
        #expect(String(decoding: response.body, as: UTF8.self) == "habit 100%25")
    }

    @Test func literalRouteWinsOverCaptureRegardlessOfOrder() async throws {
        let response = try await respond(habitRouter(), .get, "/habits/new")
        #expect(String(decoding: response.body, as: UTF8.self) == "new form")
    }

    @Test func typedParameterRejectsNonNumbersWith400() async throws {
        let good = try await respond(habitRouter(), .get, "/users/42/habits/Yoga")
        #expect(String(decoding: good.body, as: UTF8.self) == "42 Yoga")
        await #expect(throws: HTTPError(.badRequest, "Bad path parameter 'id'.")) {
            try await respond(habitRouter(), .get, "/users/abc/habits/Yoga")
        }
    }

    @Test func unknownPathIs404() async throws {
        #expect(try await respond(habitRouter(), .get, "/nowhere").status == .notFound)
        #expect(try await respond(habitRouter(), .get, "/habits").status == .notFound)
        #expect(try await respond(habitRouter(), .get, "/habits/a/b").status == .notFound)
    }

    @Test func knownPathWithOtherMethodIs405WithAllow() async throws {
        let response = try await respond(habitRouter(), .delete, "/habits/Yoga")
        #expect(response.status == .methodNotAllowed)
        #expect(response.headers["Allow"] == "GET, HEAD, POST")
    }

    @Test func headIsAnsweredByTheGetRoute() async throws {
        let response = try await respond(habitRouter(), .head, "/habits/Yoga")
        #expect(response.status == .ok)
    }

    @Test func postGoesToTheCaptureRouteEvenWhenALiteralMatchesForGet() async throws {
        let response = try await respond(habitRouter(), .post, "/habits/new")
        #expect(String(decoding: response.body, as: UTF8.self) == "logged new")
    }

    @Test func wildcardCapturesTheRest() async throws {
        let response = try await respond(habitRouter(), .get, "/static/icons/star.svg")
        #expect(String(decoding: response.body, as: UTF8.self) == "file icons/star.svg")
    }

    @Test func queryStringDoesNotAffectRouting() async throws {
        let response = try await respond(habitRouter(), .get, "/habits/Yoga?x=1")
        #expect(String(decoding: response.body, as: UTF8.self) == "habit Yoga")
    }

    @Test func malformedPercentEncodingIs400() async throws {
        await #expect(throws: HTTPError.self) { try await respond(habitRouter(), .get, "/habits/%zz") }
        await #expect(throws: HTTPError.self) { try await respond(habitRouter(), .get, "/habits/%ff") }
    }

    @Test func fallbackAnswersWhenNothingMatches() async throws {
        var router = habitRouter()
        router.fallback(ClosureResponder { _, _ in .text("fallback", status: .notFound) })
        let response = try await respond(router, .get, "/nowhere")
        #expect(String(decoding: response.body, as: UTF8.self) == "fallback")
    }

    @Test func rootRouteMatchesOnlyRoot() async throws {
        var router = Router()
        router.get("/") { _, _ in .text("root") }
        #expect(try await respond(router, .get, "/").status == .ok)
        #expect(try await respond(router, .get, "/x").status == .notFound)
    }

    /// RFC 9110 §9.3.7: `OPTIONS *` asks about the server as a whole (it was a 404): 204 with every method.
    @Test func optionsAsteriskListsEveryMethodTheRoutesAnswer() async throws {
        var router = habitRouter()
        router.fallback(ClosureResponder { _, _ in .text("fallback", status: .notFound) })
        let response = try await respond(router, .options, "*")
        #expect(response.status == .noContent)
        #expect(response.headers["Allow"] == "GET, HEAD, OPTIONS, POST")
        #expect(response.body.isEmpty)
    }

    /// Only the asterisk is server-wide; `OPTIONS /path` is an ordinary request for that path.
    @Test func optionsOnAPathIsAnOrdinary405() async throws {
        let response = try await respond(habitRouter(), .options, "/habits/Yoga")
        #expect(response.status == .methodNotAllowed)
    }
}
