import DashboardCore
import HTTPServer

/// The news region every page has (issue 22 point 3).
struct NewsHandler: Sendable {
    /// The state, renderer and live polls the region is built from.
    let web: WebContext

    /// `GET /fragments/news`: the rank changes of the last minutes that concern this browser, long-polled by every
    /// page's news region (issue 22 point 3). Polling it keeps the store watched, so changes arrive while any page of
    /// the dashboard is open.
    func fragment(_ request: Request, _ context: RequestContext) throws -> Answer {
        let activity = web.activity
        return try web.live.answer(request, context) { view, browser in
            let news = News(
                moments: activity.moments, settings: browser.value, leaders: MomentLog.leaders(in: view.snapshot),
                now: ActivityHistory.second(activity.pageDate(now: web.state.date)))
            let key = RenderKey(route: "fragment:news", content: 0, personal: news.key, stale: nil)
            return try web.renderCache.entry(for: key) {
                try web.renderer.fragmentBytes("fragments/news", news.templateValue)
            }
        }
    }
}
