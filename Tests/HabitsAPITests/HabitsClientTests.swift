import Foundation
import TestSupport
import Testing

@testable import HabitsAPI

@Suite struct HabitsClientTests {
    enum Kind: String, CaseIterable, Sendable { case socket, urlSession }

    /// A server answering every API path from the fixtures.
    static func fixtureServer() throws -> LoopbackServer {
        let files: [String: [UInt8]] = try [
            "/users": Fixtures.bytes("users.json"), "/habits": Fixtures.bytes("habits.json"),
            "/categories": Fixtures.bytes("categories.json"), "/combinedStats": Fixtures.bytes("combinedStats.json"),
            "/userStats": Fixtures.bytes("userStats.json"), "/habitStats": Fixtures.bytes("habitStats.json"),
            "/userLeadingStats/user0": Fixtures.bytes("userLeadingStats-user0.json"),
        ]
        return try LoopbackServer { request in
            let path = String(request.target.split(separator: "?", maxSplits: 1)[0])
            if request.method == "POST" {
                return .bytes(Array("HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nOK".utf8), close: false)
            }
            if path.hasPrefix("/images/") {
                return .bytes(
                    Array("HTTP/1.1 200 OK\r\nContent-Type: image/png\r\nContent-Length: 4\r\n\r\n".utf8)
                        + [0x89, 0x50, 0x4E, 0x47], close: false)
            }
            guard let body = files[path] else {
                return .bytes(Array("HTTP/1.1 404 Not Found\r\nContent-Length: 9\r\n\r\nNot found".utf8), close: false)
            }
            return LoopbackServer.json(body)
        }
    }

    /// A client of `kind` for the loopback server on `port`. The socket transport ages its idle connections on
    /// `clock` (by default one that never moves), so a loaded machine's pause between two calls never makes a test
    /// open a second connection it did not mean to.
    static func client(
        _ kind: Kind, port: Int, timeout: Duration = .seconds(60), clock: ManualClock = ManualClock()
    ) -> (HabitsClient, SocketTransport?) {
        var configuration = UpstreamConfiguration(host: "127.0.0.1", port: port)
        configuration.totalTimeout = timeout
        switch kind {
        case .socket:
            let transport = SocketTransport(configuration: configuration, clock: clock)
            return (HabitsClient(configuration: configuration, transport: transport), transport)
        case .urlSession:
            return (
                HabitsClient(
                    configuration: configuration, transport: URLSessionTransport(configuration: configuration)), nil
            )
        }
    }

    @Test(arguments: Kind.allCases)
    func decodesEveryEndpoint(_ kind: Kind) async throws {
        let server = try Self.fixtureServer()
        defer { server.stop() }
        let (client, _) = Self.client(kind, port: server.port)
        #expect(try await client.users().keys.sorted() == ["user0", "user1", "user2"])
        #expect(try await client.users()["user1"]?.color == nil)
        #expect(try await client.habits()["Push-ups/Sit-ups & Crêpes"]?.category.name == "Eating")
        #expect(try await client.categories().map(\.name) == ["Exercise", "Mindfulness", "Eating", "Reading"])
        #expect(try await client.combinedStatistics().habitStatistics.count == 4)
        #expect(try await client.userStatistics(ids: ["user0", "user2"]).count == 4)
        #expect(try await client.habitStatistics(names: nil).last?.userCounts == [])
        #expect(try await client.userLeadingStatistics(id: "user0").habitCounts.count == 2)
        let image = try await client.image(id: "user0")
        #expect(image.bytes == [0x89, 0x50, 0x4E, 0x47])
        #expect(image.contentType == "image/png")
    }

    @Test(arguments: Kind.allCases)
    func encodesPathsAndQueries(_ kind: Kind) async throws {
        let server = try Self.fixtureServer()
        defer { server.stop() }
        let (client, _) = Self.client(kind, port: server.port)
        _ = try await client.userStatistics(ids: ["user0", "a b"])
        _ = try await client.habitStatistics(names: ["Push-ups/Sit-ups & Crêpes", "Yoga"])
        await #expect(throws: HabitsAPIError.status(404, path: "/userLeadingStats/a%2Fb%20c%26%C3%A9%3F")) {
            try await client.userLeadingStatistics(id: "a/b c&é?")
        }
        #expect(
            server.received.map(\.target) == [
                "/userStats?ids=user0,a%20b",
                "/habitStats?names=Push-ups%2FSit-ups%20%26%20Cr%C3%AApes,Yoga",
                "/userLeadingStats/a%2Fb%20c%26%C3%A9%3F",
            ])
        #expect(server.received[0].headers["host"] == "127.0.0.1:\(server.port)")
    }

    @Test(arguments: Kind.allCases)
    func postsALoggedHabitAsJSON(_ kind: Kind) async throws {
        let server = try Self.fixtureServer()
        defer { server.stop() }
        let (client, _) = Self.client(kind, port: server.port)
        let event = LoggedHabit(
            userID: "activeUser", habitName: "Yoga", timestamp: Date(timeIntervalSince1970: 1_795_774_530))
        try await client.log(event)
        let request = try #require(server.received.first)
        #expect(request.method == "POST")
        #expect(request.target == "/loggedHabit")
        #expect(request.headers["content-type"] == "application/json")
        let decoded = try JSONDecoder().decode(LoggedHabit.self, from: Data(request.body))
        #expect(decoded == event)
        #expect(String(decoding: request.body, as: UTF8.self).contains(#""timestamp":"2026-11-27T10:15:30Z""#))
    }

    @Test(arguments: Kind.allCases)
    func reportsABodyThatIsNotTheExpectedShape(_ kind: Kind) async throws {
        let server = try LoopbackServer { _ in LoopbackServer.json(Array(#"[{"id": 1}]"#.utf8)) }
        defer { server.stop() }
        let (client, _) = Self.client(kind, port: server.port)
        do {
            _ = try await client.users()
            Issue.record("decoded a list as a dictionary")
        } catch HabitsAPIError.decoding(let type, _) {
            #expect(type == "Dictionary<String, User>")
        }
    }

    @Test(arguments: Kind.allCases)
    func reportsARefusedConnectionAsTransport(_ kind: Kind) async throws {
        let server = try LoopbackServer { _ in .silence }
        let port = server.port
        server.stop()
        let (client, _) = Self.client(kind, port: port)
        await #expect {
            try await client.users()
        } throws: { error in
            guard case HabitsAPIError.transport = error else { return false }
            return true
        }
    }

    @Test(arguments: Kind.allCases)
    func givesUpAfterTheTotalTimeout(_ kind: Kind) async throws {
        let server = try LoopbackServer { _ in .silence }
        defer { server.stop() }
        // URLSession on Linux truncates timeouts to whole seconds (0.3 s fails at once), so it gets 1 s.
        let timeout = kind == .socket ? 0.3 : 1
        let (client, _) = Self.client(kind, port: server.port, timeout: .seconds(timeout))
        let start = ContinuousClock.now
        await #expect {
            try await client.users()
        } throws: { error in
            guard case HabitsAPIError.transport = error else { return false }
            return true
        }
        let elapsed = ContinuousClock.now - start
        #expect(elapsed >= .seconds(timeout * 0.9))
        // Only a hang guard: the error above already says the call gave up. The clock starts before the call's
        // first hop to the test process's cooperative threads, which every test of the suite shares: with three CI
        // runs and a release build side by side on 2 cores, the hop alone took about 70 s (the suite's tests took
        // about 100 s each), so the bound is far above that.
        #expect(elapsed < .seconds(300))
    }
}
