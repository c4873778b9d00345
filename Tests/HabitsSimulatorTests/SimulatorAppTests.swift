import Foundation
import HTTPServer
import HabitsAPI
import Testing

@testable import HabitsSimulator

/// Contract tests: every endpoint of SPEC §3 fetched over a real socket and decoded with the HabitsAPI models.
@Suite struct SimulatorAppTests {
    @Test func rootAnswersAPlainTextStatus() async throws {
        try await LiveSimulator.with { live in
            let reply = try await live.fetch("/")
            #expect(reply.status == 200)
            #expect(reply.header("Content-Type")?.hasPrefix("text/plain") == true)
            #expect(reply.text.contains("simulation: stopped"))
            #expect(reply.text.contains("users: 41, habits: 19, categories: 7"))
        }
    }

    @Test func usersIsAnObjectKeyedByIDWithoutTheActiveUser() async throws {
        try await LiveSimulator.with { live in
            let users = try await live.get([String: User].self, "/users")
            #expect(users.count == 41)
            #expect(users["activeUser"] == nil)
            #expect(users.allSatisfy { $0.key == $0.value.id })
            let raw = try #require(try await live.raw("/users") as? [String: [String: Any]])
            for user in raw.values {
                #expect(Set(user.keys) == ["id", "name", "color", "bio"])
                #expect(Set(try #require(user["color"] as? [String: Double]).keys) == ["h", "s", "b"])
                #expect(user["bio"] is String)
            }
        }
    }

    @Test func habitsIsAnObjectKeyedByNameWithFullCategories() async throws {
        try await LiveSimulator.with { live in
            let habits = try await live.get([String: Habit].self, "/habits")
            #expect(habits.count == 19)
            #expect(habits.allSatisfy { $0.key == $0.value.name })
            #expect(habits["Push-ups/Sit-ups"]?.category.name == "Movement")
            let raw = try #require(try await live.raw("/habits") as? [String: [String: Any]])
            for habit in raw.values {
                #expect(Set(habit.keys) == ["name", "category", "info"])
                let category = try #require(habit["category"] as? [String: Any])
                #expect(Set(category.keys) == ["name", "color"])
            }
        }
    }

    @Test func categoriesIsAnArrayIncludingTheOneWithoutHabits() async throws {
        try await LiveSimulator.with { live in
            let categories = try await live.get([Category].self, "/categories")
            #expect(categories.count == 7)
            #expect(categories.contains { $0.name == "Rest" })
            #expect(try await live.raw("/categories") is [Any])
        }
    }

    @Test func imagesArePNGsWithCachingHeaders() async throws {
        try await LiveSimulator.with { live in
            let reply = try await live.fetch("/images/user3")
            #expect(reply.status == 200)
            #expect(reply.header("Content-Type") == "image/png")
            #expect(reply.header("Cache-Control")?.contains("max-age") == true)
            let etag = try #require(reply.header("ETag"))
            let chunks = try PNGReader.chunks(reply.body)
            #expect(reply.body.starts(with: PNGEncoder.signature))
            #expect(chunks.map(\.type) == ["IHDR", "PLTE", "IDAT", "IEND"])
            #expect(chunks.allSatisfy { $0.storedCRC == $0.computedCRC })
            let again = try await live.fetch("/images/user3", headers: ["If-None-Match": etag])
            #expect(again.status == 304 && again.body.isEmpty)
            #expect(try await live.fetch("/images/activeUser").status == 200)
            #expect(try await live.fetch("/images/nobody").status == 404)
        }
    }

    @Test func userStatsListsEveryUserOrTheRequestedOnes() async throws {
        try await LiveSimulator.with { live in
            live.simulator.step(200)
            let all = try await live.get([UserStatistics].self, "/userStats")
            #expect(all.map(\.user.id) == (0...40).map { "user\($0)" })
            let some = try await live.get([UserStatistics].self, "/userStats?ids=user3,nobody,user1,user3")
            #expect(some.map(\.user.id) == ["user3", "user1"])
            #expect(some[0] == all[3] && some[0].habitCounts == all[3].habitCounts)
            #expect(try await live.get([UserStatistics].self, "/userStats?ids=nobody").isEmpty)
            let raw = try #require(try await live.raw("/userStats") as? [[String: Any]])
            #expect(raw.allSatisfy { Set($0.keys) == ["user", "habitCounts"] && $0["habitCounts"] is [Any] })
        }
    }

    @Test func habitStatsListsEveryHabitAndFiltersByEncodedNames() async throws {
        try await LiveSimulator.with { live in
            let all = try await live.get([HabitStatistics].self, "/habitStats")
            #expect(all.count == 19)
            #expect(all.allSatisfy { $0.userCounts.isEmpty }, "nothing logged yet, every habit still listed")
            let names = ["Push-ups/Sit-ups", "Read & Reflect", "Tai chi — Qìgōng", "Nope"]
            let query = names.map(LiveSimulator.encode).joined(separator: ",")
            let some = try await live.get([HabitStatistics].self, "/habitStats?names=\(query)")
            #expect(some.map(\.habit.name) == Array(names.prefix(3)))
            let raw = try #require(try await live.raw("/habitStats") as? [[String: Any]])
            #expect(raw.allSatisfy { Set($0.keys) == ["habit", "userCounts"] && $0["userCounts"] is [Any] })
        }
    }

    @Test func combinedStatsHoldsBothListsUnchanged() async throws {
        try await LiveSimulator.with { live in
            live.simulator.step(150)
            let combined = try await live.get(CombinedStatistics.self, "/combinedStats")
            let users = try await live.get([UserStatistics].self, "/userStats")
            let habits = try await live.get([HabitStatistics].self, "/habitStats")
            #expect(combined.userStatistics.map(\.habitCounts) == users.map(\.habitCounts))
            #expect(combined.habitStatistics.map(\.userCounts) == habits.map(\.userCounts))
            #expect(combined.habitStatistics.flatMap(\.userCounts).map(\.count).reduce(0, +) == 150)
            let raw = try #require(try await live.raw("/combinedStats") as? [String: Any])
            #expect(Set(raw.keys) == ["userStatistics", "habitStatistics"])
        }
    }

    @Test func leadingStatsShareTheLeadBetweenTiedUsers() async throws {
        try await LiveSimulator.with { live in
            for user in ["user0", "user1", "user0", "user1", "user2", "activeUser", "activeUser"] {
                let body = #"{"userID": "\#(user)", "habitName": "Sketching", "timestamp": "2026-11-29T10:15:30Z"}"#
                #expect(try await live.log(body).status == 200)
            }
            for user in ["user0", "user1", "activeUser"] {
                let stats = try await live.get(UserStatistics.self, "/userLeadingStats/\(user)")
                #expect(stats.user.id == user)
                #expect(stats.habitCounts.map(\.habit.name) == ["Sketching"])
                #expect(stats.habitCounts.map(\.count) == [2])
            }
            let trailing = try await live.get(UserStatistics.self, "/userLeadingStats/user2")
            #expect(trailing.habitCounts.isEmpty)
            let raw = try #require(try await live.raw("/userLeadingStats/user5") as? [String: Any])
            #expect(Set(raw.keys) == ["user", "habitCounts"])
            #expect((raw["habitCounts"] as? [Any])?.isEmpty == true)
            #expect(try await live.fetch("/userLeadingStats/nobody").status == 404)
        }
    }

    @Test func wrongMethodsAnswer405() async throws {
        try await LiveSimulator.with { live in
            let get = try await live.fetch("/loggedHabit")
            #expect(get.status == 405)
            #expect(get.header("Allow") == "POST")
            #expect(try await live.fetch("/users", method: "POST", body: []).status == 405)
            #expect(try await live.fetch("/control/simulator/start", method: "DELETE").status == 405)
            #expect(try await live.fetch("/nothing-here").status == 404)
        }
    }

    @Test func headAnswersWithoutABody() async throws {
        try await LiveSimulator.with { live in
            let reply = try await live.fetch("/combinedStats", method: "HEAD")
            #expect(reply.status == 200)
            #expect(reply.body.isEmpty)
        }
    }

    @Test func statsCarryAnETagThatChangesWithEachEvent() async throws {
        try await LiveSimulator.with { live in
            let first = try await live.fetch("/combinedStats")
            let etag = try #require(first.header("ETag"))
            #expect(try await live.fetch("/combinedStats", headers: ["If-None-Match": etag]).status == 304)
            live.simulator.step()
            let changed = try await live.fetch("/combinedStats", headers: ["If-None-Match": etag])
            #expect(changed.status == 200)
            #expect(changed.header("ETag") != etag)
        }
    }

    /// The routes answer without a socket too, as the dashboard's tests may use them in-process.
    @Test func routesAnswerInProcessWithPercentDecodedParameters() async throws {
        let simulator = try Simulator(dataSet: .builtIn(), seed: 3, logger: .silent)
        let routes = SimulatorApp(simulator: simulator).routes
        let context = RequestContext(requestID: "t", logger: .silent)
        let body = Array(
            #"{"userID": "user4", "habitName": "Read & Reflect", "timestamp": "2026-11-29T10:15:30Z"}"#.utf8)
        let logged = try await routes.respond(
            to: Request(
                method: .post, target: "/loggedHabit", headers: ["Content-Type": "application/json"], body: body),
            context: context
        ).response()
        #expect(logged.status == .ok)
        let leading = try await routes.respond(
            to: Request(method: .get, target: "/userLeadingStats/user%34"), context: context
        ).response()
        let stats = try JSONDecoder().decode(UserStatistics.self, from: Data(leading.body))
        #expect(stats.user.id == "user4")
        #expect(stats.habitCounts.map(\.habit.name) == ["Read & Reflect"])
        let filtered = try await routes.respond(
            to: Request(method: .get, target: "/habitStats?names=Read+%26+Reflect"), context: context
        ).response()
        let habits = try JSONDecoder().decode([HabitStatistics].self, from: Data(filtered.body))
        #expect(habits.map(\.habit.name) == ["Read & Reflect"])
        #expect(habits.first?.userCounts.map(\.count) == [1])
    }

    /// Every count as `"userID|habit" → count`, read from /combinedStats.
    static func counts(_ live: LiveSimulator) async throws -> [String: Int] {
        let stats = try await live.get(CombinedStatistics.self, "/combinedStats")
        var counts: [String: Int] = [:]
        for habit in stats.habitStatistics {
            for entry in habit.userCounts { counts["\(entry.user.id)|\(habit.habit.name)"] = entry.count }
        }
        let fromUsers = stats.userStatistics.flatMap { user in
            user.habitCounts.map { ("\(user.user.id)|\($0.habit.name)", $0.count) }
        }
        guard Dictionary(uniqueKeysWithValues: fromUsers) == counts else {
            throw LiveSimulator.Failure(description: "userStatistics and habitStatistics disagree")
        }
        return counts
    }
}
