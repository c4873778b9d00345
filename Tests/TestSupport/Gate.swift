import Synchronization

/// Holds async callers until the test opens it: keeps a request in its handler, or an upstream call in flight while
/// others arrive, for as long as a test needs.
public final class Gate: Sendable {
    /// Creates a closed gate.
    public init() {}

    private let state = Mutex<(open: Bool, waiters: [CheckedContinuation<Void, Never>])>((false, []))

    /// Waits until `open()` (returns at once if already open).
    public func wait() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let resumeNow = state.withLock { state -> Bool in
                if state.open { return true }
                state.waiters.append(continuation)
                return false
            }
            if resumeNow { continuation.resume() }
        }
    }

    /// Lets every waiter (and all later ones) through.
    public func open() {
        let waiters = state.withLock { state in
            state.open = true
            defer { state.waiters = [] }
            return state.waiters
        }
        for waiter in waiters { waiter.resume() }
    }

    /// Closes the gate again for later callers.
    public func close() { state.withLock { $0.open = false } }
}
