import Foundation
import HTTPServer
import HabitsAPI
import Logging
import Postgres
import TemplateKit
import Timing

/// The running dashboard: templates, settings store, upstream coalescer, snapshot store, HTTP server, built once from the options.
///
/// `Templates/` and `Public/` are found under `resourceRoot` (by default `ResourceRoot`'s choice: `--resources`, the
/// release's `share/` beside the binary, or the working directory) and their absolute paths are logged, so a wrong
/// directory is obvious at startup.
public final class DashboardService: Sendable {
    /// The HTTP server.
    public let server: Server
    /// With `--metrics-port`: the listener that alone serves `/metrics`.
    public let metricsServer: Server?
    /// Joins identical Habits API calls in flight and counts them.
    public let upstream: RequestCoalescer
    /// The snapshot every page is built from.
    public let snapshots: SnapshotStore
    /// Expires and evicts settings files every hour, off the request path.
    let settingsSweeper: SettingsSweeper
    /// Samples the trend history every 10 s, watched or not.
    let trendSampler: Task<Void, Never>
    /// With `--database`: the refresher lock and the cluster's notifications (issue 19).
    let refresher: Refresher?

    private init(
        server: Server, metricsServer: Server?, upstream: RequestCoalescer, snapshots: SnapshotStore,
        settingsSweeper: SettingsSweeper, refresher: Refresher?
    ) {
        self.server = server
        self.metricsServer = metricsServer
        self.upstream = upstream
        self.snapshots = snapshots
        self.settingsSweeper = settingsSweeper
        self.refresher = refresher
        trendSampler = Task { await TrendSampler(store: snapshots).run() }
    }

    /// The bound port (after binding port 0, the real one).
    public var port: Int { server.port }

    /// The metrics listener's bound port; nil without `--metrics-port`.
    public var metricsPort: Int? { metricsServer?.port }

    /// Builds everything and starts listening. Throws a clear error for a broken template, an unreadable
    /// directory, a bad upstream URL or a port that is taken. `upstreamIdentity` names the upstream in the snapshot
    /// file (a file written for another is not shown); nil uses the upstream's URL. `clock` times the snapshot's
    /// refreshes and waits, the images' remembered failures and the dates pages show (a test's manual clock).
    public static func start(
        options: DashboardOptions, upstream: URL, upstreamIdentity: String? = nil, resourceRoot: URL? = nil,
        database: DashboardDatabase? = nil, clock: any TimeSource = SystemTimeSource(), logger: Logger
    ) throws -> DashboardService {
        let root = resourceRoot ?? ResourceRoot.current(explicit: options.resourcesDirectory)
        let templatesDirectory = root.appendingPathComponent("Templates").standardizedFileURL
        let publicDirectory = root.appendingPathComponent("Public").standardizedFileURL
        logger.info(
            "dashboard resources",
            ["templates.dir": templatesDirectory.path, "public.dir": publicDirectory.path])

        #if DEBUG
            // Debug builds (tests, `swift run`) fail loudly on a template naming a value the page does not give.
            let strict = true
        #else
            let strict = false
        #endif
        let templates = try TemplateLibrary(
            directory: templatesDirectory, strict: strict,
            onMissing: { error in logger.error("template value missing", ["template.error": error.description]) })

        let settingsLogger = logger.with(["component": "settings"])
        let site = SitePolicy.forServer(
            host: options.host, publicURL: options.publicURL, trustedProxies: options.trustedProxies)
        let (store, signers, sweeper) = try Self.settingsBackend(
            options: options, database: database, logger: settingsLogger)
        var health: (@Sendable () -> String)?
        if let database { health = { database.healthLine } }
        let browserSettings = BrowserSettings(
            store: store, signers: signers, newBrowsers: NewBrowserLimiter(perMinute: options.newBrowserRate),
            trustedProxies: options.trustedProxies, site: site)
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
        store.onChangeElsewhere { snapshots.settingsChanged() }
        var refresher: Refresher?
        if let cluster, let database {
            refresher = cluster.start(
                database: database, snapshots: snapshots, upstream: persistenceConfiguration.upstream, clock: clock,
                logger: logger.with(["component": "cluster"]))
        }
        let staticFiles = try StaticFiles(root: publicDirectory, logger: logger)
        let accessLog = AccessLogSummer()
        let app = DashboardApp(
            upstream: upstreamAPI, images: images,
            renderer: PageRenderer(
                templates: templates, assets: AssetURLs(files: staticFiles), prefix: site.pathPrefix),
            settings: browserSettings, originCheck: OriginCheck(policy: site),
            staticFiles: staticFiles,
            metrics: { appCaches in
                MetricsText.render(
                    upstream: upstreamAPI.metrics, snapshots: snapshots.metrics, settingsFiles: await store.fileCount(),
                    log: (accessLog.summedLines, LogBuffer.standardError.droppedLines),
                    caches: [
                        CacheUse(
                            name: "settings", bytes: store.cacheBytes, budget: SettingsStore<Settings>.cacheBudgetBytes),
                        CacheUse(name: "images_disk", bytes: imageDisk.totalBytes, budget: imageDisk.budgetBytes),
                    ] + appCaches, cluster: snapshots.clusterRole) + (database?.metricsText ?? "")
            }, clock: clock, snapshots: snapshots, health: health, parking: options.parking)

        // Below the open-file limit, or a crowd past it would fail accepts (and more) instead of meeting the cap.
        let maxConnections = FileDescriptorLimit.connections(for: options.maxConnections)
        if maxConnections < options.maxConnections {
            logger.warning(
                "connection cap lowered to fit the open-file limit (raise it with ulimit -n or LimitNOFILE)",
                ["max_connections": "\(maxConnections)", "asked": "\(options.maxConnections)"])
        }
        let server = Server(
            configuration: ServerConfiguration(
                host: options.host, port: options.port, maxConnections: maxConnections,
                maxConnectionsPerClient: options.maxConnectionsPerClient,
                trustedProxy: options.trustedProxies.isEmpty ? nil : ClientAddress.isTrusted(by: options.trustedProxies)
            ),
            responder: app.responder,
            logger: logger, accessLog: accessLog, answerEpoch: app.answerEpoch)
        // The counters get a listener of their own, on loopback unless told otherwise (issue 48): the public port
        // never serves them, whatever proxy is or is not in front.
        let metricsServer = options.metricsPort.map { port in
            Server(
                configuration: ServerConfiguration(host: options.metricsHost, port: port),
                responder: app.metricsResponder(policy: .forServer(host: options.metricsHost)),
                logger: logger.with(["component": "metrics"]))
        }
        do {
            // The metrics port first: when the public one is taken too, only a listener nothing reached is closed.
            try metricsServer?.start()
            try server.start()
        } catch {
            sweeper.cancel()
            refresher?.stop()
            if let metricsServer { Task { await metricsServer.shutdown() } }
            throw error
        }
        var listening = ["url": "http://\(options.host):\(server.port)/", "upstream": upstream.absoluteString]
        if let publicURL = options.publicURL { listening["public.url"] = publicURL.description }
        if let metricsServer {
            listening["metrics.url"] = Self.metricsURL(host: options.metricsHost, port: metricsServer.port)
        }
        logger.notice("habits dashboard listening", listening)
        return DashboardService(
            server: server, metricsServer: metricsServer, upstream: upstreamAPI, snapshots: snapshots,
            settingsSweeper: sweeper, refresher: refresher)
    }

    /// Returns once a snapshot is there to show (from the disk at start, or the upstream's first answer), trying
    /// again every second (on the store's clock) while the upstream cannot give one; returns early when the task is
    /// cancelled. What `READY=1` waits for (issue 20).
    public func waitForData() async {
        let clock = snapshots.clock
        while !Task.isCancelled {
            do {
                _ = try await snapshots.view()
                return
            } catch {
                await clock.sleep(until: clock.now + .seconds(1))
            }
        }
    }

    /// The URL of `/metrics` on a listener bound to `host` and `port` (an IPv6 address in brackets).
    public static func metricsURL(host: String, port: Int) -> String {
        let shown = host.contains(":") && !host.hasPrefix("[") ? "[\(host)]" : host
        return "http://\(shown):\(port)/metrics"
    }

    /// An upstream URL as the snapshot file names it: without a trailing slash, so `http://h:1/` and `http://h:1`
    /// are the same upstream.
    public static func identity(of upstream: URL) -> String {
        var text = upstream.absoluteString
        while text.hasSuffix("/") { text.removeLast() }
        return text
    }

    /// Answers parked long polls at once, then stops accepting, finishes in-flight requests, closes idle
    /// connections. The store goes first: a parked poll is an in-flight request the server would otherwise wait
    /// for until its grace period ends.
    public func shutdown() async {
        settingsSweeper.cancel()
        trendSampler.cancel()
        snapshots.shutdown()
        refresher?.stop()
        snapshots.history.flush()
        await server.shutdown()
        await metricsServer?.shutdown()
    }
}
