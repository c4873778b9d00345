import CommandLineKit
import Foundation
import HabitsAPI
import Logging
import Testing

@testable import HabitsSimulator

/// The made-up network of `habits-api --users N --habits M --seed S` (issue 21 point 4).
@Suite struct GeneratedDataTests {
    /// Everything a data set serves, as the API writes it.
    func bytes(_ dataSet: DataSet) -> [UInt8] {
        JSONFragment.object(dataSet.users.map { ($0.id, JSONFragment.user($0)) })
            + JSONFragment.object(dataSet.habits.map { ($0.name, JSONFragment.habit($0)) })
            + JSONFragment.array(dataSet.categories.map(JSONFragment.category))
    }

    /// A simulator over a made-up network with its history played, and its `/combinedStats` as the client decodes it.
    func played(users: Int, habits: Int, seed: UInt64) throws -> (Simulator, CombinedStatistics) {
        let dataSet = GeneratedData.dataSet(users: users, habits: habits, seed: seed)
        let simulator = Simulator(dataSet: dataSet, seed: seed, logger: Logger(label: "test", level: .error))
        simulator.playHistory()
        let statistics = try CombinedStatisticsRequest().decode(
            HTTPClientResponse(status: .ok, body: simulator.snapshot().combined))
        return (simulator, statistics)
    }

    @Test func theSameSeedGivesTheSameDataByteForByte() {
        let first = GeneratedData.dataSet(users: 600, habits: 120, seed: 7)
        let second = GeneratedData.dataSet(users: 600, habits: 120, seed: 7)
        #expect(bytes(first) == bytes(second))
        #expect(bytes(first) != bytes(GeneratedData.dataSet(users: 600, habits: 120, seed: 8)))
    }

    @Test func theSameSeedGivesTheSameCounts() {
        func combined() -> [UInt8] {
            let simulator = Simulator(
                dataSet: GeneratedData.dataSet(users: 300, habits: 50, seed: 11), seed: 11,
                logger: Logger(label: "test", level: .error))
            simulator.playHistory()
            return simulator.snapshot().combined
        }
        #expect(combined() == combined())
    }

    @Test func namesAreUniqueAtAHundredTimesTheBuiltInDataAndBeyond() {
        let dataSet = GeneratedData.dataSet(users: 45_000, habits: 1_900, seed: 3)
        #expect(Set(dataSet.users.map(\.name)).count == 45_000)
        #expect(Set(dataSet.users.map(\.id)).count == 45_000)
        #expect(Set(dataSet.habits.map(\.name)).count == 1_900)
        #expect(dataSet.users.allSatisfy { !$0.name.isEmpty && $0.name.count < 64 })
    }

    @Test func someNamesCarryMarkupQuotesAndBidiControls() {
        let names = GeneratedData.dataSet(users: 200, habits: 40, seed: 1).users.map(\.name)
        #expect(names.contains { $0.contains("<script>") })
        #expect(names.contains { $0.contains("\"") && $0.contains("&") })
        #expect(names.contains { $0.unicodeScalars.contains("\u{202E}") })
        #expect(GeneratedData.dataSet(users: 1, habits: 40, seed: 1).habits.contains { $0.name.contains("<cake>") })
    }

    /// What the simulator serves for a made-up network is what the dashboard's client decodes.
    @Test func itsStatisticsDecodeWithTheAPIClientsDecoder() throws {
        let (simulator, statistics) = try played(users: 400, habits: 80, seed: 5)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let reference = try JSONDecoder().decode(CombinedStatistics.self, from: Data(simulator.snapshot().combined))
        #expect(try encoder.encode(statistics) == encoder.encode(reference))
        #expect(statistics.habitStatistics.count == 80)
        #expect(statistics.userStatistics.count == 400)
        let users = try UsersRequest().decode(
            HTTPClientResponse(status: .ok, body: SimulatorApp(simulator: simulator).usersJSON))
        #expect(users.count == 400)
        #expect(users["user7"]?.name == GeneratedData.awkwardNames[0])
    }

    /// People take up a handful of habits, popular ones more: the first habit has far more people than the last.
    @Test func eachPersonDoesAHandfulOfHabitsAndSomeHabitsArePopular() throws {
        let (_, statistics) = try played(users: 2_000, habits: 400, seed: 9)
        let habitsPerPerson = statistics.userStatistics.map(\.habitCounts.count)
        #expect(habitsPerPerson.max() ?? 0 <= 12)
        let people = statistics.habitStatistics.map(\.userCounts.count)
        #expect(people[0] > 500)
        #expect(people[0] > 20 * max(1, people[399]))
    }

    @Test func theBuiltInDataStaysTheDefault() throws {
        guard case .run(let options) = try SimulatorOptions.parse([]) else {
            Issue.record("no options")
            return
        }
        #expect(options.generated == nil)
        #expect(try DataSet.builtIn().activity == .anyHabit)
    }

    @Test func usersAndHabitsAreReadAndEachDefaultsToTheBuiltInScale() throws {
        guard case .run(let both) = try SimulatorOptions.parse(["--users", "4100", "--habits", "1900", "--seed", "1"]),
            case .run(let users) = try SimulatorOptions.parse(["--users", "500"])
        else {
            Issue.record("no options")
            return
        }
        #expect(both.generated?.users == 4100 && both.generated?.habits == 1900 && both.seed == 1)
        #expect(users.generated?.users == 500 && users.generated?.habits == 19)
    }

    @Test(arguments: [
        ["--users", "0"], ["--users", "x"], ["--habits", "100000"], ["--users", "5", "--data-dir", "/tmp/data"],
    ])
    func badGeneratorFlagsAreRejected(arguments: [String]) {
        #expect(throws: CommandLineError.self) { try SimulatorOptions.parse(arguments) }
    }
}
