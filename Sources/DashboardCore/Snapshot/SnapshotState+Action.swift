import Foundation

/// What `SnapshotState`'s events answer: the actions the store carries out, and the answers to views and polls.
extension SnapshotState {
    /// What a caller waits for.
    enum WaitKind: Equatable {
        /// The refresh running now (a page with no data or old data).
        case refresh
        /// A refresh that started after a change was made here (the refresh numbered `sequence` or a later one).
        case change(sequence: Int)
        /// A long poll: the generation moving past the one it saw.
        case poll
    }

    /// What the store does.
    enum Action {
        /// Run `job` in a new task, then report `refreshFinished`.
        case refresh(Job)
        /// Resume these waiters; `changed` says whether what they wait for happened (false: timed out).
        case resume([UInt64], changed: Bool)
        /// Queue the current snapshot, fetched at `fetchedAt`, to be written to disk.
        case save(Snapshot, fetchedAt: Date)
        /// Report `tick` at this instant (the ticker; at most one is scheduled at a time).
        case tick(at: ContinuousClock.Instant)
        /// Log that refreshing failed `failures` times in a row (the first and every tenth).
        case logFailure(any Error, failures: Int)
        /// Store this snapshot with this status for the whole cluster and notify the others (the leader, issue 19).
        case share(Snapshot, SharedSnapshot.Status)
    }

    /// The answer to a view request.
    enum ViewAnswer {
        /// Answer with this view.
        case ready(SnapshotView)
        /// Answer with this error.
        case fail(any Error)
        /// Wait as waiter `id` (until `deadline`, when there is one), then ask `waitEnded`.
        case wait(id: UInt64, deadline: ContinuousClock.Instant?)
        /// Asked `atOnce`: not answerable without waiting or failing; nothing was registered (ask again, waiting).
        case later
    }

    /// How a long poll's park request is answered.
    enum ParkAnswer: Equatable {
        /// Not parked: too many wait already, or shutting down.
        case refused
        /// The generation moved already.
        case changed
        /// Parked as waiter `id` until `deadline`.
        case wait(id: UInt64, deadline: ContinuousClock.Instant)
    }
}
