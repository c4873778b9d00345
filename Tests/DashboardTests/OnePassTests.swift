import HTTPCore
import HTTPServer
import TestSupport
import Testing

@testable import DashboardCore
@testable import DashboardWeb

/// The one responder pass through the dashboard's own middleware (issue 45 point 3): a cold page is admitted,
/// routed and prepared once, and the work it leaves for later carries the prepared body instead of preparing again.
@Suite struct OnePassTests {
    /// Counts how often the chain below is asked for an answer.
    struct Asked<Next: HTTPResponder>: HTTPResponder {
        let count: Counter
        let next: Next

        func respond(to request: Request, context: RequestContext) throws -> Answer {
            count.increment()
            return try next.respond(to: request, context: context)
        }
    }

    /// Counts how often `page` prepares a request.
    struct Prepared<Page: PageHandler>: PageHandler {
        static var isLive: Bool { Page.isLive }
        let count: Counter
        let page: Page
        var web: WebContext { page.web }

        func prepare(_ request: Request, _ context: RequestContext) throws -> PageBody {
            count.increment()
            return try page.prepare(request, context)
        }
    }

    @Test func aColdPageIsAskedAndPreparedOnceAndItsWorkGivesThePage() async throws {
        let scripted = try ScriptedApp(name: "one-pass")
        let app = scripted.app
        let prepared = Counter()
        let asked = Counter()
        var router = Router()
        router.add(
            .get, "/habits/:name",
            PageResponder(handler: Prepared(count: prepared, page: ItemPageHandler<HabitDetailPage>(web: app.web))))
        let responder = Asked(
            count: asked,
            next: SiteGuard(
                policy: app.originCheck.policy,
                next: SecurityHeaders(ErrorAnswers(next: router, renderer: app.renderer))))
        let answer = try responder.respond(
            to: Request(method: .get, target: "/habits/Yoga", headers: HTTPHeaders([("Host", "127.0.0.1:8000")])),
            context: RequestContext(requestID: "t", logger: .silent))
        guard case .later = answer else {
            Issue.record("with no data yet the page is work for later")
            return
        }
        #expect(asked.count == 1 && prepared.count == 1)
        let response = try await answer.response()
        #expect(response.status == .ok)
        #expect(response.headers["Content-Security-Policy"] == SecurityHeaders<Router>.contentSecurityPolicy)
        #expect(asked.count == 1 && prepared.count == 1)
    }

    @Test func aPageThatFailsItsCheckIsAnsweredNowWithTheErrorPage() throws {
        let scripted = try ScriptedApp(name: "one-pass-refused")
        let answer = try scripted.app.responder.respond(
            to: Request(
                method: .get, target: "/habits/Yoga?range=decade", headers: HTTPHeaders([("Host", "127.0.0.1:8000")])),
            context: RequestContext(requestID: "t", logger: .silent))
        guard case .now(let response) = answer else {
            Issue.record("a request refused by its check is answered now, before any data is read")
            return
        }
        #expect(response.status == .badRequest)
    }
}
