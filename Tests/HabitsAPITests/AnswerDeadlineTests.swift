import Foundation
import TestSupport
import Testing

@testable import HabitsAPI

/// The client's deadline for an answer (issue 23: a valid 45 000-person `/combinedStats` took 3.7 s to arrive, and a
/// 3 s total timeout refused it every time).
@Suite struct AnswerDeadlineTests {
    static let policy = AnswerDeadline.Policy(totalTimeout: .seconds(3), stallTimeout: .seconds(3), minimumRate: 1000)

    @Test func givesUpAtTheTotalTimeoutWhenNoByteArrives() {
        let clock = ManualClock()
        let answer = AnswerDeadline(policy: Self.policy, start: clock.now)
        clock.advance(by: .milliseconds(2999))
        #expect(!answer.hasExpired(at: clock.now))
        clock.advance(by: .milliseconds(1))
        #expect(answer.hasExpired(at: clock.now))
    }

    @Test func aLargeAnswerThatKeepsArrivingOutlivesTheTotalTimeout() {
        let clock = ManualClock()
        var answer = AnswerDeadline(policy: Self.policy, start: clock.now)
        // 10 000 bytes a second for 20 s, ten times the minimum rate: never given up on.
        for _ in 0..<20 {
            clock.advance(by: .seconds(1))
            #expect(!answer.hasExpired(at: clock.now))
            answer.received(10_000, at: clock.now)
        }
        #expect(answer.received == 200_000)
        // Then the answer stops: the stall bound ends it 3 s after the last bytes.
        clock.advance(by: .milliseconds(2999))
        #expect(!answer.hasExpired(at: clock.now))
        clock.advance(by: .milliseconds(1))
        #expect(answer.hasExpired(at: clock.now))
    }

    @Test func anUpstreamDrippingBytesIsGivenUpOnAtItsEarnedTime() {
        let clock = ManualClock()
        var answer = AnswerDeadline(policy: Self.policy, start: clock.now)
        // 100 bytes every 2 s, a twentieth of the minimum rate: never a stall, but each byte earns only 1 ms.
        var elapsed = 0
        while !answer.hasExpired(at: clock.now + .seconds(2)) {
            clock.advance(by: .seconds(2))
            answer.received(100, at: clock.now)
            elapsed += 2
        }
        #expect(elapsed == 2)
        // 3 s + 100 bytes at 1000 a second.
        #expect(answer.deadline == answer.start + .milliseconds(3100))
    }

    @Test func progressNeverEndsACallBeforeTheTotalTimeout() {
        let clock = ManualClock()
        var policy = Self.policy
        policy.stallTimeout = .milliseconds(100)
        var answer = AnswerDeadline(policy: policy, start: clock.now)
        answer.received(10, at: clock.now)
        #expect(answer.deadline == answer.start + .seconds(3))
    }

    @Test func countsOnlyProgressAndNeverMovesTheLastProgressBack() {
        let clock = ManualClock()
        var answer = AnswerDeadline(policy: Self.policy, start: clock.now)
        answer.received(0, at: clock.now + .seconds(1))
        #expect(answer.deadline == answer.start + .seconds(3))
        answer.received(10, at: clock.now + .seconds(2))
        answer.received(10, at: clock.now + .seconds(1))
        #expect(answer.lastProgress == answer.start + .seconds(2))
    }

    @Test func aHugeCountDoesNotOverflowTheEarnedTime() {
        var policy = Self.policy
        policy.stallTimeout = .seconds(1_000_000_000)
        var answer = AnswerDeadline(policy: policy, start: ManualClock().now)
        answer.received(Int.max / 2, at: answer.start)
        #expect(answer.deadline > answer.start + .seconds(1_000_000))
    }

    @Test func theConfigurationStatesTheDefaults() {
        let configuration = UpstreamConfiguration(host: "127.0.0.1", port: 1)
        #expect(
            configuration.answerDeadline
                == AnswerDeadline.Policy(totalTimeout: .seconds(3), stallTimeout: .seconds(3), minimumRate: 262_144))
        #expect(configuration.maxAnswerBytes == 64 << 20)
    }

    // MARK: - Over a socket

    /// The head and half the body, then a pause longer than the total timeout, then the rest: read whole.
    @Test func readsAnAnswerThatArrivesOverMoreThanTheTotalTimeout() async throws {
        let body = Array(#"{"user0":{"id":"user0","name":"Ada","color":null,"bio":null}}"#.utf8)
        let head = Array(
            "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: \(body.count)\r\n\r\n".utf8)
        let server = try LoopbackServer { _ in .paced([head + body.prefix(20), Array(body.dropFirst(20))], pause: 12) }
        defer { server.stop() }
        var configuration = UpstreamConfiguration(host: "127.0.0.1", port: server.port)
        // 10 s: on a loaded machine the call once took over 2 s to start (the whole suite runs at once). The 12 s
        // pause is what outlives it.
        configuration.totalTimeout = .seconds(10)
        // Only hang guards.
        configuration.stallTimeout = .seconds(60)
        configuration.minimumAnswerRate = 1
        let client = HabitsClient(configuration: configuration)
        #expect(try await client.users()["user0"]?.name == "Ada")
    }

    @Test func refusesAnAnswerLargerThanTheByteBound() async throws {
        let server = try LoopbackServer { _ in LoopbackServer.json(Array(repeating: UInt8(ascii: " "), count: 2000)) }
        defer { server.stop() }
        var configuration = UpstreamConfiguration(host: "127.0.0.1", port: server.port)
        configuration.totalTimeout = .seconds(60)
        configuration.maxAnswerBytes = 1000
        let client = HabitsClient(configuration: configuration)
        await #expect(throws: HabitsAPIError.transport("bad response: response body too large")) {
            try await client.users()
        }
    }
}
