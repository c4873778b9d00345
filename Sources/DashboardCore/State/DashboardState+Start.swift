import Foundation
import HTTPServer
import HabitsAPI
import Logging
import Synchronization
import Timing

extension DashboardState {
    /// What a state started from options owns besides its stores: the settings sweeper, the trend sampler, the
    /// cluster's refresher, the database, and what `/metrics` reports of them.
    final class Running: Sendable {
        /// The settings backend behind `settings` (its file count and cache use for `/metrics`).
        let backend: any SettingsBackend<Settings>
        /// Signs and checks the settings cookies (the database's slot fills once it has given the secret).
        let signers: CookieSignerSlot
        /// Expires and evicts settings, hourly, off the request path.
        let sweeper: SettingsSweeper
        /// With `--database`: the refresher lock and the cluster's notifications (issue 19).
        let refresher: Refresher?
        /// With `--database`: its pool, listener and secret.
        let database: DashboardDatabase?
        /// Joins identical Habits API calls in flight and counts them.
        let coalescer: RequestCoalescer
        /// The images kept on disk for when the upstream cannot give them.
        let imageDisk: ImageDiskCache
        /// Samples the trend history every 10 s, watched or not; set by `startSampling`.
        let sampler = Mutex<Task<Void, Never>?>(nil)

        /// The parts of a started state.
        init(
            backend: any SettingsBackend<Settings>, signers: CookieSignerSlot, sweeper: SettingsSweeper,
            refresher: Refresher?, database: DashboardDatabase?, coalescer: RequestCoalescer, imageDisk: ImageDiskCache
        ) {
            self.backend = backend
            self.signers = signers
            self.sweeper = sweeper
            self.refresher = refresher
            self.database = database
            self.coalescer = coalescer
            self.imageDisk = imageDisk
        }
    }

    /// Builds the state from `options`: the settings backend (files, or with `database` its rows), the upstream client
    /// for `upstream`, the images, the snapshot (loaded from the disk before any upstream call) and its history, and
    /// with a database the cluster's refresher. `upstreamIdentity` names the upstream in the snapshot file (nil: its
    /// URL). The sampler starts with `startSampling`; `abandon` undoes a start whose server could not listen.
    public static func start(
        options: DashboardOptions, upstream: URL, upstreamIdentity: String? = nil, database: DashboardDatabase? = nil,
        clock: any TimeSource = SystemTimeSource(), logger: Logger
    ) throws -> DashboardState {
        let (backend, signers, sweeper) = try Self.settingsBackend(
            options: options, database: database, logger: logger.with(["component": "settings"]))
        let client = HabitsClient(configuration: try UpstreamConfiguration(url: upstream.absoluteString))
        // The snapshot owns freshness; in front of the client only identical calls in flight are joined.
        let upstreamAPI = RequestCoalescer(upstream: client)
        let cacheLogger = logger.with(["component": "cache"])
        // Issue 13: images of people seen before, kept on disk for when the upstream cannot give them.
        let imageDisk = ImageDiskCache(directory: options.cacheDirectory + "/images", logger: cacheLogger)
        let images = ImageCache(upstream: upstreamAPI, disk: imageDisk, clock: clock)
        var snapshotConfiguration = SnapshotStore.Configuration()
        snapshotConfiguration.refreshInterval = .seconds(options.refreshInterval)
        var persistenceConfiguration = SnapshotPersistence.Configuration(
            directory: options.cacheDirectory, upstream: upstreamIdentity ?? Self.identity(of: upstream))
        persistenceConfiguration.maxAge = TimeInterval(options.cacheMaxAgeDays) * 86_400
        // Loaded here, before the server listens and before any upstream call (issues 13 and 22).
        // With a database the history is the cluster's (issue 19 point 5), else `history.bin`.
        let cluster = database.map { _ in ClusterService() }
        let history =
            cluster?.history
            ?? ActivityHistory(
                store: HistoryFile(
                    directory: options.cacheDirectory, upstream: persistenceConfiguration.upstream, logger: cacheLogger)
            )
        let snapshots = SnapshotStore(
            source: upstreamAPI, configuration: snapshotConfiguration, clock: clock,
            logger: logger.with(["component": "snapshot"]),
            persistence: SnapshotPersistence(configuration: persistenceConfiguration, logger: cacheLogger),
            history: history)
        // A settings change made through another dashboard wakes this one's parked polls, as one made here does, so a
        // browser's open page follows its own toggle whichever dashboard the balancer sent it to (issue 49 point 4).
        backend.onChangeElsewhere { snapshots.settingsChanged() }
        var refresher: Refresher?
        if let cluster, let database {
            refresher = cluster.start(
                database: database, snapshots: snapshots, upstream: persistenceConfiguration.upstream, clock: clock,
                logger: logger.with(["component": "cluster"]))
        }
        return DashboardState(
            upstream: upstreamAPI, settings: SettingsAccess(backend), images: images, snapshots: snapshots,
            clock: clock, parking: options.parking,
            running: Running(
                backend: backend, signers: signers, sweeper: sweeper, refresher: refresher, database: database,
                coalescer: upstreamAPI, imageDisk: imageDisk))
    }

    /// The signers of settings cookies: the database's (empty until it has given the secret), else the files'.
    public var signers: CookieSignerSlot? { running?.signers }

    /// Starts sampling the trend history every 10 s, watched or not (once the server listens).
    public func startSampling() {
        guard let running else { return }
        let snapshots = snapshots
        running.sampler.withLock { $0 = Task { await TrendSampler(store: snapshots).run() } }
    }

    /// Undoes a start whose server could not listen: the sweeper and the refresher stop.
    public func abandon() {
        running?.sweeper.cancel()
        running?.refresher?.stop()
    }

    /// Stops the background work and answers parked long polls at once (the server's shutdown waits for none of
    /// them), then writes the history out.
    public func stop() {
        running?.sweeper.cancel()
        running?.sampler.withLock { $0 }?.cancel()
        snapshots.shutdown()
        running?.refresher?.stop()
        snapshots.history.flush()
    }

    /// `/metrics`: the upstream calls, the snapshot's refreshes, the settings, `log`'s lines summed and dropped, the
    /// caches (`appCaches` are the web's), the cluster's part and the database's counters; "" for a state not
    /// started from options.
    public func metricsText(log: (summed: Int, dropped: Int), appCaches: [CacheUse]) async -> String {
        guard let running else { return "" }
        let backend = running.backend
        return MetricsText.render(
            upstream: running.coalescer.metrics, snapshots: snapshots.metrics, settingsFiles: await backend.fileCount(),
            log: log,
            caches: [
                CacheUse(name: "settings", bytes: backend.cacheBytes, budget: SettingsCodec.cacheBudgetBytes),
                CacheUse(name: "images", bytes: images.memoryUse.bytes, budget: images.memoryUse.budget),
                CacheUse(
                    name: "images_disk", bytes: running.imageDisk.totalBytes, budget: running.imageDisk.budgetBytes),
            ] + appCaches, cluster: snapshots.clusterRole) + (running.database?.metricsText ?? "")
    }

    /// An upstream URL as the snapshot file names it: without a trailing slash, so `http://h:1/` and `http://h:1`
    /// are the same upstream.
    public static func identity(of upstream: URL) -> String {
        var text = upstream.absoluteString
        while text.hasSuffix("/") { text.removeLast() }
        return text
    }
}
