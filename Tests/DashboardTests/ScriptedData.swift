import Foundation
import HabitsAPI
import Synchronization
import Testing

@testable import Dashboard

/// `DashboardData` a test scripts: the Fixture data plus extra Yoga counts it sets, calls counted, and able to fail
/// or to hang (until `release()`) on demand.
final class ScriptedData: DashboardData {
    private struct State {
        var extraYoga = 0
        var failure: HabitsAPIError?
        var hanging = false
        var held: [CheckedContinuation<Void, Never>] = []
        var statisticsCalls = 0
        var referenceCalls = 0
        var imageContentType = "image/png"
    }

    private let state = Mutex(State())
    private let now: @Sendable () -> Date

    /// Stamps answers with `now`.
    init(now: @escaping @Sendable () -> Date) { self.now = now }

    /// Calls of `combinedStatistics()` so far.
    var statisticsCalls: Int { state.withLock { $0.statisticsCalls } }
    /// Calls of `users()` so far (each reference refresh makes one).
    var referenceCalls: Int { state.withLock { $0.referenceCalls } }
    /// Calls being held by `hang()` now.
    var heldCalls: Int { state.withLock { $0.held.count } }

    /// Adds `count` Yoga logs for the active user, so the statistics change.
    func logYoga(_ count: Int = 1) { state.withLock { $0.extraYoga += count } }
    /// The content type `image(id:)` claims, unchecked: the app must refuse what is not a raster image itself.
    func setImageContentType(_ type: String) { state.withLock { $0.imageContentType = type } }
    /// Every later call throws `error` (nil: answer normally).
    func fail(with error: HabitsAPIError?) { state.withLock { $0.failure = error } }
    /// Every later call waits until `release()`.
    func hang() { state.withLock { $0.hanging = true } }
    /// Lets held calls (and later ones) go on.
    func release() {
        let held = state.withLock { state in
            state.hanging = false
            defer { state.held = [] }
            return state.held
        }
        for continuation in held { continuation.resume() }
    }

    private func answer<Value: Sendable>(_ value: @Sendable () -> Value) async throws -> Cached<Value> {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let hold = state.withLock { state -> Bool in
                if state.hanging { state.held.append(continuation) }
                return state.hanging
            }
            if !hold { continuation.resume() }
        }
        if let failure = state.withLock({ $0.failure }) { throw failure }
        return Cached(value: value(), asOf: now(), isStale: false)
    }

    func users() async throws -> Cached<[String: User]> {
        state.withLock { $0.referenceCalls += 1 }
        return try await answer { Fixture.users }
    }
    func habits() async throws -> Cached<[String: Habit]> { try await answer { Fixture.habits } }
    func categories() async throws -> Cached<[Category]> { try await answer { Fixture.categories } }
    func combinedStatistics() async throws -> Cached<CombinedStatistics> {
        state.withLock { $0.statisticsCalls += 1 }
        let extra = state.withLock { $0.extraYoga }
        return try await answer {
            var statistics = Fixture.combined
            if extra > 0, let index = statistics.habitStatistics.firstIndex(where: { $0.habit.name == "Yoga" }) {
                let counts = statistics.habitStatistics[index].userCounts
                statistics.habitStatistics[index].userCounts = counts.map {
                    $0.user.id == User.activeUserID ? UserCount(user: $0.user, count: $0.count + extra) : $0
                }
            }
            return statistics
        }
    }
    func userLeadingStatistics(id: String) async throws -> Cached<UserStatistics> {
        try await answer { Fixture.leading(id) }
    }
    func image(id: String) async throws -> (bytes: [UInt8], contentType: String) {
        ([1], state.withLock { $0.imageContentType })
    }
    func log(_ habit: LoggedHabit) async throws { logYoga() }
}

/// Waits until `condition` holds, checking after each yield and then every millisecond (so a waiting test does not
/// spin a core that the code it waits for needs); a hang guard of 30 s of wall time fails the test.
func eventually(
    _ what: String = "condition", sourceLocation: SourceLocation = #_sourceLocation,
    _ condition: @Sendable () -> Bool
) async {
    let start = ContinuousClock.now
    var checks = 0
    while !condition() {
        if ContinuousClock.now - start > .seconds(30) {
            Issue.record("timed out waiting for \(what)", sourceLocation: sourceLocation)
            return
        }
        checks += 1
        if checks < 50 {
            await Task.yield()
        } else {
            do {
                try await Task.sleep(for: .milliseconds(1))
            } catch {
                return  // cancelled: the test is over
            }
        }
    }
}
