import DashboardCore

/// The order of the People page (`?sort=`): by name, by activity (total count) or by habits led.
public enum PeopleSort: String, CaseIterable, Equatable, Sendable {
    /// By name (the default).
    case name
    /// By the sum of the person's counts, highest first; ties by name.
    case activity
    /// By how many habits the person leads, most first; ties by name.
    case leading

    /// The sort a `sort` query value names: absent or empty means `.name`; anything unknown is nil (a 400).
    public static func parse(_ value: String?) -> PeopleSort? {
        guard let value, !value.isEmpty else { return .name }
        return PeopleSort(rawValue: value)
    }

    /// What the sort control shows for this order.
    public var label: String {
        switch self {
        case .name: "Name"
        case .activity: "Activity"
        case .leading: "Habits led"
        }
    }
}
