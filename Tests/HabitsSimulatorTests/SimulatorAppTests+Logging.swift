import Foundation
import HTTPServer
import HabitsAPI
import Testing

@testable import HabitsSimulator

/// `POST /log`: one count changes, the active user's logs show up as "activeUser", and a bad log request is refused in
/// plain text with nothing changed.
extension SimulatorAppTests {
    @Test func loggingChangesExactlyOneCount() async throws {
        try await LiveSimulator.with { live in
            live.simulator.step(100)
            let before = try await Self.counts(live)
            let body = #"{"userID": "user9", "habitName": "Tai chi — Qìgōng", "timestamp": "2026-11-29T10:15:30.250Z"}"#
            let reply = try await live.log(body)
            #expect(reply.status == 200)
            let after = try await Self.counts(live)
            let changed = Set(before.keys).union(after.keys).filter { before[$0, default: 0] != after[$0, default: 0] }
            #expect(changed == ["user9|Tai chi — Qìgōng"])
            #expect(after["user9|Tai chi — Qìgōng", default: 0] == before["user9|Tai chi — Qìgōng", default: 0] + 1)
        }
    }

    @Test func theActiveUsersLogsShowUpAsActiveUser() async throws {
        try await LiveSimulator.with { live in
            let quiet = try await live.get(CombinedStatistics.self, "/combinedStats")
            #expect(!quiet.userStatistics.contains { $0.user.id == "activeUser" })
            let body =
                #"{"userID": "activeUser", "habitName": "Read & Reflect", "timestamp": "2026-11-29T11:15:30+01:00"}"#
            #expect(try await live.log(body, contentType: "application/json; charset=utf-8").status == 200)
            let stats = try await live.get(CombinedStatistics.self, "/combinedStats")
            let mine = try #require(stats.userStatistics.first { $0.user.id == "activeUser" })
            #expect(mine.user.name == "Active User")
            let habit = try #require(stats.habitStatistics.first { $0.habit.name == "Read & Reflect" })
            #expect(habit.userCounts.map(\.user.name) == ["Active User"])
        }
    }

    @Test(arguments: [
        (#"{"userID": "user1", "habitName": "Sketching""#, "application/json", 400),
        (#"{"userID": "user1", "timestamp": "2026-11-29T10:15:30Z"}"#, "application/json", 400),
        (#"{"userID": "user1", "habitName": "Sketching", "timestamp": "yesterday"}"#, "application/json", 400),
        (#"{"userID": 5, "habitName": "Sketching", "timestamp": "2026-11-29T10:15:30Z"}"#, "application/json", 400),
        (
            #"{"userID": "ghost", "habitName": "Sketching", "timestamp": "2026-11-29T10:15:30Z"}"#, "application/json",
            404
        ),
        (#"{"userID": "user1", "habitName": "Flying", "timestamp": "2026-11-29T10:15:30Z"}"#, "application/json", 404),
        (#"{"userID": "user1", "habitName": "Sketching", "timestamp": "2026-11-29T10:15:30Z"}"#, "text/plain", 415),
        (
            #"{"userID": "user1", "habitName": "Sketching", "timestamp": "2026-11-29T10:15:30Z", "pad": ""#
                + String(repeating: "x", count: 5000) + #""}"#, "application/json", 413
        ),
    ])
    func badLogRequestsAreRefusedInPlainTextAndChangeNothing(body: String, contentType: String, status: Int)
        async throws
    {
        try await LiveSimulator.with { live in
            live.simulator.step(20)
            let before = try await live.fetch("/combinedStats").body
            let reply = try await live.log(body, contentType: contentType)
            #expect(reply.status == status)
            #expect(reply.header("Content-Type")?.hasPrefix("text/plain") == true)
            #expect(!reply.text.isEmpty)
            #expect(try await live.fetch("/combinedStats").body == before)
        }
    }
}
