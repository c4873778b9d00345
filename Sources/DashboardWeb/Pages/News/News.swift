import DashboardCore
import TemplateKit

/// The short notices every page of the dashboard shows while it is open (issue 22 point 3): the rank changes of the
/// last `window` seconds that concern this browser — a person it follows passed the active user or was passed by
/// them, or a favourite habit's lead changed hands — newest first, at most `limit`, each (habit, person, kind) once
/// and a lead change no longer true said as such (`MomentLog.lines`). `live.js` announces each new one in a polite
/// live region; they leave the page once older than the window.
///
/// A pure function of the moment log, the browser's settings, who leads each habit now and now.
struct News: Equatable, Sendable {
    /// The lines, newest first.
    var items: [MomentLine]

    /// The news for `settings` at `now` (seconds since 1970); `leaders(habit)` are the ids ranked first now.
    init(
        moments: MomentLog, settings: Settings, leaders: (String) -> [String], now: Int, window: Int = 15 * 60,
        limit: Int = 3
    ) {
        let followed = Set(settings.followedUserIDs)
        let favorites = Set(settings.favoriteHabits)
        let concerning = moments.since(now - window).reversed().filter { change in
            change.kind.isLead ? favorites.contains(change.habit) : followed.contains(change.userID)
        }
        items = Array(moments.lines(concerning, leaders: leaders, now: now).prefix(limit))
    }

    /// What the rendering depends on: each line's id and wording (a minute later "just now" reads "1 min ago", and a
    /// lead taken may later read as one that ended), as SHA-256 (issue 18): the render cache is shared between
    /// browsers, so the key of one browser's news must not be one another can collide with on purpose.
    var key: SettingsKey {
        SettingsKey(
            sequence: items.map {
                $0.id + " " + $0.sentence + " " + ($0.until == nil ? "" : "until ") + $0.time.relative
            })
    }

    /// The value of `Templates/fragments/news.html`.
    var templateValue: TemplateValue {
        ["items": .list(items.map(\.templateValue))]
    }
}
