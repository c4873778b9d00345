import DashboardCore
import TemplateKit

/// "Since your last visit" at the top of Home after 30 minutes or more away (issue 22 point 4): for the browser's
/// favourites and follows, the counts gained, the rank changes between the active user and the people followed, and
/// the latest lead change of favourite habits, from the stored history and rank changes.
///
/// A pure function of the snapshot, the settings, the time of the last visit and now (seconds since 1970), a way to
/// read a past total from the history, and the moment log.
struct SinceLastVisit: Equatable, Sendable {
    /// One "+N" entry: a habit or a person and the count gained.
    struct Gain: Equatable, Sendable {
        var name: String
        var path: String
        var amount: Int
    }

    /// When the browser was last here.
    var lastVisit: TimeText
    /// Favourite habits whose total grew, most first.
    var habits: [Gain]
    /// Followed people whose total grew, most first.
    var people: [Gain]
    /// Passed / overtaken between the active user and followed people, newest first (at most `limit`).
    var rankChanges: [MomentLine]
    /// Rank changes beyond `limit`.
    var moreRankChanges: Int
    /// The latest lead change of each favourite habit whose lead changed, newest first, when still true.
    var newLeaders: [MomentLine]

    /// Whether anything happened at all.
    var isEmpty: Bool { habits.isEmpty && people.isEmpty && rankChanges.isEmpty && newLeaders.isEmpty }

    /// The summary of the time from `lastVisit` to `now`. `pastTotal(key, person, second)` reads a series' total at
    /// or just after `second`; a series the history does not reach back to counts as nothing gained.
    init(
        snapshot: Snapshot, settings: Settings, lastVisit: Int, now: Int,
        pastTotal: (String, Bool, Int) -> Int?, moments: MomentLog, limit: Int = 3
    ) {
        self.lastVisit = TimeText(second: lastVisit, now: now)
        let favorites = Set(settings.favoriteHabits)
        let followed = Set(settings.followedUserIDs)
        /// What each chosen series (key, name, path) gained since the visit, most first.
        func gains(_ chosen: [(key: String, name: String, path: String)], _ totals: [String: Int], person: Bool)
            -> [Gain]
        {
            chosen.compactMap { item in
                guard let total = totals[item.key], let before = pastTotal(item.key, person, lastVisit), total > before
                else { return nil }
                return Gain(name: item.name, path: item.path, amount: total - before)
            }.sorted { $0.amount > $1.amount }
        }
        habits = gains(
            snapshot.sortedHabits.filter { favorites.contains($0.name) }.map {
                ($0.name, $0.name, Links.habit($0.name))
            },
            snapshot.habitTotals, person: false)
        people = gains(
            snapshot.sortedUsers.filter { followed.contains($0.id) }.map { ($0.id, $0.name, Links.person($0.id)) },
            snapshot.userTotals, person: true)
        let away = moments.since(lastVisit).reversed()
        let leaders = MomentLog.leaders(in: snapshot)
        let changes = moments.lines(
            away.filter { !$0.kind.isLead && followed.contains($0.userID) }, leaders: leaders, now: now)
        rankChanges = Array(changes.prefix(limit))
        moreRankChanges = max(0, changes.count - limit)
        var seen = Set<String>()
        newLeaders = away.filter { $0.kind.isLead && favorites.contains($0.habit) && seen.insert($0.habit).inserted }
            .compactMap { moments.line($0, leaders: leaders, now: now) }
    }

    /// The value of the `sinceLastVisit` section of `Templates/home.html`.
    var templateValue: TemplateValue {
        func gains(_ list: [Gain]) -> TemplateValue {
            .list(
                list.enumerated().map { index, gain in
                    [
                        "name": .text(gain.name), "path": .text(gain.path), "amount": .text("+\(gain.amount)"),
                        "separator": .text(index == 0 ? "" : ", "),
                    ]
                })
        }
        return [
            "lastVisit": lastVisit.templateValue,
            "isEmpty": .bool(isEmpty),
            "hasHabits": .bool(!habits.isEmpty), "habits": gains(habits),
            "hasPeople": .bool(!people.isEmpty), "people": gains(people),
            "rankChanges": .list(rankChanges.map(\.templateValue)),
            "more": moreRankChanges > 0 ? .text("and \(moreRankChanges) more rank changes") : .null,
            "newLeaders": .list(newLeaders.map(\.templateValue)),
        ]
    }
}
