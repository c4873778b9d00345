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

    /// Creates a frame.
    public init(title: String, tab: Tab, isLive: Bool = false, staleNotice: StaleNotice? = nil) {
        self.title = title
        self.tab = tab
        self.isLive = isLive
        self.staleNotice = staleNotice
    }

    /// The layout's fields, merged into the page's value.
    public var fields: [String: TemplateValue] {
        [
            "title": .text(title),
            "tabHome": .bool(tab == .home),
            "tabHabits": .bool(tab == .habits),
            "tabPeople": .bool(tab == .people),
            "tabLog": .bool(tab == .log),
            "live": .bool(isLive),
            "stale": staleNotice?.templateValue ?? .null,
        ]
    }
}
