// What one refresh of the snapshot costs in CPU (issue 21 point 2: ≤ 3 ms with the full hour of history): decoding
// the `/combinedStats` answer, building the snapshot, recording it in a history that already holds an hour of slots.
// Each new version changes one count of one person, as one event upstream does.
import DashboardCore
import DashboardWeb
import Foundation
import HabitsAPI

enum RefreshBench {
    /// Microseconds of this thread's CPU: medians, but for `history`.
    struct Figures {
        /// A whole answer, nothing kept from an earlier one.
        var wholeDecode: Double
        /// An answer in which two entries changed, after the one before it (as the client decodes it).
        var decode: Double
        var build: Double
        /// The mean per refresh: one in four starts a new 10 s slot, which a median could leave out.
        var history: Double
        /// The median of the refreshes that started a new slot.
        var historyNewSlot: Double
        var total: Double { decode + build + history }
    }

    /// Measures `iterations` refreshes of `inputs` (whose statistics are `statisticsBytes`), each a new version.
    static func run(inputs: SnapshotInputs, statisticsBytes: [UInt8], iterations: Int) throws -> Figures {
        let response = HTTPClientResponse(status: .ok, body: statisticsBytes)
        let wholeDecode = try cpuMedian(iterations) { _ = try CombinedStatisticsRequest().decode(response) }
        let memo = DecodeMemo()
        var body = statisticsBytes
        _ = try CombinedStatisticsRequest().decode(response, reusing: memo)
        var decodes: [Double] = []
        for step in 0..<max(1, iterations) {
            bumpCounts(in: &body, step: step)
            let next = HTTPClientResponse(status: .ok, body: body)
            decodes.append(try cpu { _ = try CombinedStatisticsRequest().decode(next, reusing: memo) })
        }
        let decode = median(decodes)

        // An hour of history: 361 slots of 10 s starting an hour ago, two versions taking turns (so every slot has a
        // new version and its rank changes; building 361 snapshots of a large network would take minutes).
        let history = ActivityHistory()
        var current = bumped(inputs, step: 0)
        let turns = [Snapshot(inputs: current), Snapshot(inputs: bumped(current, step: 1))]
        var second = Date().timeIntervalSince1970.rounded(.down) - 3_610
        for step in 0..<361 {
            history.record(turns[step % 2], at: Date(timeIntervalSince1970: second))
            second += 10
        }
        var builds: [Double] = []
        var records: [Double] = []
        var newSlotRecords: [Double] = []
        var previous = turns[1]
        // Step 0 is a warm-up, not counted: the first record after the two-version prefill cost 16 ms at 100x
        // against 3 to 5 ms for every later one, and with few refreshes it set the figure.
        for step in 0...max(1, iterations) {
            current = bumped(current, step: 361 + step)
            let next = current
            var snapshot: Snapshot?
            // As the store builds it: from the snapshot it replaces.
            let build = cpu { snapshot = Snapshot(inputs: next, previous: previous) }
            previous = snapshot!
            // A refresh every 0.25 s: one in four starts a new slot, the first counted one among them.
            let startsSlot = step % 4 == 1
            if startsSlot { second += 10 }
            let at = Date(timeIntervalSince1970: second)
            let record = cpu { history.record(snapshot!, at: at) }
            guard step > 0 else { continue }
            builds.append(build)
            records.append(record)
            if startsSlot { newSlotRecords.append(record) }
        }
        return Figures(
            wholeDecode: wholeDecode, decode: decode, build: median(builds),
            history: records.reduce(0, +) / Double(records.count), historyNewSlot: median(newSlotRecords))
    }

    /// Changes the last digit of two counts of `body` (one far from the other, so usually one user's and one habit's
    /// entry): the bytes of an answer after one event upstream, as far as the decode can tell.
    static func bumpCounts(in body: inout [UInt8], step: Int) {
        let marker = Array(#""count":"#.utf8)
        var ends: [Int] = []
        var index = 0
        while index + marker.count < body.count {
            if body[index] == marker[0], body[index..<index + marker.count].elementsEqual(marker) {
                var end = index + marker.count
                while end < body.count, body[end] == UInt8(ascii: " ") { end += 1 }
                while end < body.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(body[end]) { end += 1 }
                ends.append(end - 1)
                index = end
            } else {
                index += 1
            }
        }
        guard !ends.isEmpty else { return }
        for place in [(step * 7919) % ends.count, (step * 7919 + ends.count / 2) % ends.count] {
            let digit = body[ends[place]]
            guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(digit) else { continue }
            body[ends[place]] = digit == UInt8(ascii: "9") ? UInt8(ascii: "0") : digit + 1
        }
    }

    /// `inputs` with one person's count of one habit one higher, in both kinds of statistics.
    static func bumped(_ inputs: SnapshotInputs, step: Int) -> SnapshotInputs {
        var inputs = inputs
        var statistics = inputs.statistics
        guard !statistics.userStatistics.isEmpty else { return inputs }
        let userIndex = (step * 7) % statistics.userStatistics.count
        guard !statistics.userStatistics[userIndex].habitCounts.isEmpty else { return inputs }
        let user = statistics.userStatistics[userIndex].user
        let habitIndex = step % statistics.userStatistics[userIndex].habitCounts.count
        statistics.userStatistics[userIndex].habitCounts[habitIndex].count += 1
        let habit = statistics.userStatistics[userIndex].habitCounts[habitIndex].habit
        for index in statistics.habitStatistics.indices where statistics.habitStatistics[index].habit == habit {
            for entry in statistics.habitStatistics[index].userCounts.indices
            where statistics.habitStatistics[index].userCounts[entry].user == user {
                statistics.habitStatistics[index].userCounts[entry].count += 1
            }
        }
        inputs.statistics = statistics
        return inputs
    }

    /// This thread's CPU time for one run of `body`, in microseconds.
    static func cpu(_ body: () throws -> Void) rethrows -> Double {
        func now() -> Double {
            var time = timespec()
            clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
            return Double(time.tv_sec) * 1e6 + Double(time.tv_nsec) / 1e3
        }
        let start = now()
        try body()
        return now() - start
    }

    /// The median CPU time of `iterations` runs of `body`.
    static func cpuMedian(_ iterations: Int, _ body: () throws -> Void) rethrows -> Double {
        var samples: [Double] = []
        for _ in 0..<max(1, iterations) { samples.append(try cpu(body)) }
        return median(samples)
    }

    /// NaN for no samples.
    static func median(_ samples: [Double]) -> Double {
        let sorted = samples.sorted()
        return sorted.isEmpty ? .nan : sorted[sorted.count / 2]
    }
}
