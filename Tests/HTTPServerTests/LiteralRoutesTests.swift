import HTTPCore
import Testing

@testable import HTTPServer

@Suite struct LiteralRoutesTests {
    let context = RequestContext(requestID: "t", logger: .silent)

    func body(_ router: Router, _ method: HTTPMethod, _ target: String) async throws -> String {
        let response = try await router.respond(to: Request(method: method, target: target), context: context)
            .response()
        return "\(response.status.code) " + String(decoding: response.body, as: UTF8.self)
    }

    func router() -> Router {
        var router = Router()
        router.get("/") { _, _ in .text("home") }
        router.get("/habits") { _, _ in .text("habits") }
        router.get("/habits/new") { _, _ in .text("new form") }
        router.get("/habits/:name") { _, context in .text("habit " + (context.parameters["name"] ?? "?")) }
        router.post("/habits/:name") { _, context in .text("logged " + (context.parameters["name"] ?? "?")) }
        router.get("/a/") { _, _ in .text("trailing") }
        return router
    }

    @Test func onlyPatternsWithoutCapturesHaveAPath() {
        #expect(LiteralRoutes.path(of: RoutePattern("/")) == "/")
        #expect(LiteralRoutes.path(of: RoutePattern("/habits/new")) == "/habits/new")
        #expect(LiteralRoutes.path(of: RoutePattern("/a/")) == "/a/")
        #expect(LiteralRoutes.path(of: RoutePattern("/habits/:name")) == nil)
        #expect(LiteralRoutes.path(of: RoutePattern("/static/*")) == nil)
    }

    @Test func findsALiteralRouteByMethodAndPathAndHeadByGet() {
        var routes = LiteralRoutes()
        routes.add(.get, RoutePattern("/habits"), ClosureResponder { _, _ in .text("habits") })
        routes.add(.get, RoutePattern("/habits/:name"), ClosureResponder { _, _ in .text("habit") })
        #expect(routes.responder(.get, "/habits") != nil)
        #expect(routes.responder(.head, "/habits") != nil)
        #expect(routes.responder(.post, "/habits") == nil)
        #expect(routes.responder(.get, "/habits/Yoga") == nil)
    }

    /// `%` must be decoded first, so such a path goes the full way (and still finds the literal route there).
    @Test func aPathWithEscapesIsNotLookedUp() async throws {
        var routes = LiteralRoutes()
        routes.add(.get, RoutePattern("/habits"), ClosureResponder { _, _ in .text("habits") })
        #expect(routes.responder(.get, "/hab%69ts") == nil)
        #expect(try await body(router(), .get, "/hab%69ts") == "200 habits")
    }

    /// The look-up answers exactly as the full match does, for literal paths, captures, other methods and queries.
    @Test(arguments: [
        (HTTPMethod.get, "/", "200 home"), (.get, "/habits", "200 habits"), (.get, "/habits?page=2", "200 habits"),
        (.get, "/habits/new", "200 new form"), (.post, "/habits/new", "200 logged new"),
        (.get, "/habits/Yoga", "200 habit Yoga"), (.get, "/a/", "200 trailing"), (.get, "/a", "404 Not Found"),
        (.delete, "/habits", "405 Method Not Allowed"),
    ])
    func answersAsTheFullMatchDoes(method: HTTPMethod, target: String, expected: String) async throws {
        #expect(try await body(router(), method, target) == expected)
    }

    /// Parameters a request arrives with are replaced by the route's (none), as the full match replaces them.
    @Test func aLiteralRouteGetsNoParameters() async throws {
        var router = Router()
        router.get("/habits") { _, context in .text("[\(context.parameters["name"] ?? "")]") }
        var context = context
        context.parameters["name"] = "stale"
        let response = try await router.respond(to: Request(method: .get, target: "/habits"), context: context)
            .response()
        #expect(String(decoding: response.body, as: UTF8.self) == "[]")
    }
}
