import Foundation
import HTTPServer
import HabitsAPI
import TemplateKit

extension DashboardApp {
    // MARK: - Home

    func home(_ request: Request, _ context: RequestContext) async throws -> Response {
        let view = try await snapshots.view(live: true)
        let value = try await homeFragmentValue(request, view)
        return try renderer.livePage(
            "home", [:], fragment: "fragments/home", fragmentValue: value, liveSource: "/fragments/home",
            frame: PageFrame(title: "Home", tab: .home, isLive: true))
    }

    func homeFragment(_ request: Request, _ context: RequestContext) async throws -> Response {
        let view = try await snapshots.view(live: true)
        return try renderer.fragment("fragments/home", try await homeFragmentValue(request, view), for: request)
    }

    private func homeFragmentValue(_ request: Request, _ view: SnapshotView) async throws -> TemplateValue {
        let page = HomePage(snapshot: view.snapshot, settings: try await settings.load(for: request))
        return page.fragmentValue(stale: view.stale)
    }

    // MARK: - Habits

    func habits(_ request: Request, _ context: RequestContext) async throws -> Response {
        async let browserSettings = settings.load(for: request)
        let view = try await snapshots.view()
        let page = HabitsListPage(snapshot: view.snapshot, settings: try await browserSettings)
        return try renderer.page(
            "habits", page.templateFields(returnTo: "/habits"),
            frame: PageFrame(title: "Habits", tab: .habits, staleNotice: view.stale))
    }

    func habit(_ request: Request, _ context: RequestContext) async throws -> Response {
        let (page, stale) = try await habitPage(request, context)
        return try renderer.livePage(
            "habit", page.templateFields, fragment: "fragments/habit", fragmentValue: page.fragmentValue(stale: stale),
            liveSource: "/fragments" + page.path, frame: PageFrame(title: page.name, tab: .habits, isLive: true))
    }

    func habitFragment(_ request: Request, _ context: RequestContext) async throws -> Response {
        let (page, stale) = try await habitPage(request, context)
        return try renderer.fragment("fragments/habit", page.fragmentValue(stale: stale), for: request)
    }

    private func habitPage(_ request: Request, _ context: RequestContext) async throws
        -> (HabitDetailPage, StaleNotice?)
    {
        let name = try Self.routeParameter("name", request, context)
        async let browserSettings = settings.load(for: request)
        let view = try await snapshots.view(live: true)
        guard let page = HabitDetailPage(habitName: name, snapshot: view.snapshot, settings: try await browserSettings)
        else {
            throw HTTPError(.notFound, "There is no habit called “\(name)”.")
        }
        return (page, view.stale)
    }

    // MARK: - People

    func people(_ request: Request, _ context: RequestContext) async throws -> Response {
        let query = request.query
        let followedOnly = query["followed"] == "1"
        let search = query["q"] ?? ""
        async let browserSettings = settings.load(for: request)
        let view = try await snapshots.view()
        let page = PeoplePage(
            snapshot: view.snapshot, settings: try await browserSettings, followedOnly: followedOnly, query: search)
        var parameters: [String] = []
        if followedOnly { parameters.append("followed=1") }
        if !page.query.isEmpty { parameters.append("q=" + PercentEncoding.encodeQueryComponent(page.query)) }
        let returnTo = "/people" + (parameters.isEmpty ? "" : "?" + parameters.joined(separator: "&"))
        return try renderer.page(
            "people", page.templateFields(returnTo: returnTo),
            frame: PageFrame(title: "People", tab: .people, staleNotice: view.stale))
    }

    func person(_ request: Request, _ context: RequestContext) async throws -> Response {
        let (page, stale) = try await personPage(request, context)
        return try renderer.livePage(
            "person", page.templateFields, fragment: "fragments/person",
            fragmentValue: page.fragmentValue(stale: stale), liveSource: "/fragments" + page.path,
            frame: PageFrame(title: page.name, tab: .people, isLive: true))
    }

    func personFragment(_ request: Request, _ context: RequestContext) async throws -> Response {
        let (page, stale) = try await personPage(request, context)
        return try renderer.fragment("fragments/person", page.fragmentValue(stale: stale), for: request)
    }

    /// The person's page. Their leading habits come from the snapshot's rankings (the same rule as
    /// `/userLeadingStats`: every user whose count equals the habit's top count), so no id from a URL ever
    /// reaches the upstream.
    private func personPage(_ request: Request, _ context: RequestContext) async throws
        -> (PersonDetailPage, StaleNotice?)
    {
        let id = try Self.routeParameter("id", request, context)
        async let browserSettings = settings.load(for: request)
        let view = try await snapshots.view(live: true)
        guard let page = PersonDetailPage(userID: id, snapshot: view.snapshot, settings: try await browserSettings)
        else {
            throw HTTPError(.notFound, "There is nobody with the id “\(id)”.")
        }
        return (page, view.stale)
    }

    // MARK: - Log Habit

    func logPage(_ request: Request, _ context: RequestContext) async throws -> Response {
        let query = request.query
        async let browserSettings = settings.load(for: request)
        let view = try await snapshots.view()
        let habits = view.snapshot.inputs.habits
        // Only a habit that exists is confirmed, so a crafted link cannot make the page claim anything else.
        let logged = query["logged"].flatMap { habits[$0] == nil ? nil : $0 }
        let page = LogHabitPage(snapshot: view.snapshot, settings: try await browserSettings, loggedHabitName: logged)
        let failure = query["error"].map { LogFailure(code: $0, habitName: query["habit"], habits: habits).message }
        return try renderer.page(
            "log", page.templateFields(failure: failure),
            frame: PageFrame(title: "Log Habit", tab: .log, staleNotice: view.stale))
    }
}
