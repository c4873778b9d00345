import Dispatch
import Glibc
import Timing

/// Catches SIGINT and SIGTERM, the signals that ask the process to stop cleanly.
public enum ShutdownSignal {
    /// Starts catching SIGINT and SIGTERM and returns once a signal can no longer be lost; idempotent.
    /// `CommandLineTool.announce` calls it, so a parent that signals as soon as the URL is printed is heard.
    /// SIGPIPE is ignored from here on (writes use MSG_NOSIGNAL anyway).
    ///
    /// libdispatch registers a signal source asynchronously on its manager thread (a `sigaction` of its own
    /// plus a signalfd); until then the default action (terminate) applies, and setting SIG_IGN meanwhile
    /// would drop the signal. So this waits for the sources' registration handlers and never sets SIG_IGN.
    public static func arm() {
        SignalWaiter.shared.arm()
    }

    /// Suspends until SIGINT or SIGTERM arrives (or returns at once if one already has) and returns its
    /// number. After the first signal the default actions are restored, so a second Ctrl-C stops a
    /// shutdown that hangs.
    ///
    /// The handlers are `@Sendable` library code on a dedicated queue: a Dispatch handler written in
    /// `main.swift` is main-actor code and crashes when it fires off the main queue (`dispatch_assert_queue`).
    public static func wait() async -> Int32 {
        SignalWaiter.shared.arm()
        return await SignalWaiter.shared.next()
    }
}

/// Owns the signal sources. Invariant: every mutable property is only touched on `queue`.
private final class SignalWaiter: @unchecked Sendable {
    static let shared = SignalWaiter()

    private let queue = DispatchQueue(label: "shutdown.signals")
    private var armed = false
    private var received: Int32?
    /// Who waits for the first signal, resumed with its number.
    private var waiters = WaiterRegistry<Void, Int32>()
    private var sources: [any DispatchSourceSignal] = []

    func arm() {
        let registered = DispatchGroup()
        queue.sync {
            guard !armed else { return }
            armed = true
            signal(SIGPIPE, SIG_IGN)
            for number in [SIGINT, SIGTERM] {
                let source = DispatchSource.makeSignalSource(signal: number, queue: queue)
                registered.enter()
                source.setRegistrationHandler { registered.leave() }
                source.setEventHandler { [self] in fire(number) }
                source.resume()
                sources.append(source)
            }
        }
        registered.wait()
    }

    func next() async -> Int32 {
        await withCheckedContinuation { continuation in
            queue.async { [self] in
                if let received {
                    continuation.resume(returning: received)
                } else {
                    waiters.add((), continuation)
                }
            }
        }
    }

    private func fire(_ number: Int32) {
        guard received == nil else { return }
        received = number
        for source in sources { source.cancel() }
        sources = []
        signal(SIGINT, SIG_DFL)
        signal(SIGTERM, SIG_DFL)
        for waiter in waiters.removeAll(where: { _ in true }) { waiter.resume(number) }
    }
}
