import Dispatch
import Glibc

/// Waits for SIGINT or SIGTERM, the signals that ask the process to stop cleanly.
public enum ShutdownSignal {
    /// Suspends until SIGINT or SIGTERM arrives and returns its number. SIGPIPE is ignored from here on
    /// (writes use MSG_NOSIGNAL anyway). After the first signal the default actions are restored, so a
    /// second Ctrl-C stops a shutdown that hangs.
    ///
    /// The handlers are `@Sendable` library code on a dedicated queue: a Dispatch handler written in
    /// `main.swift` is main-actor code and crashes when it fires off the main queue (TOOLS.md).
    public static func wait() async -> Int32 {
        signal(SIGPIPE, SIG_IGN)
        return await withCheckedContinuation { continuation in
            let waiter = SignalWaiter(continuation)
            waiter.install([SIGINT, SIGTERM])
        }
    }
}

/// Owns the signal sources until the first signal. Invariant: `continuation` and `sources` are only
/// touched on `queue` (installation happens before any handler can run, via `queue.sync`).
private final class SignalWaiter: @unchecked Sendable {
    private let queue = DispatchQueue(label: "shutdown.signals")
    private var continuation: CheckedContinuation<Int32, Never>?
    private var sources: [any DispatchSourceSignal] = []

    init(_ continuation: CheckedContinuation<Int32, Never>) {
        self.continuation = continuation
    }

    func install(_ signals: [Int32]) {
        queue.sync {
            for number in signals {
                // Dispatch sees the signal only if the default action (terminate) is turned off.
                signal(number, SIG_IGN)
                let source = DispatchSource.makeSignalSource(signal: number, queue: queue)
                source.setEventHandler { [self] in fire(number) }
                source.resume()
                sources.append(source)
            }
        }
    }

    private func fire(_ number: Int32) {
        guard let continuation else { return }
        self.continuation = nil
        for source in sources { source.cancel() }
        sources = []
        signal(SIGINT, SIG_DFL)
        signal(SIGTERM, SIG_DFL)
        continuation.resume(returning: number)
    }
}
