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
        let favorites = Set(settings.favoriteHabits)
        let sorted = snapshot.sortedHabits
        var sections: [HabitSection] = []
        let favoriteRows = sorted.filter { favorites.contains($0.name) }.map { HabitRow(habit: $0, isFavorite: true) }
        if !favoriteRows.isEmpty {
            sections.append(
                HabitSection(title: favoritesTitle, isFavorites: true, color: .favorite, habits: favoriteRows))
        }
        var byCategory: [String: [Habit]] = [:]
        for habit in sorted where !favorites.contains(habit.name) {
            byCategory[habit.category.name, default: []].append(habit)
        }
        for name in byCategory.keys.sorted(by: { snapshot.order.precedes($0, $1) }) {
            let members = byCategory[name] ?? []
            sections.append(
                HabitSection(
                    title: name, isFavorites: false, color: ColorStyle(members[0].category.color),
                    habits: members.map { HabitRow(habit: $0, isFavorite: false) }))
        }
        return sections
    }
}
