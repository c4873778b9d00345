import DashboardCore
import Foundation
import HTTPServer
import Logging
import TemplateKit
import Timing

/// The running dashboard: the state (DashboardCore's, started from the options), templates, the HTTP server, built
/// once from the options.
///
/// `Templates/` and `Public/` are found under `resourceRoot` (by default `ResourceRoot`'s choice: `--resources`, the
/// release's `share/` beside the binary, or the working directory) and their absolute paths are logged, so a wrong
/// directory is obvious at startup.
public final class DashboardService: Sendable {
    /// The HTTP server.
    public let server: Server
    /// With `--metrics-port`: the listener that alone serves `/metrics`.
    public let metricsServer: Server?
    /// The snapshot, settings, history, cluster and images every page is built from.
    public let state: DashboardState

    private init(server: Server, metricsServer: Server?, state: DashboardState) {
        self.server = server
        self.metricsServer = metricsServer
        self.state = state
        state.startSampling()
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

        let site = SitePolicy.forServer(
            host: options.host, publicURL: options.publicURL, trustedProxies: options.trustedProxies)
        let state = try DashboardState.start(
            options: options, upstream: upstream, upstreamIdentity: upstreamIdentity, database: database,
            clock: clock, logger: logger)
        let browserSettings = BrowserSettings(
            store: state.settings, signers: state.signers ?? CookieSignerSlot(),
            newBrowsers: NewBrowserLimiter(perMinute: options.newBrowserRate), trustedProxies: options.trustedProxies,
            site: site)
        let staticFiles = try StaticFiles(root: publicDirectory, logger: logger)
        let accessLog = AccessLogSummer()
        let app = DashboardApp(
            state: state,
            renderer: PageRenderer(
                templates: templates, assets: AssetURLs(files: staticFiles), prefix: site.pathPrefix),
            settings: browserSettings, originCheck: OriginCheck(policy: site),
            staticFiles: staticFiles,
            metrics: { appCaches in
                await state.metricsText(
                    log: (accessLog.summedLines, LogBuffer.standardError.droppedLines), appCaches: appCaches)
            })

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
            state.abandon()
            if let metricsServer { Task { await metricsServer.shutdown() } }
            throw error
        }
        var listening = ["url": "http://\(options.host):\(server.port)/", "upstream": upstream.absoluteString]
        if let publicURL = options.publicURL { listening["public.url"] = publicURL.description }
        if let metricsServer {
            listening["metrics.url"] = Self.metricsURL(host: options.metricsHost, port: metricsServer.port)
        }
        logger.notice("habits dashboard listening", listening)
        return DashboardService(server: server, metricsServer: metricsServer, state: state)
    }

    /// Returns once a snapshot is there to show (`DashboardState.waitForData`): what `READY=1` waits for (issue 20).
    public func waitForData() async {
        await state.waitForData()
    }

    /// The URL of `/metrics` on a listener bound to `host` and `port` (an IPv6 address in brackets).
    public static func metricsURL(host: String, port: Int) -> String {
        let shown = host.contains(":") && !host.hasPrefix("[") ? "[\(host)]" : host
        return "http://\(shown):\(port)/metrics"
    }

    /// Answers parked long polls at once, then stops accepting, finishes in-flight requests, closes idle
    /// connections. The state goes first: a parked poll is an in-flight request the server would otherwise wait
    /// for until its grace period ends.
    public func shutdown() async {
        state.stop()
        await server.shutdown()
        await metricsServer?.shutdown()
    }
}
