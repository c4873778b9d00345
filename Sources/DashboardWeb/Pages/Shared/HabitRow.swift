import DashboardCore
import HabitsAPI

/// A habit as a row or button on the Habits and Log Habit pages.
public struct HabitRow: Hashable, Sendable {
    /// The habit's name.
    public var name: String
    /// The dashboard link to the habit.
    public var path: String
    /// The habit's category name.
    public var categoryName: String
    /// The category's colour.
    public var categoryColor: ColorStyle
    /// Whether the habit is one of the browser's favourites.
    public var isFavorite: Bool

    /// Creates a row for `habit`.
    public init(habit: Habit, isFavorite: Bool) {
        self.name = habit.name
        self.path = Links.habit(habit.name)
        self.categoryName = habit.category.name
        self.categoryColor = ColorStyle(habit.category.color)
        self.isFavorite = isFavorite
    }
}
