/// Each simulated user's logging rate per habit, and weighted sampling of one (user, habit) event.
///
/// Many rates are zero so people have partial habit sets, as in the original server. Sampling is a binary
/// search over cumulative weights of the non-zero pairs: O(log pairs), deterministic for a given generator state.
struct RateTable: Sendable, Equatable {
    /// The (user, habit) pairs with a non-zero rate, in user-then-habit order.
    private(set) var pairs: [(user: Int, habit: Int)]
    /// Running sums of the pairs' rates; `cumulative.last` is the total.
    private(set) var cumulative: [Double]

    /// Draws rates for `userCount` users over `habitCount` habits from `generator`.
    ///
    /// Each user gets an overall activity level, then each habit is skipped with probability `zeroShare`
    /// or gets a skewed rate, so a few habits dominate each person's log. Every user keeps at least one habit.
    init(userCount: Int, habitCount: Int, zeroShare: Double = 0.6, generator: inout SeededGenerator) {
        pairs = []
        cumulative = []
        guard habitCount > 0 else { return }
        var total = 0.0
        for user in 0..<userCount {
            let activity = 0.2 + 1.3 * generator.nextUnit()
            var rates = (0..<habitCount).map { _ -> Double in
                let keep = generator.nextUnit() >= zeroShare
                let strength = 0.05 + 0.95 * generator.nextUnit()
                return keep ? activity * strength * strength : 0
            }
            if rates.allSatisfy({ $0 == 0 }) {
                rates[Int(generator.next() % UInt64(habitCount))] = activity * 0.5
            }
            for (habit, rate) in rates.enumerated() where rate > 0 {
                total += rate
                pairs.append((user, habit))
                cumulative.append(total)
            }
        }
    }

    /// Draws rates where each of `userCount` users takes up a number of habits in `habitsEach`, picked with weights
    /// falling as 1 / (1 + habit index), so the first habits are popular and the last rare (`fewHabitsEach`).
    init(userCount: Int, habitCount: Int, habitsEach: ClosedRange<Int>, generator: inout SeededGenerator) {
        pairs = []
        cumulative = []
        guard habitCount > 0 else { return }
        var popularity: [Double] = []
        var sum = 0.0
        for habit in 0..<habitCount {
            sum += 1 / Double(habit + 1)
            popularity.append(sum)
        }
        var total = 0.0
        for user in 0..<userCount {
            let activity = 0.2 + 1.3 * generator.nextUnit()
            let span = habitsEach.upperBound - habitsEach.lowerBound + 1
            let wanted = min(habitCount, max(1, habitsEach.lowerBound + Int(generator.next() % UInt64(max(1, span)))))
            var chosen = Set<Int>()
            while chosen.count < wanted {
                let target = generator.nextUnit() * sum
                chosen.insert(Self.firstIndex(in: popularity, above: target))
            }
            for habit in chosen.sorted() {
                let strength = 0.05 + 0.95 * generator.nextUnit()
                total += activity * strength * strength
                pairs.append((user, habit))
                cumulative.append(total)
            }
        }
    }

    /// The rate of one pair (0 when the user never does that habit); for tests and status output.
    func rate(user: Int, habit: Int) -> Double {
        guard let index = pairs.firstIndex(where: { $0.user == user && $0.habit == habit }) else { return 0 }
        return cumulative[index] - (index > 0 ? cumulative[index - 1] : 0)
    }

    /// One weighted-random (user, habit) pair, or nil when nobody has any rate.
    func sample(using generator: inout SeededGenerator) -> (user: Int, habit: Int)? {
        guard let total = cumulative.last, total > 0 else { return nil }
        let target = generator.nextUnit() * total
        var low = 0
        var high = cumulative.count - 1
        while low < high {  // first index whose running sum exceeds the target
            let mid = (low + high) / 2
            if cumulative[mid] > target { high = mid } else { low = mid + 1 }
        }
        return pairs[low]
    }

    /// The first index of ascending `sums` whose value exceeds `target` (the last when none does).
    private static func firstIndex(in sums: [Double], above target: Double) -> Int {
        var low = 0
        var high = sums.count - 1
        while low < high {
            let mid = (low + high) / 2
            if sums[mid] > target { high = mid } else { low = mid + 1 }
        }
        return low
    }

    static func == (lhs: RateTable, rhs: RateTable) -> Bool {
        lhs.cumulative == rhs.cumulative
            && lhs.pairs.elementsEqual(rhs.pairs) { $0.user == $1.user && $0.habit == $1.habit }
    }
}
