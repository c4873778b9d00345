import Foundation
import HTTPServer

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

    /// Creates options; the defaults are those of `habits-dashboard` with no flags and no environment.
    public init(
        port: Int = 8000, host: String = "127.0.0.1", upstream: URL? = nil, apiPort: Int? = nil,
        settingsDirectory: String = "./var/settings", dataDirectory: String? = nil, speed: Double = 1.0,
        seed: UInt64? = nil, history: Bool = true
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
          --port N             dashboard port (env PORT; 0 picks a free one)    default 8000
          --host H             address to bind                                  default 127.0.0.1
          --upstream URL       use this Habits API (env HABITS_API_URL)         default embedded simulator
          --api-port N         port of the embedded API                         default kernel-chosen
          --settings-dir DIR   where per-browser settings files live            default ./var/settings
          --data-dir DIR       HabitServer-format data for the embedded API     default built-in data
          --speed X            simulation speed multiplier, 0.1 to 10           default 1.0
          --seed N             deterministic simulation with this seed          default random
          --no-history         start the embedded API with no past activity     default half an hour of it
          --help               show this help

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
        var scanner = ArgumentScanner(
            arguments,
            options: [
                "--port": .value, "--host": .value, "--upstream": .value, "--api-port": .value,
                "--settings-dir": .value, "--data-dir": .value, "--speed": .value, "--seed": .value,
                "--no-history": .flag, "--help": .flag,
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
            default: return .help
            }
        }
        return .run(options)
    }
}
