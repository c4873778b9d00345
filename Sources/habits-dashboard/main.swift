import CommandLineKit
import DashboardCore
import DashboardWeb
import Foundation
import HTTPServer
import HabitsSimulator
import Logging

// First, before any thread starts (`AllocatorTuning.swift`, `CryptoLifetime.swift`).
limitAllocatorRetention()
CryptoLifetime.keepThroughExit()

// Kept tiny on purpose: main.swift is main-actor code, and a Dispatch handler defined here traps at run time
// when it fires off the main queue (`dispatch_assert_queue`), so all Dispatch work lives in libraries.
let options = CommandLineTool.options(program: "habits-dashboard", usage: DashboardOptions.usage) {
    () throws(CommandLineError) in
    try DashboardOptions.parse(
        Array(CommandLine.arguments.dropFirst()), environment: ProcessInfo.processInfo.environment)
}
let logger = Logger(label: "habits-dashboard", level: options.logLevel, format: options.logFormat)

// With --database (issue 19): the schema and the cluster's secret first. Only a newer schema stops the start; an
// unreachable database is retried in the background while the dashboard serves.
var database: DashboardDatabase?
if let url = options.database {
    do {
        let proposed = try options.importSettings.flatMap { try SettingsImport.directorySecret($0) }
        // Issue 48 point 4: a secret from outside stays out of the database, which keeps only its fingerprint.
        let outside = try options.cookieSecretFile.map { path throws in try OutsideCookieSecret.read(path) }
        database = try await DashboardDatabase.open(
            url, logger: logger.with(["component": "database"]), proposedSecret: proposed, outsideSecret: outside)
    } catch {
        logger.error("cannot use the database: \(error)", ["database": url.redacted])
        exit(1)
    }
}
if let directory = options.importSettings, let database {
    guard database.isPrepared else {
        logger.error(
            "cannot import settings: the database is unreachable", ["database": options.database?.redacted ?? ""])
        exit(1)
    }
    do {
        let report = try await SettingsImport.run(directory: directory, into: database)
        CommandLineTool.announce("import-settings: \(report)")
        exit(0)
    } catch {
        logger.error("cannot import settings", ["error": "\(error)"])
        exit(1)
    }
}

// Without --upstream the dashboard brings its own live Habits API: the simulator, in this process.
var simulator: EmbeddedSimulator?
let upstream: URL
if let external = options.upstream {
    upstream = external
    if !options.simulatorOptionsIgnored.isEmpty {
        logger.warning(
            "options ignored: they configure the embedded simulator, which --upstream replaces",
            ["cli.ignored": options.simulatorOptionsIgnored.joined(separator: " ")])
    }
} else {
    do {
        let embedded = try startEmbeddedSimulator(
            host: "127.0.0.1", port: options.apiPort ?? 0, speed: options.speed, seed: options.seed,
            dataDirectory: options.dataDirectory.map { URL(fileURLWithPath: $0) }, runSimulation: true,
            history: options.history,
            // The embedded API's access log (four statistics calls a second while a page is watched) only at debug.
            logger: Logger(
                label: "habits-api", level: options.logLevel, format: options.logFormat, accessLogLevel: .debug))
        simulator = embedded
        upstream = embedded.baseURL
        CommandLineTool.announce("Habits API simulator: \(embedded.baseURL.absoluteString)/")
    } catch let error as Server.StartError where error.addressInUse {
        logger.error(
            "cannot start the embedded Habits API: port \(options.apiPort ?? 0) is taken; choose another with "
                + "--api-port N, or leave --api-port out for a free one", ["error": "\(error)"])
        exit(1)
    } catch {
        logger.error("cannot start the embedded Habits API", ["error": "\(error)"])
        exit(1)
    }
}

let dashboard: DashboardService
do {
    // A kernel-chosen simulator port differs at every start: the snapshot file then names the embedded simulator,
    // not its URL, so a restart still finds its own file. A fixed --api-port is named by URL, like --upstream, so a
    // later `--upstream http://127.0.0.1:<that port>` shares the file.
    let kernelChosenPort = options.upstream == nil && (options.apiPort ?? 0) == 0
    dashboard = try DashboardService.start(
        options: options, upstream: upstream, upstreamIdentity: kernelChosenPort ? "embedded simulator" : nil,
        database: database, logger: logger)
} catch let error as Server.StartError where error.addressInUse {
    // Only the dashboard's own ports can clash (the embedded API's is kernel-chosen unless --api-port is given); the
    // message names the flag of the one that did.
    let flag =
        error.port == options.metricsPort && error.port != options.port ? "--metrics-port N" : "--port N (or PORT=N)"
    logger.error(
        "cannot start the dashboard: port \(error.port) is taken; choose another with \(flag), or 0 for a free one",
        ["error": "\(error)"])
    await simulator?.shutdown()
    exit(1)
} catch {
    logger.error("cannot start the dashboard", ["error": "\(error)"])
    await simulator?.shutdown()
    exit(1)
}
let shownHost = options.host.contains(":") ? "[\(options.host)]" : options.host
// The start-up log lines go out first, so the URL to open is the last line a person sees.
LogBuffer.standardError.flush()
if let metricsPort = dashboard.metricsPort {
    CommandLineTool.announce("Metrics: " + DashboardService.metricsURL(host: options.metricsHost, port: metricsPort))
}
CommandLineTool.announce("Habits Dashboard: http://\(shownHost):\(dashboard.port)/")

// Under systemd (Type=notify): READY=1 once the dashboard listens and has data to show, then the watchdog.
let notifier = ServiceNotifier.fromEnvironment(ProcessInfo.processInfo.environment)
let readiness = Task {
    guard let notifier else { return }
    await dashboard.waitForData()
    guard !Task.isCancelled else { return }
    notifier.ready()
    logger.debug("service manager notified", ["systemd.state": "READY=1"])
}

_ = await ShutdownSignal.wait()
logger.notice("shutting down")
readiness.cancel()
notifier?.stopping()
await dashboard.shutdown()
await simulator?.shutdown()
exit(0)
