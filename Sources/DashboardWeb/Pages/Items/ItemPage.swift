import DashboardCore
import TemplateKit

/// A live page of one item, a habit or a person: what differs between the two, so that one path
/// (`ItemPageHandler.swift`) serves both, driven by each page's `PageDeclaration`s (issue 18).
protocol ItemPage: Sendable {
    /// Where the page lives and how it is shown.
    static var kind: ItemKind { get }
    /// The page's declaration: what its render key carries.
    static var declaration: PageDeclaration { get }
    /// Its fragment's declaration, which reads no settings: one rendering serves every browser.
    static var fragmentDeclaration: PageDeclaration { get }
    /// What a browser may choose on the page (a Favorite, a Follow).
    static var choice: ItemChoice { get }

    /// The page of `item` in `snapshot` for a browser with `settings`, with the item's trend over `range` from
    /// `history`, on page `page` of its list (`ItemKind.isPaged`); nil when the snapshot does not know the item.
    init?(
        item: String, snapshot: Snapshot, settings: Settings, history: ActivityHistory, range: HistoryRange, page: Int)

    /// Which page of its list the page shows; nil when the page asked for is past the last (a 404).
    var pager: Pager? { get }
    /// How many pages its list fills (the 404 of a page past the last names it).
    var pageCount: Int { get }

    /// The item as its page names it (the page's title).
    var name: String { get }
    /// The page's link.
    var path: String { get }
    /// The static part of the page's template.
    var templateFields: TemplateObject { get }
    /// The value of the fragment's template.
    func fragmentValue(stale: StaleNotice?, now: Int?) -> TemplateValue
}

/// What an item page's handlers need to know of it beside its view model.
struct ItemKind: Sendable {
    /// The page and its fragment.
    var live: LivePage
    /// The route whose `:key` names the item.
    var route: ItemRoute
    /// The tab the page is shown under.
    var tab: PageFrame.Tab
    /// The 404's message for an item the snapshot does not know (given the item).
    var unknown: @Sendable (String) -> String
    /// Whether the page pages a long list (`?page=`, issue 21 point 4); a page that does not ignores `page`, so it is
    /// in no key.
    var isPaged = false
    /// What the list is, for the 404 of a page past its last ("the people who logged Yoga").
    var listName: @Sendable (String) -> String = { $0 }
}

extension HabitDetailPage: ItemPage {
    static let kind = ItemKind(
        live: .habit, route: Links.habitRoute, tab: .habits, unknown: { "There is no habit called “\($0)”." },
        isPaged: true, listName: { "the people who logged \($0)" })

    static let choice = ItemChoice(
        route: Links.habitFavoriteRoute, field: "favorite", logKey: "habit.name",
        exists: { $0.habits[$1] != nil }, isChosen: { $0.isFavorite($1) }, toggle: { $0.toggleFavorite($1) })

    init?(
        item: String, snapshot: Snapshot, settings: Settings, history: ActivityHistory, range: HistoryRange, page: Int
    ) {
        self.init(
            habitName: item, snapshot: snapshot, settings: settings, trend: history.habitTrend(item, range: range),
            page: page)
        self.range = range
    }

    var pageCount: Int { Pager.pageCount(memberCount, size: Pager.membersPerPage) }
}

extension PersonDetailPage: ItemPage {
    static let kind = ItemKind(live: .person, route: Links.personRoute, tab: .people) {
        "There is nobody with the id “\($0)”."
    }

    static let choice = ItemChoice(
        route: Links.personFollowRoute, field: "follow", logKey: "user.id",
        exists: { $0.users[$1] != nil }, isChosen: { $0.isFollowed($1) }, toggle: { $0.toggleFollow($1) })

    /// Their leading habits come from the snapshot's rankings (the same rule as `/userLeadingStats`: every user whose
    /// count equals the habit's top count), so no id from a URL ever reaches the upstream.
    init?(
        item: String, snapshot: Snapshot, settings: Settings, history: ActivityHistory, range: HistoryRange, page: Int
    ) {
        self.init(userID: item, snapshot: snapshot, settings: settings, trend: history.personTrend(item, range: range))
        self.range = range
    }

    /// A person's page is one page: their habits are bounded by the habits there are.
    var pager: Pager? { Pager(number: 1, total: 0, size: 1) }
    var pageCount: Int { 1 }
}
