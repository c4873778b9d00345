import HabitsAPI

/// One immutable, versioned view of the upstream data, with everything the pages need computed once (issue 9).
///
/// Built off the request path whenever an upstream answer differs from the last; every page of one response reads
/// one snapshot, so a page never mixes two versions. Versions are content digests: the same data has the same
/// version, so an unchanged answer costs no rebuild and changes no ETag.
public final class Snapshot: Sendable {
    /// The upstream answers it was built from.
    public let inputs: SnapshotInputs
    /// Digest of users, habits and categories: the version of pages that show only those (People, Habits, Log).
    public let referenceVersion: UInt64
    /// Digest of the statistics.
    public let statisticsVersion: UInt64
    /// Digest of everything: the version of pages that show counts.
    public let version: UInt64
    /// The active user's id ("You").
    public let activeUserID: String

    /// `NameOrder` over every user, habit and category name in the data.
    public let order: NameOrderIndex
    /// `/users` sorted by name, then id (People).
    public let sortedUsers: [User]
    /// Place of each user id in `sortedUsers`.
    public let userPlace: [String: Int]
    /// The People sort keys of each of `sortedUsers`, at the same positions. Only the keys: the cards of the page
    /// shown are made by `personCard(at:)` (issue 23: a card of links and colours for each of 45 000 people was
    /// 29 MB per snapshot, and a build holds two snapshots).
    public let personKeys: [PersonKeys]
    /// The People search over `sortedUsers`' names (positions in it), built once per snapshot.
    public let nameSearch: NameSearchIndex
    /// `/habits` sorted by name (Habits, Log Habit).
    public let sortedHabits: [Habit]
    /// The first statistics of each habit, by name.
    public let habitStatistics: [String: HabitStatistics]
    /// Where the first statistics of each user are in the statistics' `userStatistics`, by id (a place, not a copy:
    /// issue 23, a dictionary of 45 000 copies was 7 MB per snapshot).
    let userStatisticsPlace: [String: Int]
    /// Each habit's users ranked, from the habit statistics: the authority on ranks.
    public let rankings: [String: Ranking]
    /// Each habit's leaderboard card (Home).
    public let leaderboardCards: [String: LeaderboardCard]
    /// The habits each user leads (count equals the habit's top count > 0), by user id (person page).
    public let leading: [String: [HabitCount]]
    /// Each habit's total count over everyone, by name (Home's "Happening now").
    public let habitTotals: [String: Int]
    /// Each user's total count over every habit, by id (People's activity sort, "Happening now").
    public let userTotals: [String: Int]
    /// The habits the active user logged, each with its place in `order` (nil outside it): Home's Following compares
    /// each followed user's habits with them, and one look-up gives both whether and where.
    public let activeUserHabits: [String: Int?]

    /// Builds a snapshot; the digests are computed here unless the caller already has them. With `previous` (the
    /// snapshot this one replaces), what depends only on the reference data is taken from it when that is unchanged.
    public convenience init(
        inputs: SnapshotInputs, activeUserID: String = User.activeUserID, previous: Snapshot? = nil
    ) {
        self.init(
            inputs: inputs,
            referenceVersion: ContentDigest.reference(
                users: inputs.users, habits: inputs.habits, categories: inputs.categories
            ).value,
            statisticsVersion: ContentDigest.statistics(inputs.statistics).value, activeUserID: activeUserID,
            previous: previous)
    }

    /// Builds a snapshot from inputs whose digests are known.
    ///
    /// Most new versions only change counts (issue 21 point 2: a refresh's cost grows with what changed), so when
    /// `previous` has the same reference data and active user, the name order, the users and habits in it and the
    /// People search index are its own: sorting names with Foundation's compare and folding them for the search
    /// were most of a build. The order stays exact for names only the statistics carry: `NameOrderIndex` compares
    /// pairs it does not know with `NameOrder` itself.
    init(
        inputs: SnapshotInputs, referenceVersion: UInt64, statisticsVersion: UInt64, activeUserID: String,
        previous: Snapshot? = nil
    ) {
        self.inputs = inputs
        self.referenceVersion = referenceVersion
        self.statisticsVersion = statisticsVersion
        var combined = ContentDigest()
        combined.feed(Int(bitPattern: UInt(referenceVersion)))
        combined.feed(Int(bitPattern: UInt(statisticsVersion)))
        version = combined.value
        self.activeUserID = activeUserID

        let statistics = inputs.statistics
        let reused = previous.flatMap {
            $0.referenceVersion == referenceVersion && $0.activeUserID == activeUserID ? $0 : nil
        }
        let order = reused?.order ?? Self.nameOrder(inputs, activeUserID: activeUserID)
        self.order = order
        let sortedUsers =
            reused?.sortedUsers
            ?? order.sorted(inputs.users.values, name: \.name, key: \.id)
        self.sortedUsers = sortedUsers
        userPlace = reused?.userPlace ?? Dictionary(sortedUsers.enumerated().map { ($1.id, $0) }) { first, _ in first }
        sortedHabits = reused?.sortedHabits ?? order.sorted(inputs.habits.values, name: \.name)

        var habitStatistics: [String: HabitStatistics] = [:]
        for entry in statistics.habitStatistics where habitStatistics[entry.habit.name] == nil {
            habitStatistics[entry.habit.name] = entry
        }
        var userStatisticsPlace: [String: Int] = [:]
        var userTotals: [String: Int] = [:]
        userStatisticsPlace.reserveCapacity(statistics.userStatistics.count)
        userTotals.reserveCapacity(statistics.userStatistics.count)
        for (place, entry) in statistics.userStatistics.enumerated() where userStatisticsPlace[entry.user.id] == nil {
            userStatisticsPlace[entry.user.id] = place
            userTotals[entry.user.id] = entry.habitCounts.reduce(0) { $0 + max($1.count, 0) }
        }
        self.habitStatistics = habitStatistics
        self.userStatisticsPlace = userStatisticsPlace
        var activeUserHabits: [String: Int?] = [:]
        if let place = userStatisticsPlace[activeUserID] {
            for count in statistics.userStatistics[place].habitCounts where count.count > 0 {
                activeUserHabits.updateValue(order.place(count.habit.name), forKey: count.habit.name)
            }
        }
        self.activeUserHabits = activeUserHabits

        // What only one page of one habit or person shows (a habit's count groups, a user's logged habits, the
        // rankings from the user statistics) is computed when that page is rendered, not here for every habit
        // (issue 21 point 4: with 1 900 habits they were a third of a build).
        var rankings: [String: Ranking] = [:]
        var cards: [String: LeaderboardCard] = [:]
        var leading: [String: [HabitCount]] = [:]
        var habitTotals: [String: Int] = [:]
        rankings.reserveCapacity(habitStatistics.count)
        cards.reserveCapacity(habitStatistics.count)
        habitTotals.reserveCapacity(habitStatistics.count)
        for (name, entry) in habitStatistics {
            // A refresh's cost grows with what changed (issue 21 point 2): a habit whose statistics are the same,
            // field for field, as in the snapshot this one replaces keeps its ranking and card (same names, same
            // order) and its total; comparing is a pass without allocation, ranking is a sort.
            let ranking: Ranking
            if let reused, let old = reused.habitStatistics[name], let oldRanking = reused.rankings[name],
                let oldCard = reused.leaderboardCards[name], let oldTotal = reused.habitTotals[name],
                Self.sameContent(old, entry)
            {
                ranking = oldRanking
                cards[name] = oldCard
                habitTotals[name] = oldTotal
            } else {
                ranking = Ranking(userCounts: entry.userCounts, activeUserID: activeUserID, order: order)
                cards[name] = LeaderboardCard(statistics: entry, ranking: ranking, activeUserID: activeUserID)
                habitTotals[name] = entry.userCounts.reduce(0) { $0 + max($1.count, 0) }
            }
            rankings[name] = ranking
            for leader in ranking.entries where leader.rank == 1 {
                leading[leader.user.id, default: []].append(HabitCount(habit: entry.habit, count: leader.count))
            }
        }
        self.rankings = rankings
        leaderboardCards = cards
        self.leading = leading
        self.habitTotals = habitTotals
        self.userTotals = userTotals
        // The People sort keys, once per snapshot: a sort is then one pass over them.
        personKeys = sortedUsers.map { user in
            PersonKeys(totalCount: userTotals[user.id] ?? 0, leadingCount: leading[user.id]?.count ?? 0)
        }
        nameSearch = reused?.nameSearch ?? NameSearchIndex(names: sortedUsers.map(\.name))
    }

    /// What People sorts a person by besides the name.
    public struct PersonKeys: Equatable, Sendable {
        /// The sum of their counts (the activity sort).
        public var totalCount: Int
        /// How many habits they lead (the leading sort).
        public var leadingCount: Int
    }

    /// The People card of `sortedUsers[position]`, not followed.
    public func personCard(at position: Int) -> PersonCard {
        let user = sortedUsers[position]
        let keys = personKeys[position]
        return PersonCard(
            user: user, isFollowed: false, isActiveUser: user.id == activeUserID, totalCount: keys.totalCount,
            leadingCount: keys.leadingCount)
    }

    /// The first statistics of user `id`; nil when the statistics do not name them.
    public func userStatistics(of id: String) -> UserStatistics? {
        userStatisticsPlace[id].map { inputs.statistics.userStatistics[$0] }
    }

    /// Whether two habit statistics hold the same habit and users with the same counts, every field compared (the
    /// models' `==` compare ids only, which would keep a renamed user's old name).
    static func sameContent(_ lhs: HabitStatistics, _ rhs: HabitStatistics) -> Bool {
        guard lhs.habit.name == rhs.habit.name, lhs.habit.info == rhs.habit.info,
            lhs.habit.category.name == rhs.habit.category.name, lhs.habit.category.color == rhs.habit.category.color,
            lhs.userCounts.count == rhs.userCounts.count
        else { return false }
        // The same storage (an entry the decode took from the previous answer, `StatisticsDecodeMemo`) holds the
        // same counts: one comparison instead of a pass.
        if lhs.userCounts.sharesStorage(with: rhs.userCounts) { return true }
        for (left, right) in zip(lhs.userCounts, rhs.userCounts) {
            guard left.count == right.count, left.user.id == right.user.id, left.user.name == right.user.name,
                left.user.color == right.user.color, left.user.bio == right.user.bio
            else { return false }
        }
        return true
    }

    /// `habit`'s users grouped by tied counts (habit page), from its ranking.
    public func countGroups(of habit: String) -> [CountGroup] {
        rankings[habit].map(CountGroup.groups) ?? []
    }

    /// `habit`'s users ranked from the user statistics, for when they and the habit statistics disagree (Home's
    /// Following; an upstream may build the two at different instants). A scan of the user statistics, made only
    /// when the ranking from the habit statistics lacks someone.
    public func fallbackRanking(of habit: String) -> Ranking {
        var counts: [UserCount] = []
        for entry in inputs.statistics.userStatistics {
            for habitCount in entry.habitCounts where habitCount.count > 0 && habitCount.habit.name == habit {
                counts.append(UserCount(user: entry.user, count: habitCount.count))
            }
        }
        return Ranking(userCounts: counts, activeUserID: activeUserID, order: order)
    }

    /// The (name, tiebreak) pairs pages sort: users by name and id (the active user also as "Active User", the name
    /// rankings give it), habits and categories by name, and the entries of the statistics.
    ///
    /// The counts inside each entry are left out: they name the same users and habits again, one pair per count
    /// (millions at 100 times the built-in data, where hashing them was half of a build from scratch), so the index
    /// grows with the people and habits, not with the counts. A pair only a count carries (a user the statistics
    /// know but `/users` does not) is still sorted exactly: `NameOrderIndex` compares it with `NameOrder`.
    private static func nameOrder(_ inputs: SnapshotInputs, activeUserID: String) -> NameOrderIndex {
        var pairs: [(name: String, key: String)] = [(Ranking.activeUserName, activeUserID)]
        for user in inputs.users.values { pairs.append((user.name, user.id)) }
        for habit in inputs.habits.values {
            pairs.append((habit.name, ""))
            pairs.append((habit.category.name, ""))
        }
        for category in inputs.categories { pairs.append((category.name, "")) }
        for entry in inputs.statistics.userStatistics { pairs.append((entry.user.name, entry.user.id)) }
        for entry in inputs.statistics.habitStatistics {
            pairs.append((entry.habit.name, ""))
            pairs.append((entry.habit.category.name, ""))
        }
        return NameOrderIndex(pairs)
    }
}
