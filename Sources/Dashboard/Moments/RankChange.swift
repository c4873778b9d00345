/// One moment that moves people (issue 22 point 3): someone passed the active user in a habit, the active user passed
/// someone, or a habit has a new leader. Derived by `RankChanges` from two consecutive snapshots; kept in `MomentLog`.
public struct RankChange: Equatable, Sendable {
    /// What happened.
    public enum Kind: UInt8, Sendable {
        /// `userID` went from behind or level with the active user to ahead of them.
        case passedYou = 0
        /// The active user went from behind or level with `userID` to ahead of them.
        case youPassed = 1
        /// `userID` is now among the habit's leaders and was not before (the active user too: "You").
        case newLeader = 2
    }

    /// What happened.
    public var kind: Kind
    /// The habit.
    public var habit: String
    /// The other person (for `newLeader`, the new leader, possibly the active user).
    public var userID: String
    /// Their name as the newer snapshot gives it.
    public var userName: String
    /// The active user's rank in the habit after the change (nil when they have not logged it).
    public var yourRank: Int?
    /// When it was seen: seconds since 1970, wall clock.
    public var second: Int

    /// Creates a change.
    public init(kind: Kind, habit: String, userID: String, userName: String, yourRank: Int?, second: Int) {
        self.kind = kind
        self.habit = habit
        self.userID = userID
        self.userName = userName
        self.yourRank = yourRank
        self.second = second
    }

    /// The sentence without its time: "Cy Young passed you in Yoga", "You passed Ada Lovelace in Running",
    /// "Cy Young took the lead in Yoga" ("You took the lead…" for the active user).
    public var sentence: String {
        switch kind {
        case .passedYou: "\(userName) passed you in \(habit)"
        case .youPassed: "You passed \(userName) in \(habit)"
        case .newLeader: "\(userName) took the lead in \(habit)"
        }
    }
}
