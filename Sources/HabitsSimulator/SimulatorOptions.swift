import CommandLineKit

/// The command line of `habits-api`, the simulator alone (SPEC §2).
public struct SimulatorOptions: Sendable, Equatable {
    /// The port to serve the API on.
    public var port: Int
    /// The address to bind (`--host`): loopback unless the API is a host of its own on a network (issue 49).
    public var host: String = "127.0.0.1"
    /// The simulation speed multiplier, 0.1…10.
    public var speed: Double
    /// A seed for a deterministic simulation; nil for a random one.
    public var seed: UInt64?
    /// A HabitServer-format data directory; nil for the built-in data.
    public var dataDirectory: String?
    /// Whether the simulation runs (`--no-simulation` serves the data frozen).
    public var simulationEnabled: Bool
    /// Whether the counts start with half an hour of past activity (`--no-history` starts empty, like HabitServer).
    public var history: Bool
    /// A made-up network of this many people and habits (`--users`, `--habits`, issue 21 point 4) instead of the
    /// built-in data; nil for the built-in data (or `--data-dir`).
    public var generated: (users: Int, habits: Int)?

    public static func == (lhs: SimulatorOptions, rhs: SimulatorOptions) -> Bool {
        lhs.port == rhs.port && lhs.host == rhs.host && lhs.speed == rhs.speed && lhs.seed == rhs.seed
            && lhs.dataDirectory == rhs.dataDirectory
            && lhs.simulationEnabled == rhs.simulationEnabled && lhs.history == rhs.history
            && lhs.generated?.users == rhs.generated?.users && lhs.generated?.habits == rhs.generated?.habits
    }

    /// Creates options; the defaults are those of `habits-api` with no flags.
    public init(
        port: Int = 8080, speed: Double = 1.0, seed: UInt64? = nil, dataDirectory: String? = nil,
        simulationEnabled: Bool = true, history: Bool = true
    ) {
        self.port = port
        self.speed = speed
        self.seed = seed
        self.dataDirectory = dataDirectory
        self.simulationEnabled = simulationEnabled
        self.history = history
    }

    /// The `--help` text.
    public static let usage = """
        Usage: habits-api [options]

        Runs the Habits API simulator alone, a stand-in for the macOS HabitServer.app.

        Options:
          --port N           port to listen on (0 picks a free one)     default 8080
          --host H           address to bind                            default 127.0.0.1
          --speed X          simulation speed multiplier, 0.1 to 10     default 1.0
          --seed N           deterministic simulation with this seed    default random
          --data-dir DIR     HabitServer-format data directory          default built-in data
          --users N          made-up network of N people, 1 to 100000   default 41 (with --habits)
          --habits M         ... and of M habits, 1 to 10000            default 19 (same data per --seed)
          --no-simulation    serve the data without simulating activity
          --no-history       start with no past activity                default half an hour of it
          --help             show this help

        """

    /// Parses `arguments` (without the program name).
    public static func parse(_ arguments: [String]) throws(CommandLineError) -> CommandLineOutcome<SimulatorOptions> {
        var options = SimulatorOptions()
        var scanner = ArgumentScanner(
            arguments,
            options: [
                "--port": .value, "--host": .value, "--speed": .value, "--seed": .value, "--data-dir": .value,
                "--users": .value,
                "--habits": .value,
                "--no-simulation": .flag, "--no-history": .flag, "--help": .flag,
            ])
        while let (name, value) = try scanner.next() {
            let value = value ?? ""
            switch name {
            case "--port": options.port = try OptionValue.port(value, option: name)
            case "--host": options.host = try OptionValue.nonEmpty(value, option: name)
            case "--speed": options.speed = try OptionValue.number(value, option: name, in: 0.1...10)
            case "--seed": options.seed = try OptionValue.seed(value, option: name)
            case "--data-dir": options.dataDirectory = try OptionValue.nonEmpty(value, option: name)
            case "--no-simulation": options.simulationEnabled = false
            case "--no-history": options.history = false
            case "--users":
                options.generated = (
                    try OptionValue.integer(value, option: name, in: 1...100_000), options.generated?.habits ?? 19
                )
            case "--habits":
                options.generated = (
                    options.generated?.users ?? 41, try OptionValue.integer(value, option: name, in: 1...10_000)
                )
            default: return .help
            }
        }
        if options.generated != nil, options.dataDirectory != nil {
            throw CommandLineError("--users and --habits make up the data, --data-dir loads it: give one or the other")
        }
        return .run(options)
    }
}
