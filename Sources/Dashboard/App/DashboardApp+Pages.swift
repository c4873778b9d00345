import Foundation
import HTTPServer
import HabitsAPI
import TemplateKit

extension DashboardApp {
    // MARK: - Home

    func home(_ request: Request, _ context: RequestContext) async throws -> Response {
        let value = try await homeFragmentValue(request)
        return try renderer.livePage(
            "home", [:], fragment: "fragments/home", fragmentValue: value, liveSource: "/fragments/home",
            frame: PageFrame(title: "Home", tab: .home, isLive: true))
    }

    func homeFragment(_ request: Request, _ context: RequestContext) async throws -> Response {
        try renderer.fragment("fragments/home", try await homeFragmentValue(request), for: request)
    }

    private func homeFragmentValue(_ request: Request) async throws -> TemplateValue {
        async let browserSettings = settings.load(for: request)
        async let statistics = data.combinedStatistics()
        async let users = data.users()
        var freshness = Freshness()
        let page = HomePage(
            statistics: freshness.note(try await statistics), users: freshness.note(try await users),
            settings: try await browserSettings)
        return page.fragmentValue(stale: freshness.notice)
    }

    // MARK: - Habits

    func habits(_ request: Request, _ context: RequestContext) async throws -> Response {
        async let browserSettings = settings.load(for: request)
        var freshness = Freshness()
        let habits = freshness.note(try await data.habits())
        let page = HabitsListPage(habits: habits, settings: try await browserSettings)
        return try renderer.page(
            "habits", page.templateFields(returnTo: "/habits"),
            frame: PageFrame(title: "Habits", tab: .habits, staleNotice: freshness.notice))
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
        async let habits = data.habits()
        async let statistics = data.combinedStatistics()
        var freshness = Freshness()
        guard
            let page = HabitDetailPage(
                habitName: name, habits: freshness.note(try await habits),
                statistics: freshness.note(try await statistics).habitStatistics, settings: try await browserSettings)
        else {
            throw HTTPError(.notFound, "There is no habit called “\(name)”.")
        }
        return (page, freshness.notice)
    }

    // MARK: - People

    func people(_ request: Request, _ context: RequestContext) async throws -> Response {
        let query = request.query
        let followedOnly = query["followed"] == "1"
        let search = query["q"] ?? ""
        async let browserSettings = settings.load(for: request)
        var freshness = Freshness()
        let users = freshness.note(try await data.users())
        let page = PeoplePage(
            users: users, settings: try await browserSettings, followedOnly: followedOnly, query: search)
        var parameters: [String] = []
        if followedOnly { parameters.append("followed=1") }
        if !page.query.isEmpty { parameters.append("q=" + PercentEncoding.encodeQueryComponent(page.query)) }
        let returnTo = "/people" + (parameters.isEmpty ? "" : "?" + parameters.joined(separator: "&"))
        return try renderer.page(
            "people", page.templateFields(returnTo: returnTo),
            frame: PageFrame(title: "People", tab: .people, staleNotice: freshness.notice))
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

    private func personPage(_ request: Request, _ context: RequestContext) async throws
        -> (PersonDetailPage, StaleNotice?)
    {
        let id = try Self.routeParameter("id", request, context)
        async let browserSettings = settings.load(for: request)
        async let users = data.users()
        async let statistics = data.combinedStatistics()
        var freshness = Freshness()
        let allUsers = freshness.note(try await users)
        let allStatistics = freshness.note(try await statistics)
        // Only an id the data knows goes upstream: any other would cost an upstream call and a shared-cache entry.
        guard allUsers[id] != nil || allStatistics.userStatistics.contains(where: { $0.user.id == id }) else {
            throw HTTPError(.notFound, "There is nobody with the id “\(id)”.")
        }
        let leading = await leadingStatistics(id: id, logger: context.logger)
        guard
            let page = PersonDetailPage(
                userID: id, users: allUsers, statistics: allStatistics.userStatistics,
                leading: leading.map { freshness.note($0) }, settings: try await browserSettings)
        else {
            throw HTTPError(.notFound, "There is nobody with the id “\(id)”.")
        }
        return (page, freshness.notice)
    }

    /// The habits `id` leads, or nil when the upstream does not know them or fails: the page then lists every
    /// habit under its category instead of failing.
    private func leadingStatistics(id: String, logger: Logger) async -> Cached<UserStatistics>? {
        do {
            return try await data.userLeadingStatistics(id: id)
        } catch {
            logger.notice("leading statistics unavailable", ["user.id": id, "error": String(describing: error)])
            return nil
        }
    }

    // MARK: - Log Habit

    func logPage(_ request: Request, _ context: RequestContext) async throws -> Response {
        let query = request.query
        async let browserSettings = settings.load(for: request)
        var freshness = Freshness()
        let habits = freshness.note(try await data.habits())
        // Only a habit that exists is confirmed, so a crafted link cannot make the page claim anything else.
        let logged = query["logged"].flatMap { habits[$0] == nil ? nil : $0 }
        let page = LogHabitPage(habits: habits, settings: try await browserSettings, loggedHabitName: logged)
        let failure = query["error"].map { LogFailure(code: $0, habitName: query["habit"], habits: habits).message }
        return try renderer.page(
            "log", page.templateFields(failure: failure),
            frame: PageFrame(title: "Log Habit", tab: .log, staleNotice: freshness.notice))
    }
}
