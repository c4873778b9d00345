import Dispatch
import Foundation
import Logging

/// Sweeps a settings store every `interval` (expiry, the cap, leftover temp files), on a utility queue of its own so
/// no request ever waits for a directory scan. The store sweeps once itself when it opens.
public final class SettingsSweeper: @unchecked Sendable {
    // Invariant: the only state is the timer, a Dispatch source, whose methods are safe from any thread.
    private let timer: any DispatchSourceTimer

    /// Starts sweeping `store` every `interval` (the first sweep one interval from now).
    public init<Value>(store: SettingsStore<Value>, interval: Duration = .seconds(3600), logger: Logger) {
        timer = DispatchSource.makeTimerSource(queue: DispatchQueue(label: "settings-sweeper", qos: .utility))
        timer.schedule(
            deadline: .now() + interval.dispatchInterval, repeating: interval.dispatchInterval, leeway: .seconds(60))
        timer.setEventHandler { @Sendable in
            do {
                try store.sweep()
            } catch {
                logger.error("settings sweep failed", ["error": String(describing: error)])
            }
        }
        timer.resume()
    }

    /// Stops sweeping.
    public func cancel() {
        timer.cancel()
    }

    deinit {
        timer.cancel()
    }
}
