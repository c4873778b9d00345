import DashboardCore
import HabitsAPI

/// A titled group of habits: *Favorites* or one category (Habits and Log Habit pages).
public struct HabitSection: Equatable, Sendable {
    /// The heading: "Favorites" or the category name.
    public var title: String
    /// Whether this is the Favorites section.
    public var isFavorites: Bool
    /// The heading colour: yellow for Favorites, else the category's colour.
    public var color: ColorStyle
    /// The habits, sorted by name.
    public var habits: [HabitRow]

    /// Creates a section.
    public init(title: String, isFavorites: Bool, color: ColorStyle, habits: [HabitRow]) {
        self.title = title
        self.isFavorites = isFavorites
        self.color = color
        self.habits = habits
    }

    /// The title of the favourites section.
    public static let favoritesTitle = "Favorites"

    /// Favorites first (only if any still exist upstream), then one section per category that has habits, sorted by
    /// name; habits sorted by name; a favourite appears only in Favorites.
    static func sections(snapshot: Snapshot, settings: Settings) -> [HabitSection] {
        let ordered = orderedHabits(snapshot: snapshot, settings: settings)
        return sections(ordered[...])
    }

    /// Page `page` of those sections, `size` habits a page (issue 21 point 4: 1 900 habits were a 1 MB Habits page):
    /// a section split between pages is on each, with its heading; nil when there is no such page.
    static func sections(snapshot: Snapshot, settings: Settings, page: Int, size: Int) -> (
        sections: [HabitSection], pager: Pager
    )? {
        let ordered = orderedHabits(snapshot: snapshot, settings: settings)
        guard let pager = Pager(number: page, total: ordered.count, size: size) else { return nil }
        return (sections(ordered[pager.range]), pager)
    }

    /// Every habit in display order with whether it is a favourite (rows are made only for the page shown).
    private static func orderedHabits(snapshot: Snapshot, settings: Settings) -> [(habit: Habit, isFavorite: Bool)] {
        let favorites = Set(settings.favoriteHabits)
        let sorted = snapshot.sortedHabits
        var ordered = sorted.filter { favorites.contains($0.name) }.map { (habit: $0, isFavorite: true) }
        var byCategory: [String: [Habit]] = [:]
        for habit in sorted where !favorites.contains(habit.name) {
            byCategory[habit.category.name, default: []].append(habit)
        }
        for name in byCategory.keys.sorted(by: { snapshot.order.precedes($0, $1) }) {
            ordered += (byCategory[name] ?? []).map { (habit: $0, isFavorite: false) }
        }
        return ordered
    }

    /// Consecutive habits of one section (Favorites, or one category) grouped under its heading.
    private static func sections(_ ordered: ArraySlice<(habit: Habit, isFavorite: Bool)>) -> [HabitSection] {
        var sections: [HabitSection] = []
        for (habit, isFavorite) in ordered {
            let row = HabitRow(habit: habit, isFavorite: isFavorite)
            if let last = sections.indices.last, sections[last].isFavorites == isFavorite,
                isFavorite || sections[last].title == habit.category.name
            {
                sections[last].habits.append(row)
            } else if isFavorite {
                sections.append(HabitSection(title: favoritesTitle, isFavorites: true, color: .favorite, habits: [row]))
            } else {
                sections.append(
                    HabitSection(
                        title: habit.category.name, isFavorites: false, color: ColorStyle(habit.category.color),
                        habits: [row]))
            }
        }
        return sections
    }
}
