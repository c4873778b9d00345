import HabitsAPI

/// Builds the statistics JSON from counters and the users' and habits' pre-encoded JSON.
///
/// Users are indexed as in `SimulationState` (simulated users in file order, then the active user);
/// habits in file order. Lists come out in that order; clients sort as they like.
struct StatisticsEncoder: Sendable {
    /// Each user's JSON object, the active user last.
    let userJSON: [[UInt8]]
    /// Each habit's JSON object, category resolved.
    let habitJSON: [[UInt8]]

    /// Pre-encodes every user and habit of `dataSet` once.
    init(dataSet: DataSet) {
        userJSON = (dataSet.users + [dataSet.activeUser]).map(JSONFragment.user)
        habitJSON = dataSet.habits.map(JSONFragment.habit)
    }

    /// `{"user":…,"habitCounts":[{"habit":…,"count":n},…]}` with the habits `user` logged, or only those they lead.
    func userStatistics(user: Int, counters: Counters, leadingOnly: Bool = false) -> [UInt8] {
        let habits = habitJSON.indices.lazy.compactMap { habit -> ([UInt8], Int)? in
            let count = counters.count(user: user, habit: habit)
            guard count > 0, !leadingOnly || counters.leads(user: user, habit: habit) else { return nil }
            return (habitJSON[habit], count)
        }
        return statistics(#"{"user":"#, userJSON[user], #","habitCounts":["#, item: #"{"habit":"#, habits)
    }

    /// `{"habit":…,"userCounts":[{"user":…,"count":n},…]}`; `userCounts` is empty when nobody logged it.
    func habitStatistics(habit: Int, counters: Counters) -> [UInt8] {
        let users = userJSON.indices.lazy.compactMap { user -> ([UInt8], Int)? in
            let count = counters.count(user: user, habit: habit)
            return count > 0 ? (userJSON[user], count) : nil
        }
        return statistics(#"{"habit":"#, habitJSON[habit], #","userCounts":["#, item: #"{"user":"#, users)
    }

    /// `{"<owner key>":<owner>,"<list key>":[{"<item key>":<item>,"count":n},…]}`: the one shape both kinds of
    /// statistics share, written from pre-encoded pieces (the keys come as their literal JSON openings).
    private func statistics(
        _ ownerOpening: StaticString, _ owner: [UInt8], _ listOpening: StaticString, item itemOpening: StaticString,
        _ items: some Sequence<([UInt8], Int)>
    ) -> [UInt8] {
        var out: [UInt8] = []
        JSONFragment.appendRaw(ownerOpening, to: &out)
        out += owner
        JSONFragment.appendRaw(listOpening, to: &out)
        var first = true
        for (item, count) in items {
            if !first { out.append(UInt8(ascii: ",")) }
            first = false
            JSONFragment.appendRaw(itemOpening, to: &out)
            out += item
            JSONFragment.appendRaw(#","count":"#, to: &out)
            JSONFragment.appendInt(count, to: &out)
            out.append(UInt8(ascii: "}"))
        }
        JSONFragment.appendRaw("]}", to: &out)
        return out
    }
}
