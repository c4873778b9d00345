import Foundation
import HTTPServer
import HabitsAPI
import Timing

/// The dashboard's state behind the few calls the web makes (issue 45, in the manner of a Phoenix context): read the
/// view a browser is shown, read and change a browser's settings (`settings`), park until a newer version, log a
/// habit upstream, a profile image, the metrics, and start and stop from the options (`DashboardState+Start.swift`).
///
/// The stores behind it (`SnapshotStore`, the settings backends, `ImageCache`, the upstream client) are internal to
/// this module: the web cannot reach a store's internals because it cannot name the store.
public final class DashboardState: Sendable {
    /// The Habits API (behind a `RequestCoalescer` when started from options).
    let upstream: any HabitsAPI
    /// The current snapshot of the upstream data, refreshed off the request path.
    let snapshots: SnapshotStore
    /// Profile images: the upstream's, with the copies on disk when it cannot give them.
    let images: ImageCache
    /// Per-browser favourites and follows, over the files or the database.
    public let settings: SettingsAccess
    /// The clock; its wall-clock `date` stamps logged habits (sent upstream and shown to people, so never monotonic).
    public let clock: any TimeSource
    /// How many live polls may be parked at once, in all and per client (`--max-parked-polls`,
    /// `--max-parked-polls-per-client`); the web's `ParkingQuota` enforces them.
    public let parking: ParkingLimits
    /// What a state started from options owns besides (`DashboardState+Start.swift`); nil in tests.
    let running: Running?

    /// The state over `upstream` and `settings`; the images and the snapshot store default to ones on `clock` (one
    /// clock injected everywhere, a test's manual clock included).
    init(
        upstream: any HabitsAPI, settings: SettingsAccess, images: ImageCache? = nil, snapshots: SnapshotStore? = nil,
        clock: any TimeSource = SystemTimeSource(), parking: ParkingLimits = ParkingLimits(), running: Running? = nil
    ) {
        self.parking = parking
        self.upstream = upstream
        self.settings = settings
        self.images = images ?? ImageCache(upstream: upstream, disk: nil, clock: clock)
        self.snapshots = snapshots ?? SnapshotStore(source: upstream, clock: clock)
        self.clock = clock
        self.running = running
    }

    // MARK: - Reading

    /// The view to answer from; `live` marks a live page or fragment (which keeps the snapshot refreshing). Throws
    /// only when there is no data at all and the upstream fails.
    public func view(live: Bool = false, activity: RequestActivity? = nil) async throws -> SnapshotView {
        try await snapshots.view(live: live, activity: activity)
    }

    /// The view `view(live:)` would give at once, or nil when that would wait or fail: a warm page's read.
    public func viewAtOnce(live: Bool = false) -> SnapshotView? { snapshots.viewAtOnce(live: live) }

    /// The current view without starting anything, or nil with no data yet.
    public var currentView: SnapshotView? { snapshots.currentView }

    /// Past totals and the day's moments, for "Happening now", the sparklines and the news.
    public var history: ActivityHistory { snapshots.history }

    /// The wall-clock time pages are dated by (the snapshot store's clock).
    public var date: Date { snapshots.date }

    /// The snapshot store's monotonic time (long polls measure their wait with it).
    public var now: ContinuousClock.Instant { snapshots.now }

    /// A count that moves with every change a page's answer depends on: the snapshot's generation (new data, the
    /// stale notice, a setting changed here) plus the settings copies dropped or replaced (a change made elsewhere).
    public var changes: UInt64 { snapshots.generation &+ settings.copyChanges }

    /// `/healthz`'s lines after "ok": the database's state and the cluster's part, "" without a database.
    public var healthLines: String {
        (running?.database.map { $0.healthLine + "\n" } ?? "") + (snapshots.clusterHealth ?? "")
    }

    // MARK: - Changing and waiting

    /// A browser's settings changed: wakes the parked polls so each can check whether its own page changed.
    public func settingsChanged() { snapshots.settingsChanged() }

    /// Parks a long poll until the view's generation moves past `generation`, `timeout` passes, or shutdown.
    public func park(after generation: UInt64, timeout: Duration) async -> ParkOutcome {
        await snapshots.park(after: generation, timeout: timeout)
    }

    /// `park(after:timeout:)` holding no task: `then` gets the outcome; the closure returned interrupts the wait
    /// (`SnapshotStore+Parking.swift`).
    public func park(
        after generation: UInt64, timeout: Duration, then: @escaping @Sendable (ParkOutcome) -> Void
    ) -> @Sendable () -> Void {
        snapshots.park(after: generation, timeout: timeout, then: then)
    }

    /// Returns at `deadline` on the state's clock, or when the task is cancelled.
    public func pause(until deadline: ContinuousClock.Instant) async { await snapshots.pause(until: deadline) }

    /// Logs `habit` upstream for the active user, now, then waits (briefly, at most 3 s) for a snapshot fetched after
    /// it, so the next page shows the new count. The upstream's failure is a `LogRefused`; nothing is retried.
    public func log(_ habit: String) async throws {
        do {
            try await upstream.log(LoggedHabit(userID: User.activeUserID, habitName: habit, timestamp: clock.date))
        } catch let error as HabitsAPIError {
            throw LogRefused(error)
        }
        await snapshots.refreshAfterChange()
    }

    /// The content types a profile image may have (the upstream client's own rule, kept where images are served).
    public static var imageTypes: Set<String> { ImageRequest.rasterTypes }

    /// Whether `error` is the upstream's (unreachable, timed out, an error status): the web words those as the Habits
    /// service not answering.
    public static func isUpstreamError(_ error: any Error) -> Bool { error is HabitsAPIError }

    /// The profile image of `id` for reference-data `version`: the upstream's, else the copy on disk.
    public func image(id: String, version: UInt64) async throws -> (bytes: [UInt8], contentType: String) {
        try await images.image(id: id, version: version)
    }

    /// Returns once a snapshot is there to show (from the disk at start, or the upstream's first answer), trying
    /// again every second (on the state's clock) while the upstream cannot give one; returns early when the task is
    /// cancelled. What `READY=1` waits for (issue 20).
    public func waitForData() async {
        while !Task.isCancelled {
            do {
                _ = try await snapshots.view()
                return
            } catch {
                await clock.sleep(until: clock.now + .seconds(1))
            }
        }
    }
}
