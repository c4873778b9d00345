import Timing

/// Keeps the trend history sampled when nobody watches (issue 10 point 4: a point every 10 s for the last hour).
///
/// The store refreshes on its own only while a live page is watched, so without this a dashboard left alone records
/// nothing, and its first visitor after a quiet spell sees no line. Asking the store for a view once per history slot
/// starts a refresh when the data is older than the refresh interval, and every successful refresh is a sample: one
/// statistics call per 10 s at most, none extra while someone watches (their refreshes come first).
struct TrendSampler: Sendable {
    let store: SnapshotStore
    let clock: any TimeSource
    let spacing: Duration

    /// A sampler for `store`, once per `store.history`'s slot.
    init(store: SnapshotStore, clock: any TimeSource = SystemTimeSource()) {
        self.store = store
        self.clock = clock
        spacing = store.history.spacing
    }

    /// Samples once per slot until the task is cancelled, starting one slot from now (the first page asks anyway),
    /// on the one repeating timer (`TimeSource.every`).
    public func run() async {
        let timer = clock.every(spacing) { [store] in
            do {
                _ = try await store.view()
            } catch {
                // No data at all and the upstream failing: the store logs and backs off; the line has a gap.
            }
        }
        await withTaskCancellationHandler {
            await timer.value
        } onCancel: {
            timer.cancel()
        }
    }
}
