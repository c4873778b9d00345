import Testing

@testable import DashboardCore
@testable import DashboardWeb

/// Who refreshes the upstream in a cluster (issue 19 point 4), as a pure value driven with plain instants.
@Suite struct RefresherRoleTests {
    let t0 = ContinuousClock.now

    func at(_ seconds: Double) -> ContinuousClock.Instant { t0 + .seconds(seconds) }

    @Test func aNewDashboardFetchesForItselfAndHasNoStepBeforeItConnects() {
        let role = RefresherRole(now: t0)
        #expect(role.role == .standalone)
        #expect(role.due(now: at(10)) == nil)
    }

    @Test func onceConnectedItCatchesUpWithTheStoredSnapshotBeforeAskingForTheLock() {
        var role = RefresherRole(now: t0)
        #expect(role.connected(now: t0) == [.loadRow, .tryLock])
        #expect(role.role == .follower)
    }

    @Test func theDashboardThatGetsTheLockStartsRefreshingAndThenOnlyChecksItsSession() {
        var role = RefresherRole(now: t0)
        _ = role.connected(now: t0)
        #expect(role.lockAnswered(acquired: true, now: t0) == [.startRefreshing])
        #expect(role.role == .leader && role.takeovers == 1)
        #expect(role.due(now: at(0.4)) == nil)
        #expect(role.due(now: at(0.5)) == .check)
        role.checked(now: at(0.5))
        #expect(role.due(now: at(0.9)) == nil && role.due(now: at(1.0)) == .check)
    }

    @Test func aFollowerAsksForTheLockEveryHalfSecondSoAKilledLeaderIsReplacedWithinTwoSeconds() {
        var role = RefresherRole(now: t0)
        _ = role.connected(now: t0)
        #expect(role.lockAnswered(acquired: false, now: t0).isEmpty)
        #expect(role.role == .follower)
        #expect(role.due(now: at(0.49)) == nil)
        #expect(role.due(now: at(0.5)) == .tryLock)
        // The leader dies at 0.6 s: PostgreSQL ends its session and frees the lock; the next try takes it.
        _ = role.lockAnswered(acquired: false, now: at(0.5))
        #expect(role.due(now: at(1.0)) == .tryLock)
        #expect(role.lockAnswered(acquired: true, now: at(1.0)) == [.startRefreshing])
    }

    @Test func aLeaderWhoseSessionFailsStepsDownAtOnceAndFetchesForItself() {
        var role = RefresherRole(now: t0)
        _ = role.connected(now: t0)
        _ = role.lockAnswered(acquired: true, now: t0)
        #expect(role.failed(now: at(0.5)) == [.stopRefreshing])
        #expect(role.role == .standalone && !role.connected)
        #expect(role.due(now: at(10)) == nil, "no step until it connects again")
    }

    /// `Refresher` reconnects through `RetryLoop` with this schedule: a database back after an outage has its
    /// leader again within about a second.
    @Test func failedConnectionsBackOffUpToASecond() {
        var role = RefresherRole(now: t0)
        #expect(role.failed(now: t0).isEmpty, "a dashboard that was not leading has nothing to stop")
        let reconnect = role.policy.reconnect
        #expect(
            (1...5).map { reconnect.delay(afterFailures: $0) }
                == [0.25, 0.5, 1, 1, 1].map { Duration.milliseconds(Int($0 * 1000)) })
    }

    @Test func onlyAFollowerReadsWhatTheLeaderStored() {
        var role = RefresherRole(now: t0)
        #expect(role.notified().isEmpty, "standalone has no database to read")
        _ = role.connected(now: t0)
        #expect(role.notified() == [.loadRow])
        _ = role.lockAnswered(acquired: true, now: t0)
        #expect(role.notified().isEmpty, "the leader wrote it")
    }
}
