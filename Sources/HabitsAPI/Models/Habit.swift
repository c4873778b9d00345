/// A habit people log. Identified by its name (as in the app); sorts by name.
public struct Habit: Codable, Hashable, Comparable, Sendable {
    /// The unique name.
    public var name: String
    /// The category, resolved into a full object by the API.
    public var category: Category
    /// A sentence describing the habit.
    public var info: String

    /// Creates a habit.
    public init(name: String, category: Category, info: String) {
        self.name = name
        self.category = category
        self.info = info
    }

    public static func == (lhs: Habit, rhs: Habit) -> Bool { lhs.name == rhs.name }
    public func hash(into hasher: inout Hasher) { hasher.combine(name) }
    public static func < (lhs: Habit, rhs: Habit) -> Bool { lhs.name < rhs.name }
}
