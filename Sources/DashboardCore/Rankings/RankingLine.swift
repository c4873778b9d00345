import HabitsAPI

/// One ranking line: `<name> <count>`, `You <count> (<ordinal rank>)`, or `Nobody yet!`.
public struct RankingLine: Hashable, Sendable {
    /// The exact text of the line.
    public var text: String
    /// The user's id; nil for `Nobody yet!`.
    public var userID: String?
    /// The dashboard link to the user; nil for `Nobody yet!` and for You.
    public var userPath: String?
    /// What names the user on the line: their name, `You`, or empty for `Nobody yet!`.
    public var name: String
    /// The count; nil for `Nobody yet!`.
    public var count: Int?
    /// The competition rank; nil for `Nobody yet!`.
    public var rank: Int?
    /// Whether the line is the active user's.
    public var isActiveUser: Bool

    /// Creates a line from parts.
    public init(
        text: String, userID: String?, userPath: String?, name: String, count: Int?, rank: Int?, isActiveUser: Bool
    ) {
        self.text = text
        self.userID = userID
        self.userPath = userPath
        self.name = name
        self.count = count
        self.rank = rank
        self.isActiveUser = isActiveUser
    }

    /// The text shown when a favourite habit has no counts yet.
    public static let nobodyYetText = "Nobody yet!"

    /// `Nobody yet!`, the leader line of a habit nobody logged.
    public static let nobodyYet = RankingLine(
        text: Self.nobodyYetText, userID: nil, userPath: nil, name: "", count: nil, rank: nil, isActiveUser: false)

    init(_ entry: Ranking.Entry) {
        if entry.isActiveUser {
            self.init(
                text: "You \(entry.count) (\(Ordinal.string(entry.rank)))", userID: entry.user.id, userPath: nil,
                name: "You", count: entry.count, rank: entry.rank, isActiveUser: true)
        } else {
            self.init(
                text: "\(entry.user.name) \(entry.count)", userID: entry.user.id,
                userPath: Links.person(entry.user.id), name: entry.user.name, count: entry.count, rank: entry.rank,
                isActiveUser: false)
        }
    }
}
