import Foundation
import HabitsAPI
import Logging
import Testing

@testable import HabitsSimulator

@Suite struct EmbeddedSimulatorTests {
    @Test func servesADataDirectoryIncludingItsImages() async throws {
        let png = AvatarRenderer.png(for: User(id: "x", name: "Data Folder"))
        let folder = try TemporaryDataFolder(images: ["u3.png": png])
        try await LiveSimulator.with(dataDirectory: folder.url) { live in
            let users = try await live.get([String: User].self, "/users")
            #expect(users.keys.sorted() == ["u1", "u2", "u3"])
            let raw = try #require(try await live.raw("/users") as? [String: [String: Any]])
            #expect(raw["u2"]?["color"] is NSNull && raw["u2"]?["bio"] is NSNull)
            let habits = try await live.get([String: Habit].self, "/habits")
            #expect(habits["Sit/Stand"]?.category.name == "Body")
            #expect(try await live.fetch("/images/u3").body == png)
            let stats = try await live.get([HabitStatistics].self, "/habitStats?names=Sit%2FStand,Think%20%26%20Do")
            #expect(stats.map(\.habit.name) == ["Sit/Stand", "Think & Do"])
        }
    }

    @Test func badDataFailsTheStartWithTheLoadersMessage() throws {
        let folder = try TemporaryDataFolder(files: ["categories.json": nil])
        let error = #expect(throws: DataSetError.self) {
            try startEmbeddedSimulator(port: 0, dataDirectory: folder.url, logger: .silent)
        }
        #expect(error?.file == "categories.json")
        #expect(error?.problem.hasPrefix("missing file") == true)
    }

    @Test func aTakenPortFailsTheStart() async throws {
        let first = try startEmbeddedSimulator(port: 0, runSimulation: false, logger: .silent)
        #expect(throws: (any Error).self) {
            try startEmbeddedSimulator(port: first.port, runSimulation: false, logger: .silent)
        }
        await first.shutdown()
    }

    @Test func startsFromCommandLineOptionsWithTheSimulationRunning() async throws {
        let (logger, capture) = Logger.capturing()
        let options = SimulatorOptions(port: 0, speed: 10, seed: 5)
        let embedded = try startEmbeddedSimulator(options: options, logger: logger)
        #expect(embedded.simulator.isRunning)
        #expect(embedded.simulator.seed == 5)
        #expect(embedded.baseURL.absoluteString == "http://127.0.0.1:\(embedded.port)")
        let deadline = ContinuousClock.now + .seconds(60)  // a hang guard; the loop ends at the first event
        while embedded.simulator.eventCount == 0 && ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(20))
        }
        #expect(embedded.simulator.eventCount > 0)
        #expect(
            capture.lines.contains { $0.contains("habits API simulator listening") && $0.contains("simulator.seed=5") })
        await embedded.shutdown()
        #expect(!embedded.simulator.isRunning)
    }

    @Test func noSimulationStartsStopped() async throws {
        let options = SimulatorOptions(port: 0, simulationEnabled: false)
        let embedded = try startEmbeddedSimulator(options: options, logger: .silent)
        #expect(!embedded.simulator.isRunning)
        await embedded.shutdown()
    }

    /// Issue 10: a first visit finds half an hour of activity, the same for every start with one seed.
    @Test func startsWithTheSameHalfHourOfHistoryForOneSeed() async throws {
        let options = SimulatorOptions(port: 0, seed: 9, simulationEnabled: false)
        let first = try startEmbeddedSimulator(options: options, logger: .silent)
        let second = try startEmbeddedSimulator(options: options, logger: .silent)
        #expect(first.simulator.eventCount > Simulator.historyTicks / 2)
        let dataSet = first.simulator.dataSet
        var active = Set<String>()
        for user in dataSet.users {
            for habit in dataSet.habits {
                let count = first.simulator.count(userID: user.id, habitName: habit.name)
                #expect(count == second.simulator.count(userID: user.id, habitName: habit.name))
                if (count ?? 0) > 0 { active.insert(user.id) }
            }
        }
        #expect(active.count > dataSet.users.count / 2, "most people have logged something")
        await first.shutdown()
        await second.shutdown()
    }

    @Test func noHistoryStartsEmptyLikeHabitServer() async throws {
        let options = SimulatorOptions(port: 0, simulationEnabled: false, history: false)
        let embedded = try startEmbeddedSimulator(options: options, logger: .silent)
        #expect(embedded.simulator.eventCount == 0)
        await embedded.shutdown()
    }
}
