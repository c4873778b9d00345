/// One moment that moves people (issue 22 point 3): someone passed the active user in a habit, the active user passed
/// someone, or a habit's lead changed hands (issue 47 point 1). Derived by `RankChanges` from two consecutive
/// snapshots; kept in `MomentLog`.
public struct RankChange: Equatable, Sendable {
    /// What happened. The raw values are stored in `history.bin`: a new kind takes a new value.
    public enum Kind: UInt8, Sendable {
        /// `userID` went from behind or level with the active user to ahead of them.
        case passedYou = 0
        /// The active user went from behind or level with `userID` to ahead of them.
        case youPassed = 1
        /// `userID` is now the habit's only leader and had not led it before within the log (the active user too:
        /// "You"); `others` names the leader they passed when one led alone.
        case newLeader = 2
        /// `userID` now shares the top with `others` and was not at the top before.
        case tiedLead = 3
        /// `userID` is the only leader again after being passed or tied; `others` as for `newLeader`.
        case tookLeadBack = 4

        /// Whether the change is about the habit's lead rather than between the active user and someone.
        public var isLead: Bool { self == .newLeader || self == .tiedLead || self == .tookLeadBack }
    }

    /// A person a lead change names besides its subject: their id and the name the sentence gives them ("you" for
    /// the active user).
    public struct Person: Equatable, Sendable {
        /// Their id.
        public var id: String
        /// Their name as the sentence gives it.
        public var name: String

        /// Creates a person.
        public init(id: String, name: String) {
            self.id = id
            self.name = name
        }
    }

    /// What happened.
    public var kind: Kind
    /// The habit.
    public var habit: String
    /// The other person (for a lead change, its subject: the new leader, possibly the active user).
    public var userID: String
    /// Their name as the newer snapshot gives it.
    public var userName: String
    /// The active user's rank in the habit after the change (nil when they have not logged it).
    public var yourRank: Int?
    /// When it was seen: seconds since 1970, wall clock.
    public var second: Int
    /// For a lead change, the one leader it passed (`newLeader`, `tookLeadBack`, when one led alone) or those it ties
    /// with, who were at the top before first (`tiedLead`); else empty.
    public var others: [Person]

    /// Creates a change.
    public init(
        kind: Kind, habit: String, userID: String, userName: String, yourRank: Int?, second: Int,
        others: [Person] = []
    ) {
        self.kind = kind
        self.habit = habit
        self.userID = userID
        self.userName = userName
        self.yourRank = yourRank
        self.second = second
        self.others = others
    }

    /// The sentence without its time: "Cy Young passed you in Yoga", "You passed Ada Lovelace in Running",
    /// "Cy Young took the lead in Yoga" ("You took the lead…" for the active user), "Cy Young tied Ada Lovelace for
    /// the lead in Yoga", "Cy Young took back the lead in Yoga".
    public var sentence: String {
        switch kind {
        case .passedYou: "\(userName) passed you in \(habit)"
        case .youPassed: "You passed \(userName) in \(habit)"
        case .newLeader: "\(userName) took the lead in \(habit)"
        case .tiedLead: "\(userName) tied \(Self.list(others.map(\.name))) for the lead in \(habit)"
        case .tookLeadBack: "\(userName) took back the lead in \(habit)"
        }
    }

    /// The sentence of a lead change that is no longer true: "Cy Young had the lead in Yoga" (its line then says
    /// until when).
    var endedSentence: String { "\(userName) had the lead in \(habit)" }

    /// "Amy", "Amy and Bob", "Amy, Bob and Cy" ("nobody" for none, which a tie never has).
    static func list(_ names: [String]) -> String {
        guard let last = names.last else { return "nobody" }
        return names.count == 1 ? last : names.dropLast().joined(separator: ", ") + " and " + last
    }
}
