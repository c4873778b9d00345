import HTTPCore
import HTTPServer
import Testing

@testable import DashboardCore
@testable import DashboardWeb

/// A warm page is answered now on the event loop (issue 21), and that answer is the one the awaited path gives;
/// whatever needs waiting (no data yet, a form) is left to it, and a long poll is parked (`LiveFragmentTests+Parked`).
@Suite struct DashboardAtOnceTests {
    /// The app's answer to `target` when it is given now (`Answer.now`); nil when it is work for later.
    func atOnce(_ app: DashboardApp, _ target: String) throws -> Response? {
        let answer = try app.responder.respond(
            to: Request(method: .get, target: target, headers: HTTPHeaders([("Host", "127.0.0.1:8000")])),
            context: RequestContext(requestID: "t", logger: .silent))
        guard case .now(let response) = answer else { return nil }
        return response
    }

    @Test(arguments: [
        "/", "/habits", "/habits/Yoga", "/habits/Yoga?range=day", "/people", "/people?sort=activity",
        "/people/user0", "/log", "/habits/Nonexistent", "/habits/Yoga?range=decade", "/people?sort=height",
    ])
    func aWarmPageIsAnsweredAtOnceExactlyAsWhenAwaited(target: String) async throws {
        let scripted = try ScriptedApp(name: "at-once")
        let awaited = try await scripted.get(target)
        let given = try #require(try atOnce(scripted.app, target))
        #expect(given == awaited)
    }

    @Test func withNoDataYetAPageIsLeftToTheAwaitedPath() throws {
        let scripted = try ScriptedApp(name: "at-once-cold")
        #expect(try atOnce(scripted.app, "/habits") == nil)
        #expect(try atOnce(scripted.app, "/habits/Yoga") == nil)
    }

    /// Issue 46 point 2: a live fragment is decided on the loop too (a poll that waits is parked there, holding no
    /// task), and its answer is the awaited path's.
    @Test(arguments: ["/fragments/home", "/fragments/habits/Yoga", "/fragments/people/user0", "/fragments/news"])
    func aWarmFragmentIsAnsweredAtOnceExactlyAsWhenAwaited(target: String) async throws {
        let scripted = try ScriptedApp(name: "at-once-fragment")
        let awaited = try await scripted.get(target)
        let given = try #require(try atOnce(scripted.app, target))
        #expect(given == awaited)
    }
}
