/// Long polls parked without a task (issue 46 point 2): the poll leaves a callback in the store's waiter registry,
/// and whoever ends its wait (a new version, its deadline, an interruption, shutdown) calls it.
extension SnapshotStore {
    /// Parks a long poll until the view's generation moves past `generation`, `timeout` passes, or shutdown, like
    /// `park(after:timeout:)`, but holding no task: `then` is called once with the outcome, on the thread that ends
    /// the wait (at once, on the caller's, when the view has moved already or the store is shutting down). Returns
    /// what interrupts the wait: `then` is then called with `.timedOut` at once (nothing when it has ended already).
    public func park(
        after generation: UInt64, timeout: Duration, then: @escaping @Sendable (ParkOutcome) -> Void
    ) -> @Sendable () -> Void {
        let now = clock.now
        switch decide({ $0.parkRequested(after: generation, now: now, deadline: now + timeout) }) {
        case .refused:
            then(.refused)
        case .changed:
            then(.changed)
        case .wait(let id, let deadline):
            return wait(id, until: deadline) { then($0 ? .changed : .timedOut) }
        }
        return {}
    }
}
