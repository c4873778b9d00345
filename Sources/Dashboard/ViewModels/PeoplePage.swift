import Foundation
import HabitsAPI

/// What the People page shows: every user sorted by name, optionally only followed ones, optionally matching a name.
///
/// A pure function of its inputs: no I/O, no clock, no globals.
public struct PeoplePage: Equatable, Sendable {
    /// The cards that pass the filters, sorted by name.
    public var people: [PersonCard]
    /// Whether only followed people are shown.
    public var followedOnly: Bool
    /// The name search as given (trimmed); empty means no search.
    public var query: String
    /// How many users there are before filtering.
    public var totalCount: Int
    /// How many of them the browser follows.
    public var followedCount: Int

    /// Builds the page; `query` matches anywhere in the name, ignoring case and accents ("zoe" finds "Zoë": people
    /// type names without accents).
    public init(
        users: [String: User], settings: Settings, followedOnly: Bool = false, query: String = "",
        activeUserID: String = User.activeUserID
    ) {
        let trimmed = query.trimmingCharacters(in: .whitespacesAndNewlines)
        let followed = Set(settings.followedUserIDs)
        people =
            users.values
            .filter { !followedOnly || followed.contains($0.id) }
            .filter {
                trimmed.isEmpty
                    || $0.name.range(of: trimmed, options: [.caseInsensitive, .diacriticInsensitive]) != nil
            }
            .sorted { NameOrder.precedes($0.name, $1.name, lhsKey: $0.id, rhsKey: $1.id) }
            .map { PersonCard(user: $0, isFollowed: followed.contains($0.id), isActiveUser: $0.id == activeUserID) }
        self.followedOnly = followedOnly
        self.query = trimmed
        totalCount = users.count
        followedCount = users.keys.filter { followed.contains($0) }.count
    }
}
