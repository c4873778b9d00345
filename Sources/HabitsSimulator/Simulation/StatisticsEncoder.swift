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
        var out: [UInt8] = []
        JSONFragment.appendRaw(#"{"user":"#, to: &out)
        out += userJSON[user]
        JSONFragment.appendRaw(#","habitCounts":["#, to: &out)
        var first = true
        for habit in habitJSON.indices {
            let count = counters.count(user: user, habit: habit)
            guard count > 0, !leadingOnly || counters.leads(user: user, habit: habit) else { continue }
            if !first { out.append(UInt8(ascii: ",")) }
            first = false
            JSONFragment.appendRaw(#"{"habit":"#, to: &out)
            out += habitJSON[habit]
            JSONFragment.appendRaw(#","count":"#, to: &out)
            JSONFragment.appendInt(count, to: &out)
            out.append(UInt8(ascii: "}"))
        }
        JSONFragment.appendRaw("]}", to: &out)
        return out
    }

    /// `{"habit":…,"userCounts":[{"user":…,"count":n},…]}`; `userCounts` is empty when nobody logged it.
    func habitStatistics(habit: Int, counters: Counters) -> [UInt8] {
        var out: [UInt8] = []
        JSONFragment.appendRaw(#"{"habit":"#, to: &out)
        out += habitJSON[habit]
        JSONFragment.appendRaw(#","userCounts":["#, to: &out)
        var first = true
        for user in userJSON.indices {
            let count = counters.count(user: user, habit: habit)
            guard count > 0 else { continue }
            if !first { out.append(UInt8(ascii: ",")) }
            first = false
            JSONFragment.appendRaw(#"{"user":"#, to: &out)
            out += userJSON[user]
            JSONFragment.appendRaw(#","count":"#, to: &out)
            JSONFragment.appendInt(count, to: &out)
            out.append(UInt8(ascii: "}"))
        }
        JSONFragment.appendRaw("]}", to: &out)
        return out
    }
}
