import Synchronization

/// A wait that holds no task, awaited from a task: the one bridge between the two (a parked long poll's answer
/// awaited by a test, the snapshot store's waits).
///
/// `start` begins the wait with the function that ends it (called once, on whatever thread ends the wait, or at once
/// on the caller's) and returns what interrupts it. The task's cancellation interrupts it, and the wait then ends as
/// its interruption says (a long poll's timeout); a task cancelled before the wait began interrupts it as soon as it
/// has.
public enum InterruptibleWait {
    /// The value the wait `start` begins ends with.
    public static func value<Value: Sendable>(
        _ start: (@escaping @Sendable (Value) -> Void) -> @Sendable () -> Void
    ) async -> Value {
        let interruption = Interruption()
        return await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                interruption.set(start { continuation.resume(returning: $0) })
                if Task.isCancelled { interruption.interrupt() }
            }
        } onCancel: {
            interruption.interrupt()
        }
    }

    /// The interruption of a wait begun on a task, reachable from its cancellation handler.
    private final class Interruption: Sendable {
        private let stop = Mutex<(@Sendable () -> Void)?>(nil)

        func set(_ interrupt: @escaping @Sendable () -> Void) { stop.withLock { $0 = interrupt } }

        func interrupt() { stop.withLock { $0 }?() }
    }
}
