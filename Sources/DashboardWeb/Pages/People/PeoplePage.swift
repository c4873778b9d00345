import DashboardCore
import Foundation
import HabitsAPI

/// What the People page shows: every user sorted by name, optionally only followed ones, optionally matching a name.
///
/// A pure function of its inputs: no I/O, no clock, no globals.
public struct PeoplePage: Equatable, Sendable {
    /// The cards of the page shown that pass the filters, in `sort` order (every card when the list fits one page).
    public var people: [PersonCard]
    /// How many cards pass the filters, on every page.
    public var matchCount: Int
    /// Which page of the matching cards `people` is (`?page=`); nil when the page asked for is past the last (a 404).
    public var pager: Pager?
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

    /// Builds page `page` (1-based, `Pager.peoplePerPage` cards each) of the matching cards. Only that page's cards are
    /// made: a search over tens of thousands of people costs the index look-up, the filter and the sort of positions.

    /// Builds the page from a snapshot's users (already in name order, which breaks every tie of the other sorts).
    public init(
        snapshot: Snapshot, settings: Settings, followedOnly: Bool = false, query: String = "",
        sort: PeopleSort = .name, page: Int = 1, pageSize: Int = Pager.peoplePerPage
    ) {
        let trimmed = Self.normalized(query)
        let followed = Set(settings.followedUserIDs)
        let users = snapshot.sortedUsers
        var positions = snapshot.nameSearch.matches(trimmed)
        if followedOnly { positions = positions.filter { followed.contains(users[$0].id) } }
        positions = Self.sorted(positions, of: snapshot.personKeys, by: sort)
        matchCount = positions.count
        pager = Pager(number: page, total: positions.count, size: pageSize)
        people = (pager?.slice(positions) ?? []).map { position in
            var card = snapshot.personCard(at: position)
            card.isFollowed = followed.contains(card.userID)
            return card
        }
        self.sort = sort
        self.followedOnly = followedOnly
        self.query = trimmed
        totalCount = snapshot.sortedUsers.count
        // The followed ids the data knows, not every user checked against the follows: that copied each user (a
        // fifth of a new version's People at 4 100 people, perf).
        followedCount = Self.followedCount(followed, in: snapshot)
    }

    /// How many of `follows` (distinct ids) the snapshot knows.
    static func followedCount(_ follows: some Collection<String>, in snapshot: Snapshot) -> Int {
        follows.reduce(0) { $0 + (snapshot.userPlace[$1] != nil ? 1 : 0) }
    }

    /// The longest search kept, in characters: no name is longer, and each distinct query is a distinct page.
    static let maxQueryLength = 64

    /// `query` as the page uses it and its render key names it (issue 23: keys ignore what the page ignores):
    /// trimmed, runs of white space made one space, in Unicode's composed form (NFC, so "é" typed either way is one
    /// key), at most `maxQueryLength` characters.
    static func normalized(_ query: String) -> String {
        // ASCII is in composed form already: most queries, and the empty one of every unfiltered People, skip
        // Foundation's normalization (a twentieth of a new version's People, perf).
        let composed = query.utf8.allSatisfy { $0 < 0x80 } ? query : query.precomposedStringWithCanonicalMapping
        let words = composed.split(whereSeparator: \.isWhitespace)
        return String(words.joined(separator: " ").prefix(maxQueryLength))
    }

    /// `positions` in `people` (ascending, so in name order) in `sort` order; equal keys keep the name order.
    static func sorted(_ positions: [Int], of people: [Snapshot.PersonKeys], by sort: PeopleSort) -> [Int] {
        let key: (Snapshot.PersonKeys) -> Int
        switch sort {
        case .name: return positions
        case .activity: key = \.totalCount
        case .leading: key = \.leadingCount
        }
        // The keys first, then a sort of plain integers: comparing through the cards copied two structs of strings
        // per comparison (37 ms for 4 100 people, Benchmarks/scale.sh).
        let keys = positions.map { key(people[$0]) }
        if let packed = packed(keys, positions) { return packed }
        return positions.indices.sorted { a, b in
            keys[a] != keys[b] ? keys[a] > keys[b] : positions[a] < positions[b]
        }.map { positions[$0] }
    }

    /// The same order from one sort of 64-bit words, the key's complement above the position, when every key and
    /// position fits in 32 bits (always, short of four billion logs): `<` on words instead of a closure comparing
    /// through two arrays was a quarter of a new version's People at 4 100 people (perf). Nil when one does not fit.
    private static func packed(_ keys: [Int], _ positions: [Int]) -> [Int]? {
        let limit = Int(UInt32.max)
        var words: [UInt64] = []
        words.reserveCapacity(keys.count)
        for (key, position) in zip(keys, positions) {
            guard (0...limit).contains(key), (0...limit).contains(position) else { return nil }
            words.append(UInt64(UInt32(limit - key)) << 32 | UInt64(position))
        }
        words.sort()
        return words.map { Int($0 & 0xFFFF_FFFF) }
    }
}
