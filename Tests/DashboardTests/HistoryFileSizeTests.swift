import Testing

@testable import DashboardCore
@testable import DashboardWeb

/// The figures README states (issue 22 point 1): a month of history costs 10,968 bytes of samples a series in memory
/// (each slot's first and last total, issue 47), and its file is those samples plus each series' name and two counts
/// per tier.
@Suite struct HistoryFileSizeTests {
    /// A full month for `habits` habits and `people` people, recorded once an hour (every ring then holds its whole
    /// capacity, gaps included, as a month of 10 s samples would).
    static func fullMonth(habits: Int, people: Int) -> (record: HistoryRecord, nameBytes: Int) {
        let habitNames = (0..<habits).map { "Habit number \($0)" }
        let userIDs = (0..<people).map { "user\($0)" }
        var history = TrendHistory()
        for hour in 0..<721 {
            history.record(
                habitTotals: Dictionary(uniqueKeysWithValues: habitNames.map { ($0, hour) }),
                userTotals: Dictionary(uniqueKeysWithValues: userIDs.map { ($0, hour) }),
                second: 1_800_000_000 + hour * 3_600)
        }
        let nameBytes = (habitNames + userIDs).reduce(0) { $0 + $1.utf8.count }
        return (HistoryRecord(history: history, moments: MomentLog()), nameBytes)
    }

    /// The file's size from its format: a fixed header and trailer, per tier 25 bytes and per series its name (and its
    /// length) and a count, and 4 bytes a sample, two a slot.
    static func expectedBytes(series: Int, nameBytes: Int, upstream: String) -> Int {
        let header = 8 + 4 + (4 + upstream.utf8.count) + 4
        let tiers = 3 * (4 + 4 + 1 + 8 + 2 * 4)
        let perSeries = 3 * (4 + 4) + (361 + 289 + 721) * 2 * 4
        return header + tiers + series * perSeries + 3 * nameBytes + 4 + 8
    }

    @Test(arguments: [(19, 42), (190, 420)])
    func aMonthsFileIsItsSamplesNamesAndCountsAndNothingMore(habits: Int, people: Int) {
        let (record, nameBytes) = Self.fullMonth(habits: habits, people: people)
        #expect(record.history.tiers.map { $0.habits.seriesCount } == [habits, habits, habits])
        let bytes = HistoryFileFormat.encode(record, upstream: "http://127.0.0.1:8080")
        let expected = Self.expectedBytes(
            series: habits + people, nameBytes: nameBytes, upstream: "http://127.0.0.1:8080")
        #expect(bytes.count == expected)
        // 10,968 bytes of samples and 24 bytes of counts a series, plus its name three times.
        #expect(bytes.count <= (habits + people) * (10_968 + 24 + 3 * 16) + 200)
    }
}
