import DashboardCore
import Foundation
import TemplateKit

/// What `Templates/layout.html` needs besides the page's content: title, current tab, live flag, stale notice.
public struct PageFrame: Equatable, Sendable {
    /// The four tabs of the app (SPEC §5); `none` for pages outside them (errors).
    public enum Tab: Equatable, Sendable {
        case home, habits, people, log, none
    }

    /// The page title (before " · Habits").
    public var title: String
    /// The tab marked with `aria-current="page"`.
    public var tab: Tab
    /// Whether the page has a live region: adds the script and the `<noscript>` refresh.
    public var isLive: Bool
    /// When set, the layout shows "data as of HH:MM:SS" (live pages show it inside their fragment instead).
    public var staleNotice: StaleNotice?
    /// The page's own URL (path and query, without `live`): the pause and resume links of a live page point at it.
    public var path: String
    /// Whether live updates are paused (`?live=0`): no script, no refresh, and a link that resumes them.
    public var isPaused: Bool
    /// Whether the page tries again by itself (an error page of an unreachable upstream): the script, and a slow
    /// refresh without JavaScript.
    public var retries: Bool

    /// The reference data version the colour sheet was made from: the layout links `/colors.css?v=<it>`, a URL
    /// browsers keep for a year (issue 14); nil links the plain `/colors.css`, which revalidates.
    public var colorsVersion: UInt64?

    /// Creates a frame.
    public init(
        title: String, tab: Tab, isLive: Bool = false, staleNotice: StaleNotice? = nil, path: String = "",
        isPaused: Bool = false, retries: Bool = false, colorsVersion: UInt64? = nil
    ) {
        self.title = title
        self.tab = tab
        self.isLive = isLive
        self.staleNotice = staleNotice
        self.path = path
        self.isPaused = isPaused
        self.retries = retries
        self.colorsVersion = colorsVersion
    }

    /// The colour sheet's URL for `version` of the reference data.
    public static func colorsURL(_ version: UInt64?) -> String {
        version.map { "/colors.css?v=" + String($0, radix: 16) } ?? "/colors.css"
    }

    /// `path` with `live=0` added: the link that pauses the page's refresh without JavaScript (WCAG 2.2.1).
    var pausePath: String { path + (path.contains("?") ? "&" : "?") + "live=0" }

    /// The layout's fields, merged into the page's value.
    public var fields: TemplateObject {
        [
            "title": .text(title),
            "tabHome": .bool(tab == .home),
            "tabHabits": .bool(tab == .habits),
            "tabPeople": .bool(tab == .people),
            "tabLog": .bool(tab == .log),
            "live": .bool(isLive && !isPaused),
            "paused": .bool(isLive && isPaused),
            "pausePath": .text(pausePath),
            "resumePath": .text(path.isEmpty ? "/" : path),
            "retries": .bool(retries),
            "stale": staleNotice?.templateValue ?? .null,
            "colorsCSS": .text(Self.colorsURL(colorsVersion)),
            // Every page of the app carries the news region (issue 22 point 3); error pages do not.
            "news": tab == .none ? .null : ["src": .text(LivePage.newsRoute)],
        ]
    }
}
