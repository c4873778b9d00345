import DashboardCore
import HTTPServer

extension DashboardApp {
    /// `GET /fragments/news`: the rank changes of the last minutes that concern this browser, long-polled by every
    /// page's news region (issue 22 point 3). Polling it keeps the store watched, so changes arrive while any page of
    /// the dashboard is open.
    func newsFragment(_ request: Request, _ context: RequestContext) async throws -> Response {
        try await liveFragment(request, context) { view, browser in
            let news = News(
                moments: activity.moments, settings: browser.value, leaders: MomentLog.leaders(in: view.snapshot),
                now: ActivityHistory.second(activity.pageDate(now: state.date)))
            let key = RenderKey(route: "fragment:news", content: 0, personal: news.key, stale: nil)
            return try renderCache.entry(for: key) {
                try renderer.fragmentBytes("fragments/news", news.templateValue)
            }
        }
    }
}
