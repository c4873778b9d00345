import HabitsAPI

/// The users of one habit ranked by count, highest first, with standard competition ranking (1, 2, 2, 4).
///
/// Only counts above zero take part: a zero is "not logged". Within a tie users are ordered by name, the active
/// user's name being "Active User" whatever the upstream calls it, then by id, so the order is total.
public struct Ranking: Equatable, Sendable {
    /// One ranked user.
    public struct Entry: Equatable, Sendable {
        /// The user as the statistics carry them.
        var user: User
        /// The user's count (> 0).
        public var count: Int
        /// 1-based competition rank: one more than the number of users with a strictly higher count.
        public var rank: Int
        /// Whether this is the active user ("You").
        public var isActiveUser: Bool
        /// The name used for ordering and display: "Active User" for the active user.
        public var name: String
    }

    /// The entries in rank order.
    public let entries: [Entry]

    /// The entries ranked first (several when tied at the top; none for nobody).
    var leaders: ArraySlice<Entry> { entries.prefix { $0.rank == 1 } }

    /// Whether `other` is this ranking itself, kept by a snapshot from the one it replaced rather than ranked anew:
    /// then both hold the same entries. One comparison of storage, where `==` compares every entry.
    func isSameRanking(as other: Ranking) -> Bool { entries.sharesStorage(with: other.entries) }

    /// The name the active user goes by in every ranking (SPEC §5).
    static let activeUserName = "Active User"

    /// Ranks `userCounts`; a user listed twice counts once, with the first count given. `order` is `NameOrder`,
    /// possibly precomputed for these names.
    init(userCounts: [UserCount], activeUserID: String, order: NameOrderIndex = .empty) {
        var seen = Set<String>(minimumCapacity: userCounts.count)
        var candidates: [Entry] = []
        candidates.reserveCapacity(userCounts.count)
        for userCount in userCounts where userCount.count > 0 && seen.insert(userCount.user.id).inserted {
            let isActive = userCount.user.id == activeUserID
            candidates.append(
                Entry(
                    user: userCount.user, count: userCount.count, rank: 0, isActiveUser: isActive,
                    name: isActive ? Self.activeUserName : userCount.user.name))
        }
        // Keys first, then a sort of integers (issue 21 point 4): each entry's place in the name order looked up
        // once, not two dictionary look-ups of two strings per comparison, and no entry copied while sorting.
        var keys: [(count: Int, place: Int, index: Int)] = []
        keys.reserveCapacity(candidates.count)
        for (index, entry) in candidates.enumerated() {
            guard let place = order.place(entry.name, key: entry.user.id) else {
                keys.removeAll()
                break
            }
            keys.append((entry.count, place, index))
        }
        if keys.count == candidates.count {
            keys.sort { $0.count != $1.count ? $0.count > $1.count : $0.place < $1.place }
            candidates = keys.map { candidates[$0.index] }
        } else {
            candidates.sort { a, b in
                if a.count != b.count { return a.count > b.count }
                return order.precedes(a.name, b.name, lhsKey: a.user.id, rhsKey: b.user.id)
            }
        }
        for index in candidates.indices {
            let previous = index == 0 ? nil : candidates[index - 1]
            if let previous, previous.count == candidates[index].count {
                candidates[index].rank = previous.rank
            } else {
                candidates[index].rank = index + 1
            }
        }
        entries = candidates
    }

    /// The entry of `userID`, if they logged the habit.
    public func entry(for userID: String) -> Entry? {
        entries.first { $0.user.id == userID }
    }
}
