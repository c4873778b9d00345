import Foundation
import HabitsAPI

/// What the People page shows: every user sorted by name, optionally only followed ones, optionally matching a name.
///
/// A pure function of its inputs: no I/O, no clock, no globals.
public struct PeoplePage: Equatable, Sendable {
    /// The cards that pass the filters, in `sort` order.
    public var people: [PersonCard]
    /// Whether only followed people are shown.
    public var followedOnly: Bool
    /// The name search as given (trimmed); empty means no search.
    public var query: String
    /// The order of the cards.
    public var sort: PeopleSort
    /// How many users there are before filtering.
    public var totalCount: Int
    /// How many of them the browser follows.
    public var followedCount: Int

    /// Builds the page; `query` matches anywhere in the name, ignoring case and accents ("zoe" finds "Zoë": people
    /// type names without accents).
    public init(
        users: [String: User], settings: Settings, followedOnly: Bool = false, query: String = "",
        sort: PeopleSort = .name,
        statistics: CombinedStatistics = CombinedStatistics(userStatistics: [], habitStatistics: []),
        activeUserID: String = User.activeUserID
    ) {
        self.init(
            snapshot: Snapshot(
                inputs: SnapshotInputs(users: users, statistics: statistics), activeUserID: activeUserID),
            settings: settings, followedOnly: followedOnly, query: query, sort: sort)
    }

    /// Builds the page from a snapshot's users (already in name order, which breaks every tie of the other sorts).
    public init(
        snapshot: Snapshot, settings: Settings, followedOnly: Bool = false, query: String = "",
        sort: PeopleSort = .name
    ) {
        let trimmed = Self.normalized(query)
        let followed = Set(settings.followedUserIDs)
        people = snapshot.nameSearch.matches(trimmed).compactMap { position in
            var card = snapshot.personCards[position]
            let isFollowed = followed.contains(card.userID)
            guard !followedOnly || isFollowed else { return nil }
            card.isFollowed = isFollowed
            return card
        }
        people = Self.sorted(people, by: sort)
        self.sort = sort
        self.followedOnly = followedOnly
        self.query = trimmed
        totalCount = snapshot.sortedUsers.count
        followedCount = snapshot.sortedUsers.filter { followed.contains($0.id) }.count
    }

    /// The longest search kept, in characters: no name is longer, and each distinct query is a distinct page.
    static let maxQueryLength = 64

    /// `query` as the page uses it and its render key names it (issue 23: keys ignore what the page ignores):
    /// trimmed, runs of white space made one space, in Unicode's composed form (NFC, so "é" typed either way is one
    /// key), at most `maxQueryLength` characters.
    static func normalized(_ query: String) -> String {
        let words = query.precomposedStringWithCanonicalMapping.split(whereSeparator: \.isWhitespace)
        return String(words.joined(separator: " ").prefix(maxQueryLength))
    }

    /// `cards` (in name order) in `sort` order; equal keys keep the name order.
    static func sorted(_ cards: [PersonCard], by sort: PeopleSort) -> [PersonCard] {
        let key: (PersonCard) -> Int
        switch sort {
        case .name: return cards
        case .activity: key = \.totalCount
        case .leading: key = \.leadingCount
        }
        return cards.enumerated().sorted { a, b in
            let (ka, kb) = (key(a.element), key(b.element))
            return ka != kb ? ka > kb : a.offset < b.offset
        }.map(\.element)
    }
}
