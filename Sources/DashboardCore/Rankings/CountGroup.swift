import HabitsAPI

/// The users of a habit who share one count (habit detail page). Users within a group are ordered by name.
public struct CountGroup: Equatable, Sendable {
    /// The shared count (> 0).
    public var count: Int
    /// The shared competition rank.
    public var rank: Int
    /// Whether this is the top group (the habit's leaders).
    public var isLeaders: Bool
    /// The heading: "Leaders" for the top group, else the count.
    public var title: String
    /// `count / top count`, 0…1, for a bar.
    public var fraction: Double
    /// `fraction` as a whole percentage, 0…100, for a CSS width.
    public var percent: Int
    /// The users, ordered by name ("Active User" for the active user).
    public var members: [Member]

    /// One user in a group.
    public struct Member: Equatable, Sendable {
        /// The user's id.
        public var userID: String
        /// The dashboard link to the user.
        public var path: String
        /// The name shown: the user's name, or "Active User" for the active user.
        public var name: String
        /// The user's colour (neutral when they have none).
        public var color: ColorStyle
        /// Whether this is the active user.
        public var isActiveUser: Bool
        /// The user's count (the group's count).
        public var count: Int
        /// `count / top count`, 0…1.
        public var fraction: Double
    }

    /// The heading of the top group.
    public static let leadersTitle = "Leaders"

    static func groups(_ ranking: Ranking) -> [CountGroup] {
        guard let top = ranking.entries.first?.count, top > 0 else { return [] }
        var groups: [CountGroup] = []
        for entry in ranking.entries {
            let fraction = Double(entry.count) / Double(top)
            let member = Member(
                userID: entry.user.id, path: Links.person(entry.user.id), name: entry.name,
                color: ColorStyle(entry.user.color), isActiveUser: entry.isActiveUser, count: entry.count,
                fraction: fraction)
            if let last = groups.indices.last, groups[last].count == entry.count {
                groups[last].members.append(member)
            } else {
                let isLeaders = groups.isEmpty
                groups.append(
                    CountGroup(
                        count: entry.count, rank: entry.rank, isLeaders: isLeaders,
                        title: isLeaders ? leadersTitle : String(entry.count), fraction: fraction,
                        percent: Int((fraction * 100).rounded()), members: [member]))
            }
        }
        return groups
    }
}
