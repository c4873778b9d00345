import Dispatch
import Foundation
import Logging
import Timing

/// Sweeps a settings store every `interval` (expiry, the cap, leftover temp files). The wait is on the injected
/// clock, so tests move it by hand; the sweep itself (a directory scan) runs on a utility queue of its own, so no
/// request, and no thread of the cooperative pool, ever waits for it. The store sweeps once itself when it opens.
final class SettingsSweeper: Sendable {
    private let task: Task<Void, Never>

    /// Starts sweeping `store` every `interval` of `clock` (the first sweep one interval from now).
    public convenience init<Value>(
        store: SettingsStore<Value>, interval: Duration = .seconds(3600), clock: any TimeSource = SystemTimeSource(),
        logger: Logger
    ) {
        let queue = DispatchQueue(label: "settings-sweeper", qos: .utility)
        self.init(interval: interval, clock: clock, logger: logger) {
            try await withCheckedThrowingContinuation { (done: CheckedContinuation<Void, any Error>) in
                queue.async { done.resume(with: Result { _ = try store.sweep() }) }
            }
        }
    }

    /// Runs `sweep` every `interval` of `clock` (the database's store sweeps with SQL, no queue of its own).
    public init(
        interval: Duration = .seconds(3600), clock: any TimeSource = SystemTimeSource(), logger: Logger,
        sweep: @escaping @Sendable () async throws -> Void
    ) {
        // `every`, the one repeating timer: a slow sweep does not shift the next, and sweeps missed while the process
        // was suspended are one sweep, not a burst.
        task = clock.every(interval) {
            do {
                try await sweep()
            } catch {
                logger.error("settings sweep failed", ["error": String(describing: error)])
            }
        }
    }

    /// Stops sweeping (a sweep under way finishes).
    public func cancel() {
        task.cancel()
    }

    deinit {
        task.cancel()
    }
}
