/// How a parked long poll ended (`SnapshotStore.park`, offered to the web as `DashboardState.park`).
public enum ParkOutcome: Equatable, Sendable {
    /// The view changed.
    case changed
    /// The wait ran out with no change.
    case timedOut
    /// Not parked: the store is shutting down.
    case refused
}
