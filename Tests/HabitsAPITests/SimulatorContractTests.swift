import Foundation
import HabitsSimulator
import TestSupport
import Testing

@testable import HabitsAPI

/// The client and the cache against the real embedded simulator on 127.0.0.1:0.
@Suite struct SimulatorContractTests {
    /// Runs `body` with a client for a fresh, stopped, seeded simulator that has logged `steps` ticks.
    private static func withSimulator(
        steps: Int = 400, _ body: (EmbeddedSimulator, HabitsClient, SocketTransport) async throws -> Void
    ) async throws {
        let embedded = try startEmbeddedSimulator(port: 0, seed: 11, runSimulation: false, logger: .silent)
        embedded.simulator.step(steps)
        var configuration = UpstreamConfiguration(host: "127.0.0.1", port: embedded.port)
        // Hang guards only: on a loaded machine a call can wait seconds for a thread before it starts.
        configuration.connectTimeout = .seconds(30)
        configuration.totalTimeout = .seconds(60)
        // Idle connections age on a clock that never moves: a pause on a loaded machine must not retire them.
        let clock = ManualClock()
        let transport = SocketTransport(configuration: configuration, clock: clock)
        do {
            try await body(embedded, HabitsClient(configuration: configuration, transport: transport), transport)
        } catch {
            await embedded.shutdown()
            throw error
        }
        await embedded.shutdown()
    }

    @Test func decodesEveryEndpointOfTheSimulator() async throws {
        try await Self.withSimulator { _, client, transport in
            let users = try await client.users()
            let habits = try await client.habits()
            let categories = try await client.categories()
            #expect(users.count >= 30)
            #expect(users[User.activeUserID] == nil)
            #expect(habits.count >= 15)
            #expect(categories.count == 7)
            #expect(Set(habits.values.map(\.category.name)).isSubset(of: Set(categories.map(\.name))))

            let combined = try await client.combinedStatistics()
            #expect(combined.habitStatistics.count == habits.count)
            let some = Array(habits.keys.sorted().prefix(2))
            #expect(try await client.habitStatistics(names: some).map(\.habit.name).sorted() == some)
            let ids = Array(users.keys.sorted().prefix(3))
            #expect(try await client.userStatistics(ids: ids).map(\.user.id).sorted() == ids)

            // Somebody leads something after 400 ticks; their leading stats say so.
            let top = try #require(
                combined.habitStatistics.compactMap { $0.userCounts.max { $0.count < $1.count } }.first)
            let leading = try await client.userLeadingStatistics(id: top.user.id)
            #expect(leading.user.id == top.user.id)
            #expect(!leading.habitCounts.isEmpty)

            let image = try await client.image(id: ids[0])
            #expect(image.bytes.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]))
            #expect(image.contentType.hasPrefix("image/png"))
            // Reuse, without assuming the server keeps an idle connection across any pause: its own idle timeout
            // (10 s) may close one on a stalled machine, and then a second connection is right.
            #expect(transport.connectionsOpened < 4)
        }
    }

    @Test func logsAHabitForTheActiveUser() async throws {
        try await Self.withSimulator { embedded, client, _ in
            let habit = try #require(try await client.habits().keys.sorted().first)
            let before = embedded.simulator.count(userID: User.activeUserID, habitName: habit) ?? 0
            try await client.log(LoggedHabit(userID: User.activeUserID, habitName: habit, timestamp: Date()))
            #expect(embedded.simulator.count(userID: User.activeUserID, habitName: habit) == before + 1)
            let stats = try await client.userStatistics(ids: [User.activeUserID])
            #expect(stats.first?.habitCounts.first { $0.habit.name == habit }?.count == before + 1)
        }
    }

    @Test func reportsUnknownThingsWithTheirPath() async throws {
        try await Self.withSimulator { _, client, _ in
            await #expect(throws: HabitsAPIError.status(404, path: "/userLeadingStats/no%2Fsuch%20user")) {
                try await client.userLeadingStatistics(id: "no/such user")
            }
            await #expect(throws: HabitsAPIError.self) {
                try await client.log(
                    LoggedHabit(userID: User.activeUserID, habitName: "No such habit", timestamp: Date()))
            }
        }
    }
}
