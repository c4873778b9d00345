import Foundation
import HTTPServer
import HabitsAPI
import TemplateKit

/// The running dashboard: templates, settings store, shared cache, HTTP server, built once from the options.
///
/// `Templates/` and `Public/` are found under `resourceRoot` (the working directory by default, as `swift run`
/// from the repository gives) and their absolute paths are logged, so a wrong directory is obvious at startup.
public final class DashboardService: Sendable {
    /// The HTTP server.
    public let server: Server
    /// The shared cache in front of the Habits API.
    public let cache: CachedHabitsAPI

    private init(server: Server, cache: CachedHabitsAPI) {
        self.server = server
        self.cache = cache
    }

    /// The bound port (after binding port 0, the real one).
    public var port: Int { server.port }

    /// Builds everything and starts listening. Throws a clear error for a broken template, an unreadable
    /// directory, a bad upstream URL or a port that is taken.
    public static func start(
        options: DashboardOptions, upstream: URL, resourceRoot: URL? = nil, logger: Logger
    ) throws -> DashboardService {
        let root = resourceRoot ?? defaultResourceRoot()
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

        let store = try SettingsStore(
            directory: URL(fileURLWithPath: options.settingsDirectory), defaultValue: Settings(),
            logger: logger.with(["component": "settings"]))
        let client = HabitsClient(configuration: try UpstreamConfiguration(url: upstream.absoluteString))
        let cache = CachedHabitsAPI(upstream: client)
        let staticFiles = try StaticFiles(root: publicDirectory, logger: logger)
        let app = DashboardApp(
            data: CachedData(cache: cache),
            renderer: PageRenderer(templates: templates, assets: AssetURLs(files: staticFiles)),
            settings: BrowserSettings(store: store), originCheck: OriginCheck.forServer(host: options.host),
            staticFiles: staticFiles,
            metrics: { MetricsText.render(cache: cache.metrics, settingsFiles: await store.fileCount()) })

        let server = Server(
            configuration: ServerConfiguration(host: options.host, port: options.port), responder: app.responder,
            logger: logger)
        try server.start()
        logger.notice(
            "habits dashboard listening",
            ["url": "http://\(options.host):\(server.port)/", "upstream": upstream.absoluteString])
        return DashboardService(server: server, cache: cache)
    }

    /// Stops accepting, finishes in-flight requests, closes idle connections.
    public func shutdown() async {
        await server.shutdown()
    }

    /// The working directory when it holds `Templates/` (what `swift run` from the repository gives); else the
    /// checkout this binary was built from, so starting the built executable from elsewhere still finds its files.
    static func defaultResourceRoot(filePath: String = #filePath) -> URL {
        let workingDirectory = URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
        if FileManager.default.fileExists(atPath: workingDirectory.appendingPathComponent("Templates").path) {
            return workingDirectory
        }
        // #filePath is <root>/Sources/Dashboard/App/DashboardService.swift.
        let checkout = URL(fileURLWithPath: filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
        let hasTemplates = FileManager.default.fileExists(atPath: checkout.appendingPathComponent("Templates").path)
        return hasTemplates ? checkout : workingDirectory
    }
}
