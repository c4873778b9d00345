import DashboardCore
import Foundation

/// Home's "Happening now" for a browser with no favourites and no follows (issue 10 point 3): the habits and people
/// whose counts grew most since a few minutes ago, each with one-click Favourite or Follow.
///
/// A pure function of the snapshot, the browser's settings and a past point of `ActivityHistory`; with no past
/// point (or nothing grew) it shows the most active overall.
public struct HappeningNow: Equatable, Sendable {
    /// One habit or person in the list.
    public struct Item: Equatable, Sendable {
        /// The habit's name or the person's name.
        public var name: String
        /// The habit's name or the person's id: what the form posts about.
        public var id: String
        /// The dashboard link.
        public var path: String
        /// The element id (and live key) on Home.
        public var elementID: String
        /// The count gained since the baseline, or the total when there is none.
        public var count: Int
        /// The colour of the category or person.
        public var color: ColorStyle
        /// Whether the browser already favours or follows it.
        public var isChosen: Bool
        /// Whether this is the active user (who is not offered a Follow).
        public var isActiveUser: Bool
    }

    /// The habits, most grown first (ties by name).
    public var habits: [Item]
    /// The people, most grown first (ties by name).
    public var people: [Item]
    /// Whole minutes the counts were compared over; nil when they are totals.
    public var minutes: Int?

    /// The line under the heading.
    public var caption: String {
        guard let minutes else { return "The most active habits and people so far." }
        return "What grew in the last \(minutes) min. Favorite a habit or follow a person to build your Home."
    }

    /// What the page shows next to one item: "+3 in the last 4 min" or "12 in all".
    public func trend(_ item: Item) -> String {
        guard let minutes else { return "\(item.count) in all" }
        return "+\(item.count) in the last \(minutes) min"
    }

    /// Builds the lists; `limit` items each.
    init(
        snapshot: Snapshot, settings: Settings, baseline: ActivityHistory.Point?, now: Date,
        limit: Int = 5
    ) {
        let favorites = Set(settings.favoriteHabits)
        let followed = Set(settings.followedUserIDs)
        var habitScores = Self.scores(snapshot.habitTotals, baseline?.habitTotals)
        var userScores = Self.scores(snapshot.userTotals, baseline?.userTotals)
        var minutes = baseline.map { max(1, Int((now.timeIntervalSince($0.time) / 60).rounded())) }
        if habitScores.isEmpty && userScores.isEmpty {
            // Nothing grew (or no past point): the most active overall is still a living first view.
            habitScores = snapshot.habitTotals.filter { $0.value > 0 }
            userScores = snapshot.userTotals.filter { $0.value > 0 }
            minutes = nil
        }
        self.minutes = minutes
        habits = snapshot.sortedHabits.enumerated().compactMap { place, habit -> (Int, Int, Item)? in
            guard let score = habitScores[habit.name] else { return nil }
            let elementID = Links.elementID(habit: habit.name)
            return (
                score, place,
                Item(
                    name: habit.name, id: habit.name, path: Links.habit(habit.name), elementID: elementID,
                    count: score, color: ColorStyle(habit.category.color), isChosen: favorites.contains(habit.name),
                    isActiveUser: false)
            )
        }.sorted { $0.0 != $1.0 ? $0.0 > $1.0 : $0.1 < $1.1 }.prefix(limit).map(\.2)
        people = snapshot.sortedUsers.enumerated().compactMap { place, user -> (Int, Int, Item)? in
            guard let score = userScores[user.id] else { return nil }
            return (
                score, place,
                Item(
                    name: user.name, id: user.id, path: Links.person(user.id),
                    elementID: Links.elementID(person: user.id), count: score, color: ColorStyle(user.color),
                    isChosen: followed.contains(user.id), isActiveUser: user.id == snapshot.activeUserID)
            )
        }.sorted { $0.0 != $1.0 ? $0.0 > $1.0 : $0.1 < $1.1 }.prefix(limit).map(\.2)
    }

    /// Growth above zero since `baseline`, by key; empty without a baseline.
    private static func scores(_ totals: [String: Int], _ baseline: [String: Int]?) -> [String: Int] {
        guard let baseline else { return [:] }
        return totals.reduce(into: [:]) { result, entry in
            let grown = entry.value - (baseline[entry.key] ?? 0)
            if grown > 0 { result[entry.key] = grown }
        }
    }
}
