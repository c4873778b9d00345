import DashboardCore
import Foundation
import HTTPServer
import HabitsAPI

/// The Log Habit form.
struct LogHabitHandler: Sendable {
    /// The state, settings, origin check and waiting limit the form goes through.
    let web: WebContext

    /// `POST /log` with `habit=<name>`: logs it upstream for the active user, now, then 303 back to `/log` with a
    /// confirmation or a failure code. Nothing is retried silently: the user sees that it failed.
    func post(_ request: Request, _ context: RequestContext) async throws -> Response {
        try web.originCheck.verify(request, peer: context.peer)
        let form = try request.formParameters()
        // The page of the habits the form was on (a paged Log Habit), so the answer comes back to it.
        let onPage = Pager.parse(form["page"]).flatMap { $0 > 1 ? "&page=\($0)" : nil } ?? ""
        guard let habit = form["habit"], !habit.isEmpty else {
            throw HTTPError(.badRequest, "The form named no habit to log. Nothing was logged.")
        }
        // Checked against the data before anything goes upstream (issue 47 point 4): a habit the Habits service does
        // not have is a 404 naming it, not a refusal upstream worded as the service not answering.
        guard try await web.state.view(activity: context.activity).snapshot.inputs.habits[habit] != nil else {
            throw HTTPError(.notFound, "There is no habit called “\(habit)” to log. Nothing was logged.")
        }
        // Bounded before anything goes upstream, so a request turned away has logged nothing (issue 23 point 3).
        return try await web.logWaits.waiting(or: LogBusy()) { try await logAndRefresh(habit, onPage: onPage, context) }
    }

    /// Logs `habit` upstream for the active user, now, and waits (briefly) for the refresh after it: the redirect
    /// (back to the page of the habits `onPage` names, `&page=N` or "").
    private func logAndRefresh(_ habit: String, onPage: String, _ context: RequestContext) async throws -> Response {
        let encoded = PercentEncoding.encodeQueryComponent(habit)
        // Your count before the log: the confirmation names everyone the log took you past (issue 22 point 3).
        let before = web.state.currentView?.snapshot.rankings[habit]?.entry(for: User.activeUserID)?.count ?? 0
        do {
            // Logs it, then waits (briefly) for a snapshot fetched after the log: the next page shows the new count.
            try await web.state.log(habit)
        } catch let error as LogRefused {
            let code: LogFailure.Code = error.refused ? .refused : .unavailable
            context.logger.warning("log habit failed", ["habit.name": habit, "error": error.description])
            return .redirect(to: DashboardPage.log.route + "?error=\(code.rawValue)&habit=\(encoded)" + onPage)
        }
        context.logger.info("habit logged", ["habit.name": habit])
        return .redirect(
            to: DashboardPage.log.route + "?logged=\(encoded)&from=\(before)" + onPage
                + "#\(Links.elementID(habit: habit))")
    }
}
