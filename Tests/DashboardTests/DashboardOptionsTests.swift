import Foundation
import HTTPServer
import Testing

@testable import Dashboard

@Suite struct DashboardOptionsTests {
    @Test func noFlagsGiveTheSpecDefaults() throws {
        let options = DashboardOptions()
        #expect(try DashboardOptions.parse([]) == .run(options))
        #expect(options.port == 8000 && options.host == "127.0.0.1" && options.apiPort == nil)
        #expect(options.history)
        #expect(options.upstream == nil && options.settingsDirectory == "./var/settings" && options.speed == 1)
    }

    @Test func everyFlagIsRead() throws {
        let outcome = try DashboardOptions.parse([
            "--port", "9000", "--host", "0.0.0.0", "--upstream", "http://127.0.0.1:9999", "--api-port", "0",
            "--settings-dir", "/tmp/s", "--data-dir", "/tmp/d", "--speed", "0.5", "--seed", "3", "--no-history",
        ])
        let expected = DashboardOptions(
            port: 9000, host: "0.0.0.0", upstream: URL(string: "http://127.0.0.1:9999"), apiPort: 0,
            settingsDirectory: "/tmp/s", dataDirectory: "/tmp/d", speed: 0.5, seed: 3, history: false)
        #expect(outcome == .run(expected))
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

    @Test func helpIsReported() throws {
        #expect(try DashboardOptions.parse(["--help"]) == .help)
        for flag in [
            "--port", "--host", "--upstream", "--api-port", "--settings-dir", "--data-dir", "--speed", "--seed",
            "--no-history",
        ] {
            #expect(DashboardOptions.usage.contains(flag))
        }
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

    @Test(arguments: [["--speed", "10.5"], ["--api-port", "70000"], ["--upstream", "ftp://x"], ["--verbose"]])
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
}
