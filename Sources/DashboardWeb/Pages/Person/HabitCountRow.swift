import DashboardCore
import HabitsAPI

/// One of a person's habits with their count (person detail page).
public struct HabitCountRow: Equatable, Sendable {
    /// The habit's name.
    public var name: String
    /// The dashboard link to the habit.
    public var path: String
    /// The habit's category name.
    public var categoryName: String
    /// The category's colour.
    public var categoryColor: ColorStyle
    /// How many times the person logged it.
    public var count: Int

    /// Creates a row from a habit count.
    public init(_ habitCount: HabitCount) {
        name = habitCount.habit.name
        path = Links.habit(habitCount.habit.name)
        categoryName = habitCount.habit.category.name
        categoryColor = ColorStyle(habitCount.habit.category.color)
        count = habitCount.count
    }
}
