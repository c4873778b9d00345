import CommandLineKit
import Foundation
import HTTPServer
import Logging
import Postgres

/// The command line (and environment) of `habits-dashboard` (SPEC §2).
public struct DashboardOptions: Sendable, Equatable {
    /// The dashboard's port (`--port`, else `PORT`).
    public var port: Int
    /// The address to bind.
    public var host: String
    /// An external Habits API to use (`--upstream`, else `HABITS_API_URL`); nil starts the embedded simulator.
    public var upstream: URL?
    /// The port of the embedded simulator; nil lets the kernel choose, so only the dashboard's own port can clash.
    public var apiPort: Int?
    /// Where per-browser settings files live.
    public var settingsDirectory: String
    /// HabitServer-format data for the embedded simulator; nil for the built-in data.
    public var dataDirectory: String?
    /// The embedded simulation's speed multiplier, 0.1…10.
    public var speed: Double
    /// A seed for a deterministic simulation; nil for a random one.
    public var seed: UInt64?
    /// Whether the embedded simulator starts with half an hour of past activity (`--no-history` turns it off).
    public var history: Bool
    /// Connections held at once (`--max-connections`); at the cap the largest holder's cheapest one makes room.
    public var maxConnections = ServerConfiguration().maxConnections
    /// Connections one client address may hold at once; nil for the server's default (a quarter of its cap, at most
    /// 256). A trusted proxy is not limited per address: its connections count by the forwarded client.
    public var maxConnectionsPerClient: Int?
    /// New browser ids (settings cookies) one client address may be given per minute (`--new-browser-rate`).
    public var newBrowserRate: Int
    /// Proxies whose `X-Forwarded-For` names the client (`--trusted-proxy`, repeatable or a comma list).
    public var trustedProxies: [AddressRange]
    /// Days settings nobody reads or writes are kept (`--settings-max-age`).
    public var settingsMaxAgeDays: Int
    /// The most settings files kept; beyond it the least recently used go first (`--max-settings-files`).
    public var maxSettingsFiles: Int
    /// Seconds between statistics refreshes while a live page is watched (`--refresh-interval`), 0.25…60. The
    /// floor keeps the upstream at 4 statistics calls per second at most, however many pages are open (issue 9).
    public var refreshInterval: Double
    /// Where the last good snapshot and the profile images seen are kept across restarts (`--cache-dir`, issue 13).
    public var cacheDirectory: String
    /// Days a snapshot on disk may be old and still be shown at start (`--cache-max-age`).
    public var cacheMaxAgeDays: Int
    /// The one address the dashboard is reached at (`--public-url`, else `PUBLIC_URL`, issue 20); nil keeps the
    /// per-request rule (the `Host` header, scheme http).
    public var publicURL: PublicURL?
    /// The PostgreSQL database the dashboards share (`--database`, else `DATABASE_URL`, issue 19); nil keeps settings
    /// in files, as before.
    public var database: DatabaseURL?
    /// The cookie secret's file (`--cookie-secret-file`, else the systemd credential `cookie-secret`, issue 48): nil
    /// keeps the secret in the settings directory or the database.
    public var cookieSecretFile: String?
    /// `--import-settings DIR`: copy a settings directory and its secret into `database`, then exit.
    public var importSettings: String?
    /// Where `Templates/` and `Public/` are (`--resources`); nil finds them next to the executable (`../share`),
    /// else in the working directory.
    public var resourcesDirectory: String?
    /// The port of the loopback listener that alone serves `/metrics` (`--metrics-port`; 0 picks a free one); nil,
    /// the default, serves the counters nowhere. Never the public port: there `/metrics` is 404 (issue 48).
    public var metricsPort: Int?
    /// The address the metrics listener binds (`--metrics-host`), loopback unless a scraper elsewhere needs it.
    public var metricsHost: String = "127.0.0.1"
    /// The lowest level logged (`--log-level`).
    public var logLevel: Logger.Level
    /// How log lines are written (`--log-format`): logfmt or one JSON object per line.
    public var logFormat: Logger.Format
    /// Live polls held at once, in all (`--max-parked-polls`) and per client address (`--max-parked-polls-per-client`).
    public var parking = ParkingLimits()

    /// Creates options; the defaults are those of `habits-dashboard` with no flags and no environment.
    public init(
        port: Int = 8000, host: String = "127.0.0.1", upstream: URL? = nil, apiPort: Int? = nil,
        settingsDirectory: String = "./var/settings", dataDirectory: String? = nil, speed: Double = 1.0,
        seed: UInt64? = nil, history: Bool = true, maxConnectionsPerClient: Int? = nil, newBrowserRate: Int = 30,
        trustedProxies: [AddressRange] = [], settingsMaxAgeDays: Int = 400, maxSettingsFiles: Int = 100_000,
        refreshInterval: Double = 0.25, cacheDirectory: String = "./var/cache", cacheMaxAgeDays: Int = 7,
        publicURL: PublicURL? = nil, resourcesDirectory: String? = nil, logLevel: Logger.Level = .info,
        logFormat: Logger.Format = .logfmt
    ) {
        self.port = port
        self.host = host
        self.upstream = upstream
        self.apiPort = apiPort
        self.settingsDirectory = settingsDirectory
        self.dataDirectory = dataDirectory
        self.speed = speed
        self.seed = seed
        self.history = history
        self.maxConnectionsPerClient = maxConnectionsPerClient
        self.newBrowserRate = newBrowserRate
        self.trustedProxies = trustedProxies
        self.settingsMaxAgeDays = settingsMaxAgeDays
        self.maxSettingsFiles = maxSettingsFiles
        self.refreshInterval = refreshInterval
        self.cacheDirectory = cacheDirectory
        self.cacheMaxAgeDays = cacheMaxAgeDays
        self.publicURL = publicURL
        self.resourcesDirectory = resourcesDirectory
        self.logLevel = logLevel
        self.logFormat = logFormat
    }

    /// The embedded simulator's flags that differ from their defaults although an upstream is set, so they have no
    /// effect; `habits-dashboard` names them at startup rather than ignoring them silently.
    public var simulatorOptionsIgnored: [String] {
        guard upstream != nil else { return [] }
        let defaults = DashboardOptions()
        var ignored: [String] = []
        if apiPort != defaults.apiPort { ignored.append("--api-port") }
        if history != defaults.history { ignored.append("--no-history") }
        if dataDirectory != nil { ignored.append("--data-dir") }
        if speed != defaults.speed { ignored.append("--speed") }
        if seed != nil { ignored.append("--seed") }
        return ignored
    }

    /// The `--help` text.
    public static let usage = """
        Usage: habits-dashboard [options]

        Serves the Habits Dashboard. Without --upstream it starts the embedded Habits API simulator.

        Options:
          --port N                        dashboard port (env PORT; 0 picks a free one)   default 8000
          --host H                        address to bind                                 default 127.0.0.1
          --upstream URL                  use this Habits API (env HABITS_API_URL)        default embedded simulator
          --api-port N                    port of the embedded API                        default kernel-chosen
          --settings-dir DIR              where per-browser settings files live           default ./var/settings
          --data-dir DIR                  HabitServer-format data for the embedded API    default built-in data
          --speed X                       simulation speed multiplier, 0.1 to 10          default 1.0
          --seed N                        deterministic simulation with this seed         default random
          --no-history                    start the embedded API with no past activity    default half an hour
          --refresh-interval S            statistics refresh while a live page is         default 0.25
                                          watched, in seconds (0.25 to 60)
          --max-connections-per-client N  connections one address may hold (a trusted     default 256
                                          proxy counts by its forwarded clients)
          --new-browser-rate N            new browsers per client address per minute      default 30
          --trusted-proxy ADDR            take the client from X-Forwarded-For of this    default none
                                          proxy (address or CIDR; repeat or comma list)
          --settings-max-age DAYS         days unused settings are kept                   default 400
          --max-settings-files N          settings files kept (least recently used go)    default 100000
          --cache-dir DIR                 last good data and images, across restarts      default ./var/cache
          --cache-max-age DAYS            days a cached snapshot may be shown at start    default 7
          --public-url URL                the one address people open, e.g.               default none
                                          https://example.org/habits/ (env PUBLIC_URL)
          --database URL                  PostgreSQL for settings, shared by dashboards   default none (files)
                                          postgres://user[:pw]@host[:port]/db (env DATABASE_URL)
          --cookie-secret-file PATH       the cookie secret (64 hex digits), the same on  default the systemd
                                          every dashboard; the database keeps only its    credential cookie-secret,
                                          fingerprint                                     else generated and stored
          --import-settings DIR           copy DIR's settings and secret into --database, then exit
          --resources DIR                 where Templates/ and Public/ are                default ../share by the
                                          binary, else the working directory
          --log-level L                   debug, info, notice, warning or error           default info
                                          (debug adds the embedded API's access log)
          --log-format F                  logfmt, or json (one object per line)           default logfmt
          --metrics-port N                serve /metrics on this port only (0 picks a     default off
                                          free one); the public port answers it 404
          --metrics-host H                address the metrics port binds                  default 127.0.0.1
          --max-connections N             connections held at once (each takes a file     default 64000
                                          descriptor: raise `ulimit -n` to match)
          --max-parked-polls N            live polls held at once, 0 to 1000000           default 64000
          --max-parked-polls-per-client N                                                 default a 16th of
                                          live polls one client address may hold          --max-parked-polls
          --help                          show this help

        """

    /// Parses `arguments` (without the program name); flags win over `PORT` and `HABITS_API_URL`.
    public static func parse(_ arguments: [String], environment: [String: String] = [:]) throws(CommandLineError)
        -> CommandLineOutcome<DashboardOptions>
    {
        var options = DashboardOptions()
        if let port = environment["PORT"], !port.isEmpty {
            options.port = try OptionValue.port(port, option: "PORT")
        }
        if let upstream = environment["HABITS_API_URL"], !upstream.isEmpty {
            options.upstream = try OptionValue.httpURL(upstream, option: "HABITS_API_URL")
        }
        if let publicURL = environment["PUBLIC_URL"], !publicURL.isEmpty {
            options.publicURL = try Self.publicURL(publicURL, option: "PUBLIC_URL")
        }
        if let database = environment["DATABASE_URL"], !database.isEmpty {
            options.database = try Self.databaseURL(database, option: "DATABASE_URL")
        }
        var scanner = ArgumentScanner(
            arguments,
            options: [
                "--port": .value, "--host": .value, "--upstream": .value, "--api-port": .value,
                "--settings-dir": .value, "--data-dir": .value, "--speed": .value, "--seed": .value,
                "--no-history": .flag, "--max-connections-per-client": .value, "--help": .flag,
                "--new-browser-rate": .value, "--trusted-proxy": .value, "--settings-max-age": .value,
                "--max-settings-files": .value, "--refresh-interval": .value, "--cache-dir": .value,
                "--cache-max-age": .value, "--public-url": .value, "--resources": .value, "--log-level": .value,
                "--log-format": .value, "--database": .value, "--import-settings": .value,
                "--max-parked-polls": .value, "--cookie-secret-file": .value, "--metrics-port": .value,
                "--metrics-host": .value, "--max-connections": .value, "--max-parked-polls-per-client": .value,
            ])
        while let (name, value) = try scanner.next() {
            let value = value ?? ""
            switch name {
            case "--port": options.port = try OptionValue.port(value, option: name)
            case "--host": options.host = try OptionValue.nonEmpty(value, option: name)
            case "--upstream": options.upstream = try OptionValue.httpURL(value, option: name)
            case "--api-port": options.apiPort = try OptionValue.port(value, option: name)
            case "--settings-dir": options.settingsDirectory = try OptionValue.nonEmpty(value, option: name)
            case "--data-dir": options.dataDirectory = try OptionValue.nonEmpty(value, option: name)
            case "--speed": options.speed = try OptionValue.number(value, option: name, in: 0.1...10)
            case "--seed": options.seed = try OptionValue.seed(value, option: name)
            case "--no-history": options.history = false
            case "--max-connections":
                options.maxConnections = try OptionValue.integer(value, option: name, in: 1...1_000_000)
            case "--max-connections-per-client":
                options.maxConnectionsPerClient = try OptionValue.integer(value, option: name, in: 1...1_000_000)
            case "--new-browser-rate":
                options.newBrowserRate = try OptionValue.integer(value, option: name, in: 1...1_000_000)
            case "--trusted-proxy":
                guard let ranges = AddressRange.list(value) else {
                    throw CommandLineError("\(name): expected IP addresses or CIDR blocks, got '\(value)'")
                }
                options.trustedProxies += ranges
            case "--settings-max-age":
                options.settingsMaxAgeDays = try OptionValue.integer(value, option: name, in: 1...36_500)
            case "--max-settings-files":
                options.maxSettingsFiles = try OptionValue.integer(value, option: name, in: 1...100_000_000)
            case "--refresh-interval":
                options.refreshInterval = try OptionValue.number(value, option: name, in: 0.25...60)
            case "--cache-dir": options.cacheDirectory = try OptionValue.nonEmpty(value, option: name)
            case "--max-parked-polls":
                options.parking.capacity = try OptionValue.integer(value, option: name, in: 0...1_000_000)
            case "--max-parked-polls-per-client":
                options.parking.perClient = try OptionValue.integer(value, option: name, in: 1...1_000_000)
            case "--metrics-port": options.metricsPort = try OptionValue.port(value, option: name)
            case "--metrics-host": options.metricsHost = try OptionValue.nonEmpty(value, option: name)
            case "--cache-max-age":
                options.cacheMaxAgeDays = try OptionValue.integer(value, option: name, in: 1...36_500)
            case "--public-url": options.publicURL = try Self.publicURL(value, option: name)
            case "--database": options.database = try Self.databaseURL(value, option: name)
            case "--cookie-secret-file": options.cookieSecretFile = try OptionValue.nonEmpty(value, option: name)
            case "--import-settings": options.importSettings = try OptionValue.nonEmpty(value, option: name)
            case "--resources": options.resourcesDirectory = try OptionValue.nonEmpty(value, option: name)
            case "--log-level":
                options.logLevel = try OptionValue.choice(
                    value, option: name, among: Logger.Level.allCases.map { ($0.description, $0) })
            case "--log-format":
                options.logFormat = try OptionValue.choice(
                    value, option: name, among: Logger.Format.allCases.map { ($0.rawValue, $0) })
            default: return .help
            }
        }
        options.cookieSecretFile = OutsideCookieSecret.path(
            option: options.cookieSecretFile, environment: environment,
            exists: { FileManager.default.fileExists(atPath: $0) })
        if options.importSettings != nil, options.database == nil {
            throw CommandLineError("--import-settings: needs --database URL (or DATABASE_URL) to import into")
        }
        return .run(options)
    }

    private static func databaseURL(_ text: String, option: String) throws(CommandLineError) -> DatabaseURL {
        do {
            return try DatabaseURL(text)
        } catch {
            throw CommandLineError("\(option): the URL \(error.description)")
        }
    }

    private static func publicURL(_ text: String, option: String) throws(CommandLineError) -> PublicURL {
        guard let url = PublicURL(text) else {
            throw CommandLineError(
                "\(option): expected an http:// or https:// URL with a host and an optional plain path, got '\(text)'")
        }
        return url
    }
}
