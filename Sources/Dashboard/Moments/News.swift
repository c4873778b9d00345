import TemplateKit

/// The short notices every page of the dashboard shows while it is open (issue 22 point 3): the rank changes of the
/// last `window` seconds that concern this browser — a person it follows passed the active user or was passed by
/// them, or a favourite habit has a new leader — newest first, at most `limit`. `live.js` announces each new one in
/// a polite live region; they leave the page once older than the window.
///
/// A pure function of the moment log, the browser's settings and now.
struct News: Equatable, Sendable {
    /// The lines, newest first.
    var items: [MomentLine]

    /// The news for `settings` at `now` (seconds since 1970).
    init(moments: MomentLog, settings: Settings, now: Int, window: Int = 15 * 60, limit: Int = 3) {
        let followed = Set(settings.followedUserIDs)
        let favorites = Set(settings.favoriteHabits)
        items = moments.since(now - window).reversed().filter { change in
            change.kind == .newLeader ? favorites.contains(change.habit) : followed.contains(change.userID)
        }.prefix(limit).map { MomentLine($0, now: now) }
    }

    /// What the rendering depends on: each line's id and wording (a minute later "just now" reads "1 min ago"), as
    /// SHA-256 (issue 18): the render cache is shared between browsers, so the key of one browser's news must not be
    /// one another can collide with on purpose.
    var key: SettingsKey {
        SettingsKey(sequence: items.map { $0.id + " " + $0.time.relative })
    }

    /// The value of `Templates/fragments/news.html`.
    var templateValue: TemplateValue {
        ["items": .list(items.map(\.templateValue))]
    }
}
