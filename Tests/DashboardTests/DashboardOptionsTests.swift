import CommandLineKit
import Foundation
import Postgres
import Testing

@testable import DashboardCore
@testable import DashboardWeb

@Suite struct DashboardOptionsTests {
    @Test func noFlagsGiveTheSpecDefaults() throws {
        let options = DashboardOptions()
        #expect(try DashboardOptions.parse([]) == .run(options))
        #expect(options.port == 8000 && options.host == "127.0.0.1" && options.apiPort == nil)
        #expect(options.history)
        #expect(options.upstream == nil && options.settingsDirectory == "./var/settings" && options.speed == 1)
        #expect(options.newBrowserRate == 30 && options.trustedProxies.isEmpty)
        #expect(options.settingsMaxAgeDays == 400 && options.maxSettingsFiles == 100_000)
        #expect(options.refreshInterval == 0.25)
        #expect(options.cacheDirectory == "./var/cache" && options.cacheMaxAgeDays == 7)
    }

    @Test func everyFlagIsRead() throws {
        let outcome = try DashboardOptions.parse([
            "--port", "9000", "--host", "0.0.0.0", "--upstream", "http://127.0.0.1:9999", "--api-port", "0",
            "--settings-dir", "/tmp/s", "--data-dir", "/tmp/d", "--speed", "0.5", "--seed", "3", "--no-history",
            "--max-connections-per-client", "64",
            "--new-browser-rate", "5", "--trusted-proxy", "127.0.0.1", "--trusted-proxy=10.0.0.0/8, ::1",
            "--settings-max-age", "30", "--max-settings-files", "500", "--refresh-interval", "0.5",
            "--cache-dir", "/tmp/c", "--cache-max-age", "2", "--public-url", "https://habits.example/dash",
            "--resources", "/tmp/r", "--log-level", "warning", "--log-format", "json",
            "--database", "postgres://u@db.local/habits", "--import-settings", "/tmp/old",
            "--max-parked-polls", "7", "--metrics-port", "9100", "--metrics-host", "0.0.0.0",
            "--cookie-secret-file", "/tmp/k",
        ])
        var expected = DashboardOptions(
            port: 9000, host: "0.0.0.0", upstream: URL(string: "http://127.0.0.1:9999"), apiPort: 0,
            settingsDirectory: "/tmp/s", dataDirectory: "/tmp/d", speed: 0.5, seed: 3, history: false,
            maxConnectionsPerClient: 64, newBrowserRate: 5,
            trustedProxies: ["127.0.0.1", "10.0.0.0/8", "::1"].compactMap(AddressRange.init), settingsMaxAgeDays: 30,
            maxSettingsFiles: 500, refreshInterval: 0.5, cacheDirectory: "/tmp/c", cacheMaxAgeDays: 2,
            publicURL: PublicURL("https://habits.example/dash"), resourcesDirectory: "/tmp/r", logLevel: .warning,
            logFormat: .json)
        expected.database = try DatabaseURL("postgres://u@db.local/habits")
        expected.importSettings = "/tmp/old"
        expected.parking.capacity = 7
        expected.metricsPort = 9100
        expected.metricsHost = "0.0.0.0"
        expected.cookieSecretFile = "/tmp/k"
        // Each flag moved its field off the default, so a flag parsed into the wrong field (or not at all) shows.
        #expect(expected.publicURL != nil && expected.metricsHost != DashboardOptions().metricsHost)
        #expect(outcome == .run(expected))
    }

    @Test func databaseURLComesFromTheEnvironmentButTheFlagWins() throws {
        let environment = ["DATABASE_URL": "postgres://env@db.local/habits"]
        guard case .run(let fromEnvironment) = try DashboardOptions.parse([], environment: environment) else {
            Issue.record("expected options")
            return
        }
        #expect(fromEnvironment.database == (try DatabaseURL("postgres://env@db.local/habits")))
        let flag = ["--database", "postgres://flag@db.local/habits"]
        guard case .run(let fromFlag) = try DashboardOptions.parse(flag, environment: environment) else {
            Issue.record("expected options")
            return
        }
        #expect(fromFlag.database == (try DatabaseURL("postgres://flag@db.local/habits")))
        #expect(throws: CommandLineError.self) {
            try DashboardOptions.parse([], environment: ["DATABASE_URL": "mysql://db.local/habits"])
        }
    }

    @Test func environmentProvidesPortAndUpstreamButFlagsWin() throws {
        let environment = ["PORT": "7000", "HABITS_API_URL": "http://api.local:8080"]
        guard case .run(let fromEnvironment) = try DashboardOptions.parse([], environment: environment) else {
            Issue.record("expected options")
            return
        }
        #expect(fromEnvironment.port == 7000)
        #expect(fromEnvironment.upstream?.host == "api.local")
        guard case .run(let fromFlags) = try DashboardOptions.parse(["--port", "7001"], environment: environment)
        else {
            Issue.record("expected options")
            return
        }
        #expect(fromFlags.port == 7001)
    }

    @Test func badEnvironmentIsRejectedToo() {
        #expect(throws: CommandLineError("PORT: expected a port from 0 to 65535, got 'eighty'")) {
            try DashboardOptions.parse([], environment: ["PORT": "eighty"])
        }
        #expect(throws: CommandLineError.self) {
            try DashboardOptions.parse([], environment: ["HABITS_API_URL": "not a url"])
        }
    }

    /// Issue 48: the counters are served nowhere unless a metrics port is given, and then on loopback unless told.
    @Test func theMetricsListenerIsOffByDefaultAndOnLoopback() throws {
        #expect(DashboardOptions().metricsPort == nil)
        guard case .run(let options) = try DashboardOptions.parse(["--metrics-port", "0"]) else {
            Issue.record("expected options")
            return
        }
        #expect(options.metricsPort == 0 && options.metricsHost == "127.0.0.1")
        guard case .run(let elsewhere) = try DashboardOptions.parse(["--metrics-port", "9464", "--metrics-host", "::"])
        else {
            Issue.record("expected options")
            return
        }
        #expect(elsewhere.metricsPort == 9464 && elsewhere.metricsHost == "::")
        #expect(throws: CommandLineError.self) { try DashboardOptions.parse(["--metrics-port", "x"]) }
    }

    @Test func helpIsReported() throws {
        #expect(try DashboardOptions.parse(["--help"]) == .help)
        for flag in [
            "--port", "--host", "--upstream", "--api-port", "--settings-dir", "--data-dir", "--speed", "--seed",
            "--no-history", "--max-connections-per-client",
            "--new-browser-rate", "--trusted-proxy", "--settings-max-age", "--max-settings-files",
            "--refresh-interval", "--cache-dir", "--cache-max-age", "--metrics-port", "--metrics-host",
        ] {
            #expect(DashboardOptions.usage.contains(flag))
        }
    }

    /// The test-only bound on held polls (Tests/Browser/test_retry_after.py starts a dashboard with 0).
    @Test func maxParkedPollsIsReadAndZeroIsAllowed() throws {
        guard case .run(let options) = try DashboardOptions.parse(["--max-parked-polls", "0"]) else {
            Issue.record("not a run")
            return
        }
        #expect(options.parking.capacity == 0)
        #expect(DashboardOptions.usage.contains("--max-parked-polls"))
    }

    /// Issue 46: the caps are settings, with defaults that hold 50 000 live viewers.
    @Test func theConnectionAndParkingCapsAreReadWithDefaultsSizedForFiftyThousandViewers() throws {
        let defaults = DashboardOptions()
        #expect(defaults.maxConnections == 64_000)
        #expect(defaults.parking == ParkingLimits())
        guard
            case .run(let options) = try DashboardOptions.parse([
                "--max-connections", "2048", "--max-parked-polls", "1000", "--max-parked-polls-per-client", "50",
            ])
        else {
            Issue.record("not a run")
            return
        }
        #expect(options.maxConnections == 2048)
        #expect(options.parking.capacity == 1000)
        #expect(options.parking.share == 50)
        for flag in ["--max-connections N", "--max-parked-polls-per-client N"] {
            #expect(DashboardOptions.usage.contains(flag))
        }
        #expect(throws: CommandLineError.self) { try DashboardOptions.parse(["--max-connections", "0"]) }
    }

    /// Issue 10: the "default" column of `--help` was ragged.
    @Test func helpLinesUpItsDefaultColumn() {
        let columns = Set(
            DashboardOptions.usage.split(separator: "\n").compactMap { line in
                line.range(of: "  default ").map { line.distance(from: line.startIndex, to: $0.lowerBound) }
            })
        #expect(columns.count == 1)
    }

    /// `swift run habits-dashboard -- --help` hands the program its `--` (issue 10).
    @Test func optionsAfterTheLaunchersDoubleDashAreRead() throws {
        #expect(try DashboardOptions.parse(["--", "--help"]) == .help)
        #expect(try DashboardOptions.parse(["--", "--port", "9"]) == .run(DashboardOptions(port: 9)))
    }

    @Test(arguments: [
        ["--speed", "10.5"], ["--api-port", "70000"], ["--upstream", "ftp://x"], ["--verbose"],
        ["--max-connections-per-client", "0"], ["--max-connections-per-client", "2000000"],
        ["--max-connections", "0"], ["--max-connections", "2000000"], ["--max-parked-polls-per-client", "0"],
        ["--new-browser-rate", "0"], ["--new-browser-rate", "many"], ["--trusted-proxy", "proxy.local"],
        ["--trusted-proxy", "10.0.0.1/8"], ["--settings-max-age", "0"], ["--max-settings-files", "-1"],
        ["--max-settings-files", "1e5"],
        // Below 0.25 s the upstream would see more than 4 statistics calls per second (issue 9).
        ["--refresh-interval", "0.1"], ["--refresh-interval", "soon"],
        ["--cache-dir", ""], ["--cache-max-age", "0"], ["--cache-max-age", "week"],
        ["--max-parked-polls", "-1"], ["--max-parked-polls", "5000000"],
    ])
    func badCommandLinesAreRejected(arguments: [String]) {
        #expect(throws: CommandLineError.self) { try DashboardOptions.parse(arguments) }
    }

    /// Regression (audit): `--upstream` with `--data-dir`, `--seed`, `--speed` or `--api-port` silently ignored the
    /// simulator flags; the dashboard now names them so the user knows they had no effect.
    @Test func simulatorFlagsAreReportedAsIgnoredWithAnUpstream() throws {
        let withUpstream = try DashboardOptions.parse(
            ["--upstream", "http://127.0.0.1:9999", "--data-dir", "/tmp/d", "--seed", "3", "--speed", "2"])
        guard case .run(let options) = withUpstream else {
            Issue.record("expected options")
            return
        }
        #expect(options.simulatorOptionsIgnored == ["--data-dir", "--speed", "--seed"])
        guard case .run(let embedded) = try DashboardOptions.parse(["--data-dir", "/tmp/d", "--seed", "3"]) else {
            Issue.record("expected options")
            return
        }
        #expect(embedded.simulatorOptionsIgnored.isEmpty)
        #expect(
            DashboardOptions(upstream: URL(string: "http://a"), apiPort: 9).simulatorOptionsIgnored == ["--api-port"])
    }

    @Test func settingsFlagsNameTheProblemInOneLine() {
        #expect(throws: CommandLineError("--trusted-proxy: expected IP addresses or CIDR blocks, got 'proxy.local'")) {
            try DashboardOptions.parse(["--trusted-proxy", "proxy.local"])
        }
        #expect(throws: CommandLineError("--new-browser-rate: expected a whole number from 1 to 1000000, got '0'")) {
            try DashboardOptions.parse(["--new-browser-rate", "0"])
        }
    }

    @Test func publicURLResourcesAndLogLevelAreRead() throws {
        let outcome = try DashboardOptions.parse(
            [
                "--public-url", "https://example.org/habits/", "--resources", "/opt/share", "--log-level", "warning",
                "--log-format", "json",
            ])
        guard case .run(let options) = outcome else {
            Issue.record("no options")
            return
        }
        #expect(options.publicURL == PublicURL("https://example.org/habits/"))
        #expect(options.resourcesDirectory == "/opt/share" && options.logLevel == .warning)
        #expect(options.logFormat == .json && DashboardOptions().logFormat == .logfmt)
        #expect(DashboardOptions().publicURL == nil && DashboardOptions().logLevel == .info)
    }

    @Test func publicURLComesFromTheEnvironmentAndTheFlagWins() throws {
        let fromEnvironment = try DashboardOptions.parse([], environment: ["PUBLIC_URL": "https://a.example"])
        #expect(fromEnvironment == .run(DashboardOptions(publicURL: PublicURL("https://a.example"))))
        let flag = try DashboardOptions.parse(
            ["--public-url", "https://b.example"], environment: ["PUBLIC_URL": "https://a.example"])
        #expect(flag == .run(DashboardOptions(publicURL: PublicURL("https://b.example"))))
    }

    @Test(arguments: [
        (
            ["--public-url", "example.org"],
            "--public-url: expected an http:// or https:// URL with a host and an optional plain path, got 'example.org'"
        ),
        (
            ["--public-url", "https://example.org/?x"],
            "--public-url: expected an http:// or https:// URL with a host and an optional plain path, got 'https://example.org/?x'"
        ),
        (["--log-level", "verbose"], "--log-level: expected debug, info, notice, warning or error, got 'verbose'"),
        (["--log-format", "xml"], "--log-format: expected logfmt or json, got 'xml'"),
    ])
    func badDeployValuesAreNamed(arguments: [String], message: String) {
        #expect(throws: CommandLineError(message)) { try DashboardOptions.parse(arguments) }
    }
}
