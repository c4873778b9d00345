import HabitsAPI

/// Every statistics response at one generation, encoded once and shared by all requests until the next event.
///
/// Immutable after init, hence `Sendable` without a lock.
final class StatisticsSnapshot: Sendable {
    /// The counts it was built from.
    let counters: Counters
    /// `userStatistics` element per user index (the active user last).
    let userStatistics: [[UInt8]]
    /// `habitStatistics` element per habit index.
    let habitStatistics: [[UInt8]]
    /// Whether the active user has logged anything; only then does it appear in the unfiltered lists.
    let activeUserHasLogged: Bool
    /// `GET /userStats` without `ids`.
    let allUserStatistics: [UInt8]
    /// `GET /habitStats` without `names`.
    let allHabitStatistics: [UInt8]
    /// `GET /combinedStats`.
    let combined: [UInt8]

    /// Encodes every response for `counters`.
    init(counters: Counters, encoder: StatisticsEncoder) {
        self.counters = counters
        let activeUser = encoder.userJSON.count - 1
        userStatistics = encoder.userJSON.indices.map { encoder.userStatistics(user: $0, counters: counters) }
        habitStatistics = encoder.habitJSON.indices.map { encoder.habitStatistics(habit: $0, counters: counters) }
        activeUserHasLogged = encoder.habitJSON.indices.contains { counters.count(user: activeUser, habit: $0) > 0 }
        allUserStatistics = JSONFragment.array(
            activeUserHasLogged ? userStatistics : Array(userStatistics.dropLast()))
        allHabitStatistics = JSONFragment.array(habitStatistics)
        var combined: [UInt8] = []
        combined.reserveCapacity(allUserStatistics.count + allHabitStatistics.count + 40)
        JSONFragment.appendRaw(#"{"userStatistics":"#, to: &combined)
        combined += allUserStatistics
        JSONFragment.appendRaw(#","habitStatistics":"#, to: &combined)
        combined += allHabitStatistics
        combined.append(UInt8(ascii: "}"))
        self.combined = combined
    }

    /// The generation these responses belong to.
    var generation: UInt64 { counters.generation }
}
