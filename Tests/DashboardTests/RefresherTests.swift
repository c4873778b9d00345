import Foundation
import Postgres
import TestSupport
import Testing
import Timing

@testable import DashboardCore
@testable import DashboardWeb

/// `Refresher` carrying out `RefresherRole` on a real throwaway PostgreSQL of the test's own, each refresher on a
/// `ManualClock`: one lock holder among two, the follower taking over when the leader goes, and a leader whose
/// database hangs stepping down when its check passes the statement deadline (1 s on its clock). The clocks only
/// move forward in small steps while the test waits for something, so no wall-clock time is asserted.
@Suite(.enabled(if: ThrowawayPostgres.available, Comment(rawValue: ThrowawayPostgres.missingReason)))
struct RefresherTests {
    /// A refresher on `url` with its own clock, started.
    static func refresher(on url: DatabaseURL) async throws -> (Refresher, ManualClock, PostgresListener) {
        let (store, link, _) = try await ClusterLinkTests.dashboard(on: url, role: .standalone)
        let clock = ManualClock()
        let listener = PostgresListener(url: url, clock: SystemTimeSource())
        let refresher = Refresher(url: url, link: link, store: store, listener: listener, clock: clock, logger: .silent)
        refresher.start()
        return (refresher, clock, listener)
    }

    /// Moves `clock` 50 ms at a time until `condition` holds (a hang guard of 120 s of wall time); returns how far
    /// it moved.
    static func advance(
        _ clock: ManualClock, until what: String, sourceLocation: SourceLocation = #_sourceLocation,
        _ condition: () -> Bool
    ) async throws -> Duration {
        let start = ContinuousClock.now
        var moved = Duration.zero
        while !condition() {
            guard ContinuousClock.now - start < .seconds(120) else {
                Issue.record("timed out waiting for \(what)", sourceLocation: sourceLocation)
                return moved
            }
            clock.advance(by: .milliseconds(50))
            moved += .milliseconds(50)
            try await Task.sleep(for: .milliseconds(5))
        }
        return moved
    }

    @Test(.timeLimit(.minutes(5)))
    func oneLeadsTheOtherFollowsAndTakesOverWhenTheLeaderGoes() async throws {
        let server = try await ThrowawayPostgres.make()
        defer { Task { await server.destroy() } }
        let url = try DatabaseURL(server.url)
        let (first, firstClock, firstListener) = try await Self.refresher(on: url)
        defer {
            first.stop()
            firstListener.stop()
        }
        _ = try await Self.advance(firstClock, until: "the first leads") { first.role == .leader }
        let (second, secondClock, secondListener) = try await Self.refresher(on: url)
        defer {
            second.stop()
            secondListener.stop()
        }
        // The second asks for the lock every half second of its clock and is refused while the first holds it.
        _ = try await Self.advance(secondClock, until: "the second follows") { second.role == .follower }
        // Time moves only while the lock loop sleeps: moved while a try is in flight, the try's deadline would pass
        // under it and the second would drop its session as if the database had hung.
        for _ in 0..<10 {
            await eventually("the second's lock loop asleep") { secondClock.sleeperCount == 1 }
            secondClock.advance(by: .milliseconds(500))
        }
        await eventually("the second's lock loop asleep") { secondClock.sleeperCount == 1 }
        #expect(second.role == .follower && first.role == .leader)
        // The leader stops (its session closes, and with it the lock): the follower's next try takes it.
        first.stop()
        _ = try await Self.advance(secondClock, until: "the second takes over") { second.role == .leader }
        #expect(second.takeovers == 1 && first.takeovers == 1)
    }

    @Test(.timeLimit(.minutes(5)))
    func aLeaderWhoseDatabaseHangsStepsDownWhenItsCheckPassesTheDeadlineAndLeadsAgainAfter() async throws {
        let server = try await ThrowawayPostgres.make()
        defer { Task { await server.destroy() } }
        let url = try DatabaseURL(server.url)
        let (refresher, clock, listener) = try await Self.refresher(on: url)
        defer {
            refresher.stop()
            listener.stop()
        }
        _ = try await Self.advance(clock, until: "it leads") { refresher.role == .leader }
        await eventually("the lock loop asleep until its next check") { clock.sleeperCount == 1 }
        try server.pause()  // SIGSTOP: the session stays open and nothing answers
        let moved = try await Self.advance(clock, until: "it steps down") { refresher.role == .standalone }
        try server.resume()
        // The check fails only once its deadline, a second of the refresher's clock after it was sent, has passed.
        #expect(moved >= .seconds(1))
        _ = try await Self.advance(clock, until: "it leads again") { refresher.role == .leader }
        #expect(refresher.takeovers == 2)
    }
}
