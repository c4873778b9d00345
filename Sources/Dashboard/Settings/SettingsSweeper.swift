import Dispatch
import Foundation
import Logging
import Timing

/// Sweeps a settings store every `interval` (expiry, the cap, leftover temp files). The wait is on the injected
/// clock, so tests move it by hand; the sweep itself (a directory scan) runs on a utility queue of its own, so no
/// request, and no thread of the cooperative pool, ever waits for it. The store sweeps once itself when it opens.
public final class SettingsSweeper: Sendable {
    private let task: Task<Void, Never>

    /// Starts sweeping `store` every `interval` of `clock` (the first sweep one interval from now).
    public init<Value>(
        store: SettingsStore<Value>, interval: Duration = .seconds(3600), clock: any TimeSource = SystemTimeSource(),
        logger: Logger
    ) {
        let queue = DispatchQueue(label: "settings-sweeper", qos: .utility)
        // `every`, the one repeating timer: a slow sweep does not shift the next, and sweeps missed while the process
        // was suspended are one sweep, not a burst.
        task = clock.every(interval) {
            await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
                queue.async {
                    do {
                        try store.sweep()
                    } catch {
                        logger.error("settings sweep failed", ["error": String(describing: error)])
                    }
                    done.resume()
                }
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
