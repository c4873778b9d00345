import Foundation
import HabitsAPI
import Synchronization
import Testing

@testable import DashboardCore
@testable import DashboardWeb

/// A `HabitsAPI` a test scripts: the Fixture data plus extra Yoga counts it sets (per person), calls counted, and
/// able to fail or to hang (until `release()`) on demand.
final class ScriptedData: HabitsAPI {
    private struct State {
        var extraYoga: [String: Int] = [:]
        var failure: HabitsAPIError?
        var hanging = false
        var held: [CheckedContinuation<Void, Never>] = []
        var statisticsCalls = 0
        var referenceCalls = 0
        var logCalls = 0
        var imageContentType = "image/png"
    }

    private let state = Mutex(State())

    /// Calls of `combinedStatistics()` so far.
    var statisticsCalls: Int { state.withLock { $0.statisticsCalls } }
    /// Calls of `users()` so far (each reference refresh makes one).
    var referenceCalls: Int { state.withLock { $0.referenceCalls } }
    /// Habits logged so far.
    var logCalls: Int { state.withLock { $0.logCalls } }
    /// Calls being held by `hang()` now.
    var heldCalls: Int { state.withLock { $0.held.count } }

    /// Adds `count` Yoga logs for `userID` (a Fixture person who logged Yoga; the active user by default), so the
    /// statistics change.
    func logYoga(_ count: Int = 1, for userID: String = User.activeUserID) {
        state.withLock { $0.extraYoga[userID, default: 0] += count }
    }
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

    func send<R: APIRequest>(_ request: R) async throws -> R.Response {
        switch request {
        case is UsersRequest:
            state.withLock { $0.referenceCalls += 1 }
            return try await answer(Fixture.users, as: R.self)
        case is HabitsRequest:
            return try await answer(Fixture.habits, as: R.self)
        case is CategoriesRequest:
            return try await answer(Fixture.categories, as: R.self)
        case is CombinedStatisticsRequest:
            state.withLock { $0.statisticsCalls += 1 }
            return try await answer(statistics(), as: R.self)
        case let leading as UserLeadingStatisticsRequest:
            return try await answer(Fixture.leading(leading.userID), as: R.self)
        case is ImageRequest:
            return try cast((bytes: [UInt8]([1]), contentType: state.withLock { $0.imageContentType }), as: R.self)
        case is LogHabitRequest:
            state.withLock { $0.logCalls += 1 }
            logYoga()
            return try cast((), as: R.self)
        default:
            throw HabitsAPIError.status(404, path: request.target)
        }
    }

    /// The Fixture statistics with the extra Yoga counts.
    private func statistics() -> CombinedStatistics {
        let extra = state.withLock { $0.extraYoga }
        var statistics = Fixture.combined
        if !extra.isEmpty, let index = statistics.habitStatistics.firstIndex(where: { $0.habit.name == "Yoga" }) {
            let counts = statistics.habitStatistics[index].userCounts
            statistics.habitStatistics[index].userCounts = counts.map {
                UserCount(user: $0.user, count: $0.count + extra[$0.user.id, default: 0])
            }
        }
        return statistics
    }

    /// `value` as `R`'s response, after waiting while hung and failing when told to.
    private func answer<Value, R: APIRequest>(_ value: Value, as: R.Type) async throws -> R.Response {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let hold = state.withLock { state -> Bool in
                if state.hanging { state.held.append(continuation) }
                return state.hanging
            }
            if !hold { continuation.resume() }
        }
        if let failure = state.withLock({ $0.failure }) { throw failure }
        return try cast(value, as: R.self)
    }

    private func cast<Value, R: APIRequest>(_ value: Value, as: R.Type) throws -> R.Response {
        guard let response = value as? R.Response else { throw HabitsAPIError.decoding(type: "\(R.self)", detail: "") }
        return response
    }
}
